import CTransHostProcess
import TransHostDiscovery
import TransHostManifest
import TransHostPluginHost
import TransHostRun
import TransHostScenario
import TransHostSupport
#if canImport(Glibc)
import Glibc
#endif

/// Where plugin code runs during `run`.
public enum IsolationMode: String, Sendable {
    /// In playback workers (the default): a plugin that crashes, hangs or exits costs its own
    /// transitions, never the run.
    case worker
    /// In the host process itself (`--isolation none`), for debuggers; a plugin that crashes
    /// while animating then stops the run.
    case none
}

/// Limits and policies of supervised playback.
public struct IsolationOptions: Sendable {
    public var mode: IsolationMode = .worker
    /// Stop at the first plugin failure instead of replaying without the plugin (CI).
    public var failFast = false
    /// Seconds one call into a plugin may take (`TRANSHOST_PLUGIN_TIMEOUT`).
    public var callTimeout = 5.0
    /// Seconds loading one plugin may take (`TRANSHOST_VALIDATE_TIMEOUT`).
    public var loadTimeout = PluginValidator.defaultTimeout
    /// Seconds a worker may take for a whole scenario.
    public var workerTimeout = 600.0
    /// The worker's address-space limit (RLIMIT_AS) and CPU-time limit (RLIMIT_CPU).
    public var memoryBytes: UInt64 = 16 << 30
    public var cpuSeconds: UInt64 = 600
    public init() {}
}

/// The outcome of playing one scenario under supervision.
public struct SupervisedPlay {
    /// The run as the last worker played it; nil when it could not be played.
    public var run: RunResult?
    /// Set when `failFast` stopped at this failure.
    public var stoppedAt: PluginFailure?
    /// Why the scenario could not be played at all (a worker that could not start, ...).
    public var error: String?
    /// Warnings about the supervision itself (the scan cache could not be written, ...).
    public var warnings: [String] = []

    public init(run: RunResult?, stoppedAt: PluginFailure? = nil, error: String? = nil, warnings: [String] = []) {
        self.run = run; self.stoppedAt = stoppedAt; self.error = error; self.warnings = warnings
    }

    /// As the run pipeline takes it.
    public var outcome: PlayOutcome {
        if let f = stoppedAt { return .stopped(f.headline) }
        guard var run else { return .unplayable(error ?? "no playback worker finished it") }
        run.events.insert(contentsOf: warnings.map(RunEvent.warning), at: 0)
        return .played(run)
    }
}

/// Plays scenarios in playback workers (`transhost __worker`, see PlaybackWorker) and keeps the
/// run going when a plugin fails.
///
/// Design (chosen by measurement, see docs/isolation.md): one worker per scenario plays the
/// whole script with its plugins in-process; playing is deterministic and cheap, so after a
/// failure the scenario is simply played again in a fresh worker with the failed plugin taken
/// out from the failing transition on. Each plugin call costs nothing extra: the worker only
/// writes where it is into a shared page. A plugin in its own process behind an IPC bridge
/// would instead pay a round trip on each of the host callbacks an animation makes.
///
/// When a worker dies or overruns in transition N while plugin P runs call C:
/// - while P was loading (constructors, init, get_animator): P counts as failed to load, as a
///   validation child would have found, and is remembered so in the scan cache;
/// - otherwise transition N is marked plugin-failed (P, C, the signal, exit status or timeout),
///   remembered for `list`, and the scenario is replayed with P's routes giving the default
///   transition for N and every later transition;
/// - a worker that fails after it sent its result (deinit, library destructors) costs nothing
///   but is named.
public enum Supervisor {
    /// A playback worker started ahead of the run's first scenario (see `standby(options:)`).
    public final class Standby {
        let spawned: WorkerRun.Spawned
        /// Workers forked for the second, third, ... scenarios (`prepare(scenarios:options:)`).
        private(set) var more: [WorkerRun.Spawned] = []
        init(_ spawned: WorkerRun.Spawned) { self.spawned = spawned }

        /// At most this many workers wait ahead of their scenarios; later scenarios spawn theirs.
        static let maximum = 16

        /// Forks a waiting worker for each scenario after the first, up to `count` workers in
        /// all (at most `maximum`), while the host can still fork them: before any thread of the
        /// host has started. One spawned once the host has threads execs transhost and loads its
        /// libraries again: in the gallery's `--trace-only`, seven such workers took about 50 ms
        /// more CPU than seven forked ones. Stops at the first that cannot be forked (the
        /// scenarios without one spawn theirs, as always).
        /// Dropped unused, each is killed and reaped.
        public func prepare(scenarios count: Int, options: IsolationOptions) {
            while more.count + 1 < min(count, Self.maximum), case .success(let s) = WorkerRun.spawn(options: options, forkOnly: true) {
                more.append(s)
            }
        }

        /// The worker waiting for scenario `i`, if any.
        func worker(for i: Int) -> WorkerRun.Spawned? { i == 0 ? spawned : i - 1 < more.count ? more[i - 1] : nil }
    }

    /// Starts the first scenario's playback worker now, before its request is known: a worker
    /// spends most of its start loading the transhost binary and its libraries, and it can do
    /// that while the host scans plugins and reads scenarios. Pass it to `playAll`. Nil with
    /// `--isolation none`, or when it could not start (`playAll` then starts workers as
    /// always, and says why one could not start). Dropped unused, the worker is killed.
    public static func standby(options: IsolationOptions) -> Standby? {
        guard options.mode == .worker, case .success(let s) = WorkerRun.spawn(options: options) else { return nil }
        return Standby(s)
    }

    /// Plays every scenario, in order. With workers, as many scenarios play at once as there
    /// are cores (each worker plays one scenario on one thread); results are taken in order, so
    /// the outcome is the same as playing one after the other. With `failFast`, the first
    /// plugin failure stops everything: the plays up to it are returned, the last one stopped.
    /// `played` gets each play as soon as it is taken, in order (a run renders it meanwhile).
    /// The first scenarios go to `standby`'s workers when there are some.
    public static func playAll(_ scenarios: [Scenario], scan: PluginScan, fps: FrameRate, loading: PluginLoadOptions,
                               unroutable: [(plugin: String, message: String)], options: IsolationOptions, standby: Standby? = nil,
                               played: (SupervisedPlay) -> Void = { _ in }) -> [SupervisedPlay] {
        guard options.mode == .worker else {
            return scenarios.map {
                let p = play($0, scan: scan, fps: fps, loading: loading, unroutable: unroutable, options: options, prestarted: nil)
                played(p)
                return p
            }
        }
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
        let ahead = max(1, min(8, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        var started: [Int: WorkerRun.Started] = [:]
        func prestart(_ i: Int) {
            guard i < scenarios.count, started[i] == nil,
                  case .success(let w) = WorkerRun.start(firstRequest(scenarios[i], scan: scan, fps: fps, loading: loading, unroutable: unroutable),
                                                         options: options, spawned: standby?.worker(for: i))
            else { return }
            started[i] = w
        }
        var out: [SupervisedPlay] = []
        for i in scenarios.indices {
            for j in i..<min(scenarios.count, i + ahead) { prestart(j) }
            let p = play(scenarios[i], scan: scan, fps: fps, loading: loading, unroutable: unroutable, options: options,
                         prestarted: started.removeValue(forKey: i))
            out.append(p)
            played(p)
            if p.stoppedAt != nil { break }
        }
        for w in started.values { w.abandon() }
        return out
    }

    static func routable(_ scan: PluginScan) -> [PluginRecord] { scan.routable.filter { $0.manifestPath != nil && $0.manifest != nil } }

    static func firstRequest(_ scenario: Scenario, scan: PluginScan, fps: FrameRate, loading: PluginLoadOptions,
                             unroutable: [(plugin: String, message: String)]) -> WorkerRequest {
        request(scenario, scan: scan, fps: fps, loading: loading, unroutable: unroutable, excluded: [], replaced: [])
    }

    static func request(_ scenario: Scenario, scan: PluginScan, fps: FrameRate, loading: PluginLoadOptions,
                        unroutable: [(plugin: String, message: String)], excluded: [(plugin: String, reason: String)],
                        replaced: [PluginFailure]) -> WorkerRequest {
        let texts = loading.parameters.texts
        return WorkerRequest(scenarioSource: scenario.source, device: scenario.device, fps: fps.perSecond,
                             plugins: routable(scan).map { .init(manifest: $0.manifestPath!, validation: $0.validation) },
                             parameters: texts.keys.sorted().flatMap { p in texts[p]!.keys.sorted().map { "\(p).\($0)=\(texts[p]![$0]!)" } },
                             unroutable: unroutable, excluded: excluded, replaced: replaced)
    }

    /// Plays one scenario: in this process with `--isolation none`, else in workers until one
    /// finishes (replaying after each plugin failure).
    static func play(_ scenario: Scenario, scan: PluginScan, fps: FrameRate, loading: PluginLoadOptions,
                     unroutable: [(plugin: String, message: String)], options: IsolationOptions,
                     prestarted: WorkerRun.Started?) -> SupervisedPlay {
        if options.mode == .none {
            return SupervisedPlay(run: Playback.play(scenario, scan: scan, fps: fps, loading: loading, failures: unroutable).run)
        }
        _ = Glibc.signal(SIGPIPE, SIG_IGN)
        var prestarted = prestarted
        let routable = routable(scan)
        let manifestOf = Dictionary(routable.map { ($0.name, $0.manifestPath!) }, uniquingKeysWith: { a, _ in a })
        var excluded: [(plugin: String, reason: String)] = []
        var replaced: [PluginFailure] = []
        var failures: [PluginFailure] = []
        var warnings: [String] = []
        func save() {
            guard let cache = scan.cache else { return }
            do { try cache.save() } catch {
                warnings.append("the scan cache could not be written (\(error)); plugin results will be found again next time")
            }
        }
        // Every attempt after the first takes one more plugin out, so this bound is never the
        // reason to stop for a deterministic plugin.
        let attempts = 2 * routable.count + 2
        for _ in 0..<attempts {
            let request = Self.request(scenario, scan: scan, fps: fps, loading: loading, unroutable: unroutable,
                                       excluded: excluded, replaced: replaced)
            let outcome: WorkerRun.Outcome
            if let w = prestarted {
                prestarted = nil
                outcome = WorkerRun.finish(w, request: request, scenario: scenario, options: options)
            } else {
                outcome = WorkerRun.run(request, scenario: scenario, options: options)
            }
            switch outcome {
            case .failedToStart(let message):
                return SupervisedPlay(run: nil, error: message, warnings: warnings)
            case .finished(var result, let lateFailure):
                for v in result.validations {
                    guard let key = manifestOf[v.plugin] else { continue }
                    scan.cache?.setValidation(v.failure.map { .failed($0) } ?? .passed, for: key)
                }
                if let f = lateFailure { failures.append(f) }
                save()
                result.run.events += failures.map(RunEvent.pluginFailure)
                return SupervisedPlay(run: result.run, warnings: warnings)
            case .loadFailed(let plugin, let reason, let failure):
                failures.append(failure)
                excluded.append((plugin, reason))
                if let key = manifestOf[plugin] { scan.cache?.setValidation(.failed(reason), for: key) }
                save()
            case .callFailed(let failure):
                failures.append(failure)
                if let key = manifestOf[failure.plugin] { scan.cache?.setCrash(failure.summary, for: key) }
                save()
                if options.failFast { return SupervisedPlay(run: nil, stoppedAt: failure, warnings: warnings) }
                replaced.append(failure)
            }
        }
        return SupervisedPlay(run: nil,
                              error: "scenario \(scenario.name) failed in \(attempts) playback workers in a row (\(failures.map(\.message).joined(separator: "; "))); giving up on it",
                              warnings: warnings)
    }
}
