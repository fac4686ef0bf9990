import TransHostIsolation
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
      list      show installed plugins, their routes and status (never runs plugin code)
      run       play a scenario through the coordinators and write a trace
      route     show which animator a transition would get, and why
      inspect   show one plugin's manifest, library and status
      help      show this text, or `transhost help <command>`

    common options:
      --plugins DIR     also look for plugins in DIR (first on the search path; repeatable)
      --registry FILE   the registry of first-party plugins (default: registry.json beside the binary)
      --rescan          ignore the scan cache: inspect (and, for run, validate) every plugin afresh
      --no-fork         with run --isolation none: load plugins in the host without a validation
                        child process first (a plugin that crashes while loading then crashes it)
      -q, --quiet       print only errors
      -h, --help        show help

    environment: TRANSHOST_PLUGIN_PATH (more plugin dirs), TRANSHOST_REGISTRY, TRANSHOST_CACHE (the
    scan cache file; empty turns it off), TRANSHOST_VALIDATE_TIMEOUT (seconds loading a plugin may take,
    default 5), TRANSHOST_PLUGIN_TIMEOUT (seconds one plugin call may take in a worker, default 5), NO_COLOR

    exit codes: 0 ok, 1 mismatch, 2 usage, 3 plugin failed (to load, or while animating), 4 animator broke its contract,
                5 invalid input or unwritable output
    """

    /// Runs one command line (without the program name).
    public static func main(_ argv: [String], environment: [String: String], console: Console) -> ExitCode {
        guard let command = argv.first else { console.err(usage); return .usage }
        let rest = Array(argv.dropFirst())
        // Child processes run this same binary in a hidden mode (see ChildProcess).
        if let me = FileIO.executablePath() { ChildProcess.executable = me }
        if command == "__worker" { PlaybackWorker.main(rest) }
        if command == "__validate" { PluginValidator.childMain(rest) }
        if rest.contains("--help") || rest.contains("-h"), let text = help(for: command) {
            console.out(text)
            return .ok
        }
        do {
            switch command {
            case "list": return try ListCommand.run(rest, environment: environment, console: console)
            case "run": return try RunCommand.run(rest, environment: environment, console: console)
            case "route": return try RouteCommand.run(rest, environment: environment, console: console)
            case "inspect": return try InspectCommand.run(rest, environment: environment, console: console)
            case "stage-plugins": return try StagePluginsCommand.run(rest, console: console)
            case "help", "-h", "--help":
                if let sub = rest.first, let text = help(for: sub) { console.out(text) } else { console.out(usage) }
                return .ok
            case "--version", "version":
                console.out("transhost \(version) (plugin ABI \(HostABI.text))")
                return .ok
            default:
                console.err("transhost: unknown command \"\(command)\"; run `transhost help` for the list")
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

    static func help(for command: String) -> String? {
        switch command {
        case "list": return ListCommand.help
        case "run": return RunCommand.help
        case "route": return RouteCommand.help
        case "inspect": return InspectCommand.help
        case "stage-plugins": return StagePluginsCommand.help
        default: return nil
        }
    }
}

/// Plugin discovery options shared by the commands.
struct PluginOptions {
    static let valued: Set<String> = ["--plugins", "--registry"]
    static let flags: Set<String> = ["--rescan", "--no-fork"]

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
            if FileIO.exists(beside) { registryFile = beside }
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
