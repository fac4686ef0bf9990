import TransHostDiscovery
import TransHostSupport
#if canImport(Glibc)
import Glibc
#endif

/// Set by SIGINT/SIGTERM while `run --watch` waits for a change (a signal handler may only
/// store a flag).
nonisolated(unsafe) private var watchStopRequested: Int32 = 0

extension RunCommand {
    /// The files a run depends on: the scenario given, and every plugin's manifest, library and
    /// the demo scenario beside it.
    static func inputs(_ args: Arguments, scan: PluginScan) -> [String] {
        var files: [String] = []
        if let s = args.value("--scenario"), s != "default" { files.append(PathUtil.absolute(s)) }
        for r in scan.records {
            guard let m = r.manifestPath else { continue }
            files.append(m)
            if let lib = r.libraryPath { files.append(lib) }
            let demo = PathUtil.join(PathUtil.dirname(m), "demo.json")
            if FileIO.exists(demo) { files.append(demo) }
        }
        return files
    }

    /// `run --watch`: the author's inner loop. Each round is a complete run (a fresh scan, fresh
    /// playback workers, so a rebuilt library is the one loaded); between rounds it waits for a
    /// change, says which files changed and plays again. Ctrl-C while waiting ends it with the
    /// last round's exit code; during a round it interrupts that run as usual.
    static func watch(_ argv: [String], environment: [String: String], console: Console) throws -> ExitCode {
        let options = argv.prefix { $0 != "--" }
        if options.contains("--json") { throw UsageError(message: "--watch prints a summary per round; it cannot be combined with --json") }
        let inProcess = options.contains("--isolation=none") || zip(options, options.dropFirst()).contains { $0 == "--isolation" && $1 == "none" }
        if inProcess {
            throw UsageError(message: "--watch needs playback workers (a library loaded into transhost cannot be reloaded); drop --isolation none")
        }
        var files: [String] = []
        var baseline: [String: String] = [:]
        var last = ExitCode.ok
        var round = 0
        while true {
            round += 1
            do {
                last = try run(argv, environment: environment, console: console, watched: { files = $0; baseline = FileWatcher.stamps(of: $0) })
            } catch let e as UsageError where round == 1 {
                throw e
            } catch {
                // A half-saved file is the normal case while editing: say so and wait for the next save.
                console.err("transhost run: \(error)")
                last = .inputError
            }
            guard !files.isEmpty else {
                console.err("transhost run --watch: there is nothing to watch (no scenario file and no plugins)")
                return last
            }
            console.out("outcome: exit \(last.rawValue) (\(describe(last))); watching \(files.count) files for changes (Ctrl-C to stop)")
            let watcher: FileWatcher
            do { watcher = try FileWatcher(files: files, source: try InotifyEventSource(), baseline: baseline) } catch {
                console.err("transhost run --watch: \(error)")
                return .inputError
            }
            watchStopRequested = 0
            let handler: @convention(c) (Int32) -> Void = { _ in watchStopRequested = 1 }
            let oldInt = signal(SIGINT, handler), oldTerm = signal(SIGTERM, handler)
            let changed = watcher.waitForChange { watchStopRequested != 0 }
            signal(SIGINT, oldInt)
            signal(SIGTERM, oldTerm)
            guard let changed else {
                console.out("stopped watching")
                return last
            }
            console.out("changed: \(changed.joined(separator: ", "))")
        }
    }

    static func describe(_ code: ExitCode) -> String {
        switch code {
        case .ok: return "ok"
        case .mismatch: return "differs from --expect"
        case .usage: return "usage"
        case .pluginFailed: return "a plugin failed"
        case .contractBreach: return "an animator broke the contract"
        case .inputError: return "invalid input or unwritable output"
        }
    }
}
