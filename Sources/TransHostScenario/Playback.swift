import TransHostCoordinators
import TransHostPluginHost
import TransHostDiscovery
import TransHostRouting

/// What a supervisor asks of a playback beyond the scenario (see `Playback.play`).
public struct PlaybackControl {
    /// Plugins treated as failed to load, with the reason: their routes get the default.
    public var excluded: [(plugin: String, reason: String)] = []
    /// Plugins that failed in an earlier attempt: from the failure's transition on, every
    /// transition routed to that plugin gets the default transition instead.
    public var replaced: [PluginFailure] = []
    /// Told each step of loading a plugin (plugin, step), and each validation result.
    public var loadStage: (String, LoadStage) -> Void = { _, _ in }
    public var validation: (String, ScanCache.Validation) -> Void = { _, _ in }
    /// Told when loading a plugin ended (loaded or failed).
    public var loadEnded: (String) -> Void = { _ in }
    /// Told the app before the script runs (a worker reads its current transition index).
    public var started: (App) -> Void = { _ in }
    public init() {}
}

/// Plays a scenario with the plugins of a scan: builds the app, makes the plugin runtime the
/// coordinators' delegate, and runs the script.
public struct Playback {
    public let run: RunResult
    public let app: App
    /// How many routed plugins failed to load (the default transition ran instead).
    public let loadFailures: Int

    public init(run: RunResult, app: App, loadFailures: Int) {
        self.run = run; self.app = app; self.loadFailures = loadFailures
    }

    public static func play(_ scenario: Scenario, scan: PluginScan, fps: Int = 60, loading: PluginLoadOptions = PluginLoadOptions(),
                            control: PlaybackControl = PlaybackControl()) -> Playback {
        let app = App(scenario: scenario)
        var breachSink: (ContractBreach) -> Void = { _ in }
        var logSink: (String) -> Void = { _ in }
        let bridge = HostBridge(engine: app.engine, breachHandler: { breachSink($0) }, logHandler: { logSink($0) })
        bridge.activate()
        let runtime = PluginRuntime(scan: scan, types: TypeHierarchy(superclasses: scenario.types), bridge: bridge, options: loading)
        for e in control.excluded { runtime.exclude(e.plugin, reason: e.reason) }
        runtime.loadProgress = control.loadStage
        runtime.validationRecorded = control.validation
        runtime.loadEnded = control.loadEnded
        let replacing = control.replaced.isEmpty ? nil : ReplacingProvider(runtime: runtime, host: app.host, replaced: control.replaced)
        let runner = ScenarioRunner(app: app, provider: replacing ?? runtime, fps: fps)
        var loadFailures = 0
        runtime.warningHandler = { loadFailures += 1; runner.warn($0) }
        runtime.conflictHandler = { runner.warn($0) }
        logSink = { runner.log($0) }
        runner.interactionRule = { context in
            guard let t = app.host.active, t.context === context, let a = t.animator else { return nil }
            return runtime.interactionRule(for: a)
        }
        breachSink = { app.host.report($0) }
        // Engine warnings during a plugin call (addKeyframe outside a keyframe block, ...) are
        // that plugin's breach; the host's own are warnings.
        app.engine.warningHandler = { message in
            if bridge.isCallingPlugin { bridge.breachFromEngine(message) } else { runner.warn(message) }
        }
        control.started(app)
        var run = runner.run()
        bridge.reportOffThreadCalls()
        if let replacing {
            for (i, t) in run.transitions.enumerated() {
                if let f = replacing.replacedAt[t.record.index] {
                    run.transitions[i].pluginFailure = TransitionFailureNote(failedHere: f.transition == t.record.index, failure: f)
                }
            }
        }
        return Playback(run: run, app: app, loadFailures: loadFailures)
    }
}

/// The replay rule: a plugin that failed in transition N is not asked again in this scenario.
/// Transition N and every later transition routed to it get the host's default transition.
final class ReplacingProvider: TransitionAnimatorProvider {
    let runtime: PluginRuntime
    unowned let host: TransitionHost
    let replaced: [PluginFailure]
    private(set) var replacedAt: [Int: PluginFailure] = [:]

    init(runtime: PluginRuntime, host: TransitionHost, replaced: [PluginFailure]) {
        self.runtime = runtime; self.host = host; self.replaced = replaced
    }

    func animator(for request: TransitionRequest) -> TransitionAnimator? {
        let query = RouteQuery(container: request.container, operation: request.operation,
                               from: request.from.typeName, to: request.to.typeName)
        let index = host.currentTransitionIndex
        if let winner = runtime.router.resolve(query).winner,
           let f = replaced.first(where: { $0.plugin == winner.rule.plugin && index >= ($0.transition ?? 0) }) {
            replacedAt[index] = f
            return nil
        }
        return runtime.animator(for: request)
    }
}
