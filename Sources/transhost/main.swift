import TransHostCommands
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

// The executable only forwards argv, the environment and the console to the library.
var environment: [String: String] = [:]
var envp = environ
while let p = envp.pointee {
    let kv = String(cString: p)
    if let eq = kv.firstIndex(of: "=") { environment[String(kv[..<eq])] = String(kv[kv.index(after: eq)...]) }
    envp += 1
}
setvbuf(stdout, nil, _IOLBF, 0)
let console = Console(
    out: { StandardOutput.write($0) },
    err: { fputs($0 + "\n", stderr) },
    isTTY: isatty(2) != 0,
    color: isatty(2) != 0 && environment["NO_COLOR"] == nil,
    errRaw: { fputs($0, stderr); fflush(stderr) })
exit(TransHostCLI.main(Array(CommandLine.arguments.dropFirst()), environment: environment, console: console).rawValue)
