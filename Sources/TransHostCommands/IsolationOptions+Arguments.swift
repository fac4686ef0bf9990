import TransHostIsolation
import TransHostDiscovery
import TransHostManifest
import TransHostPluginHost
import TransHostScenario
import TransHostSupport

extension IsolationOptions {
    static let valued: Set<String> = ["--isolation"]
    static let flags: Set<String> = ["--fail-fast"]

    /// --isolation worker|none, --fail-fast, TRANSHOST_PLUGIN_TIMEOUT and the load timeout.
    init(_ args: Arguments, environment: [String: String], loadTimeout: Double) throws {
        self.init()
        if let m = args.value("--isolation") {
            guard let mode = IsolationMode(rawValue: m) else {
                throw UsageError(message: "--isolation must be worker (plugins play in child processes, the default) or none (in transhost itself, for debuggers), got \"\(m)\"")
            }
            self.mode = mode
        }
        failFast = args.flag("--fail-fast")
        self.loadTimeout = loadTimeout
        if let t = environment["TRANSHOST_PLUGIN_TIMEOUT"], !t.isEmpty {
            guard let d = Double(t), d.isFinite, d > 0, d <= 3600 else {
                throw UsageError(message: "TRANSHOST_PLUGIN_TIMEOUT must be a number of seconds in (0, 3600], got \"\(t)\"")
            }
            callTimeout = d
        }
    }
}

/// The lines a run prints about plugin failures.
enum FailureReport {
    /// After a transition's summary line: what happened to its plugin.
    static func note(_ t: TransitionTrace) -> String? {
        guard let n = t.pluginFailure else { return nil }
        let f = n.failure
        return n.failedHere
            ? "      plugin-failed: \(f.message)"
            : "      default transition: plugin \(f.plugin) failed in transition #\(f.transition ?? 0) (\(f.cause) in \(f.call))"
    }
}
