import TransHostIsolation
import TransHostValidation
import TransHostAuthoring
import TransHostPluginHost
import TransHostSupport
import TransHostDiscovery
import TransHostManifest
import TransHostRouting

/// The `transhost` command line: parses arguments, calls the library, maps outcomes to exit
/// codes. The executable only forwards argv, the environment and the console here.
public enum TransHostCLI {
    public static let version = "0.1.0"

    public static let usage = """
    transhost — run iOS-style view-controller transition animators headlessly

    usage: transhost <command> [options]

    commands:
      list      show installed plugins, their routes and status (plugin code only in child processes)
      run       play a scenario through the coordinators and write a trace
      route     show which animator a transition would get, and why
      inspect   show one plugin's manifest, library and status
      validate  check plugins against the transition contract, each test in its own process
      new       write a new plugin project (C or Swift) that builds out of tree and passes validate
      merge-reports  join the outputs of several runs (--shard parts) into one report
      help      show this text, or `transhost help <command>`

    common options:
      --plugins DIR     also look for plugins in DIR (first on the search path; repeatable)
      --registry FILE   the registry of first-party plugins (default: registry.json beside the binary)
      --rescan          ignore the scan cache: inspect (and, for run, validate) every plugin afresh
      --no-fork         with run --isolation none: load plugins in the host without a validation
                        child process first (a plugin that crashes while loading then crashes it)
      -q, --quiet       print only errors
      -h, --help        show help
      --                end of options: what follows is an argument even if it starts with '-'

    The common options may also come before the command: `transhost --plugins DIR list`.

    environment: TRANSHOST_PLUGIN_PATH (more plugin dirs), TRANSHOST_REGISTRY, TRANSHOST_CACHE (the
    scan cache file; empty turns it off), TRANSHOST_VALIDATE_TIMEOUT (seconds loading a plugin may take,
    default 5), TRANSHOST_PLUGIN_TIMEOUT (seconds one plugin call may take in a worker, default 5), NO_COLOR

    exit codes: 0 ok, 1 mismatch, 2 usage, 3 plugin failed (to load, or while animating; list --failed:
                one is listed; inspect: the plugin is not usable), 4 animator broke its contract,
                5 invalid input or unwritable output
    """

    /// Runs one command line (without the program name).
    static let commands = ["list", "run", "route", "inspect", "validate", "new", "merge-reports", "help", "version"]

    public static func main(_ argv: [String], environment: [String: String], console: Console) -> ExitCode {
        // An interrupted run leaves no half-written temporary files behind.
        TemporaryFiles.installSignalCleanup()
        let command: String, rest: [String]
        do { (command, rest) = try splitGlobalOptions(argv) } catch let e as UsageError {
            console.err("transhost: \(e.message); run `transhost help` for usage")
            return .usage
        } catch { return .usage }
        guard !command.isEmpty else { console.err(usage); return .usage }
        // Child processes run this same binary in a hidden mode (see ChildProcess).
        if let me = FileIO.executablePath() { ChildProcess.executable = me }
        if command == "__worker" { PlaybackWorker.main(rest) }
        if command == "__validate" { PluginValidator.childMain(rest) }
        if command == "__validate-test" { ValidationRunner.childMain(rest) }
        // Options end at "--": a "--help" after it is an argument, not a request for help.
        let options = rest.prefix { $0 != "--" }
        if options.contains("--help") || options.contains("-h"), let text = help(for: command) {
            console.out(text)
            return .ok
        }
        do {
            switch command {
            case "list": return try ListCommand.run(rest, environment: environment, console: console)
            case "run": return try RunCommand.run(rest, environment: environment, console: console)
            case "route": return try RouteCommand.run(rest, environment: environment, console: console)
            case "inspect": return try InspectCommand.run(rest, environment: environment, console: console)
            case "validate": return try ValidateCommand.run(rest, environment: environment, console: console)
            case "new": return try NewCommand.run(rest, console: console)
            case "merge-reports": return try MergeReportsCommand.run(rest, console: console)
            case "stage-plugins": return try StagePluginsCommand.run(rest, console: console)
            case "help", "-h", "--help":
                guard let sub = rest.first(where: { $0 != "--" }) else { console.out(usage); return .ok }
                guard let text = help(for: sub) else {
                    console.err("transhost help: there is no command \"\(sub)\"\(Spelling.hint(for: sub, among: commands)); the commands are list, run, route, inspect, validate, new, merge-reports")
                    return .usage
                }
                console.out(text)
                return .ok
            case "--version", "version":
                console.out("transhost \(version) (plugin ABI \(HostABI.text))")
                return .ok
            default:
                console.err("transhost: unknown command \"\(command)\"\(Spelling.hint(for: command, among: commands)); run `transhost help` for the list")
                return .usage
            }
        } catch let e as UsageError {
            console.err("transhost \(command): \(e.message); run `transhost help \(command)` for usage")
            return .usage
        } catch let e as PluginHostError {
            console.err("transhost \(command): \(e)")
            if case .missingPluginDirectory = e { return .usage }
            return .inputError
        } catch {
            console.err("transhost \(command): \(error)")
            return .inputError
        }
    }

    /// The command and its arguments, with the common options written before the command
    /// (`transhost --plugins D list`) moved after it, where every command reads them.
    static func splitGlobalOptions(_ argv: [String]) throws -> (command: String, rest: [String]) {
        var globals: [String] = []
        var i = 0
        while i < argv.count {
            let a = argv[i]
            guard a.hasPrefix("-"), a.count > 1, !["-h", "--help", "--version"].contains(a) else { break }
            if a == "--" { i += 1; break }
            let name = a.split(separator: "=", maxSplits: 1).first.map(String.init) ?? a
            if PluginOptions.valued.contains(name) {
                if a.contains("=") { globals.append(a); i += 1; continue }
                guard i + 1 < argv.count else { throw UsageError(message: "option \(name) needs a value") }
                globals += [a, argv[i + 1]]
                i += 2
            } else if PluginOptions.flags.contains(name) {
                globals.append(a)
                i += 1
            } else {
                let known = PluginOptions.valued.union(PluginOptions.flags)
                throw UsageError(message: "unknown option \(name) before the command\(Spelling.hint(for: name, among: known.sorted())) (only \(known.sorted().joined(separator: ", ")) may come before it)")
            }
        }
        guard i < argv.count else { return ("", globals) }
        return (argv[i], globals + argv[(i + 1)...])
    }

    static func help(for command: String) -> String? {
        switch command {
        case "list": return ListCommand.help
        case "run": return RunCommand.help
        case "route": return RouteCommand.help
        case "inspect": return InspectCommand.help
        case "validate": return ValidateCommand.help
        case "new": return NewCommand.help
        case "merge-reports": return MergeReportsCommand.help
        case "stage-plugins": return StagePluginsCommand.help
        default: return nil
        }
    }
}

/// Plugin discovery options shared by the commands.
struct PluginOptions {
    static let valued: Set<String> = ["--plugins", "--registry"]
    static let flags: Set<String> = ["--rescan", "--no-fork", "-q", "--quiet"]

    let searchPath: PluginSearchPath
    let registry: PluginRegistry?
    /// The scan cache file (nil: off).
    let cachePath: String?
    let rescan: Bool
    let fork: Bool
    let timeout: Double

    init(_ args: Arguments, environment: [String: String]) throws {
        cachePath = ScanCache.defaultPath(environment: environment)
        rescan = args.flag("--rescan")
        fork = !args.flag("--no-fork")
        if let t = environment["TRANSHOST_VALIDATE_TIMEOUT"], !t.isEmpty {
            guard let d = Double(t), d.isFinite, d > 0, d <= 3600 else {
                throw UsageError(message: "TRANSHOST_VALIDATE_TIMEOUT must be a number of seconds in (0, 3600], got \"\(t)\"")
            }
            timeout = d
        } else {
            timeout = PluginValidator.defaultTimeout
        }
        searchPath = PluginSearchPath.standard(explicit: args.values("--plugins"), environment: environment,
                                               executablePath: FileIO.executablePath())
        var registryFile = args.value("--registry") ?? environment["TRANSHOST_REGISTRY"]
        if registryFile == nil, let exe = FileIO.executablePath() {
            let beside = PathUtil.join(PathUtil.dirname(exe), "registry.json")
            // scripts/install puts it beside the plugins: PREFIX/lib/transhost/registry.json.
            let installed = PluginSearchPath.prefixPluginDirectory(executablePath: exe).map { PathUtil.join(PathUtil.dirname($0), "registry.json") }
            if FileIO.exists(beside) { registryFile = beside } else if let installed, FileIO.exists(installed) { registryFile = installed }
        }
        registry = try registryFile.map { try PluginRegistry.load(file: $0) }
    }

    func scan() throws -> PluginScan {
        try PluginScanner.scan(searchPath, registry: registry, cache: ScanCache(path: cachePath, fresh: rescan))
    }

    /// How run loads plugins: --no-fork, the timeout, and --param overrides checked against the
    /// scanned manifests (a wrong plugin, parameter, type or range is a usage error).
    func loading(_ args: Arguments, scan: PluginScan) throws -> PluginLoadOptions {
        do {
            let params = try ParameterOverrides.parse(args.values("--param"), scan: scan)
            return PluginLoadOptions(fork: fork, timeout: timeout, parameters: params)
        } catch let e as ParameterError {
            throw UsageError(message: "--param: \(e.message)")
        }
    }
}
