import TransHostCoordinators
import TransHostDiscovery
import TransHostPluginHost
import TransHostRouting
import TransHostScenario

/// The "play" step of a run: a scenario, the plugins a scan resolved (and those known to have
/// failed already) and how to load them go in;
/// a `RunResult` value comes out (transitions, frames, final state and every event, each once).
/// Nothing else of the process is touched but the plugin libraries it loads, so the step can run
/// where the plugins are (this process today, a worker process later).
/// What a supervisor asks of a playback beyond the scenario (see `Playback.play`).
public struct PlaybackControl {
    /// Plugins treated as failed to load, with the reason: their routes get the default.
    public var excluded: [(plugin: String, reason: String)] = []
    /// Plugins that failed in an earlier attempt: from the failure's transition on, every
    /// transition routed to that plugin gets the default transition instead.
    public var replaced: [PluginFailure] = []
    /// Told each step of loading a plugin (plugin, step), each validation result, and when
    /// loading a plugin ended.
    public var loadStage: (String, LoadStage) -> Void = { _, _ in }
    public var validation: (String, ScanCache.Validation) -> Void = { _, _ in }
    public var loadEnded: (String) -> Void = { _ in }
    /// Told the app before the script runs (a worker reads its current transition index).
    public var started: (App) -> Void = { _ in }
    public init() {}
}

public struct Playback {
    public let run: RunResult
    /// The app as it was left, for in-process callers that inspect views (tests, benchmarks).
    public let app: App

    /// How many routed plugins failed to load (the default transition ran instead).
    public var loadFailures: Int { run.loadFailures.count }

    public static func play(_ scenario: Scenario, scan: PluginScan, fps: FrameRate = .standard,
                            loading: PluginLoadOptions = PluginLoadOptions(), libraries: PluginLibraries = .process,
                            failures: [(plugin: String, message: String)] = [], control: PlaybackControl = PlaybackControl()) -> Playback {
        let app = App(scenario: scenario)
        let ledger = EventLedger()
        for f in failures { ledger.loadFailure(plugin: f.plugin, message: f.message) }
        var breachSink: (ContractBreach) -> Void = { _ in }
        let bridge = HostBridge(engine: app.engine, breachHandler: { breachSink($0) }, logHandler: { ledger.log($0) })
        bridge.activate()
        let services = AppServices(app: app)
        bridge.app = services
        let runtime = PluginRuntime(scan: scan, types: TypeHierarchy(superclasses: scenario.types), bridge: bridge,
                                    options: loading, libraries: libraries)
        for e in control.excluded { runtime.exclude(e.plugin, reason: e.reason) }
        runtime.loadProgress = control.loadStage
        runtime.validationRecorded = control.validation
        runtime.loadEnded = control.loadEnded
        let replacing = control.replaced.isEmpty ? nil : ReplacingProvider(runtime: runtime, host: app.host, replaced: control.replaced)
        runtime.runningContext = { app.host.active?.context }
        let presentations = PresentationProvider(runtime: runtime, host: app.host, replaced: control.replaced)
        app.modal.presentationControllerProvider = presentations
        let runner = ScenarioRunner(app: app, provider: replacing ?? runtime, fps: fps, ledger: ledger)
        runner.gestureRecognizer = { services.recognizer(at: $0).map { r in r.deliver } }
        runner.onTransitionEnd = { runtime.transitionEnded($0) }
        runtime.loadFailureHandler = { ledger.loadFailure(plugin: $0, message: $1) }
        runtime.warningHandler = { ledger.warn($0) }
        runtime.conflictHandler = { ledger.warn($0) }
        runner.interactionRule = { context in
            guard let t = app.host.active, t.context === context, let a = t.animator else { return nil }
            return runtime.interactionRule(for: a)
        }
        breachSink = { app.host.report($0) }
        // Engine warnings during a plugin call (addKeyframe outside a keyframe block, ...) are
        // that plugin's breach; the host's own are warnings.
        app.engine.warningHandler = { message in
            if bridge.isCallingPlugin { bridge.breachFromEngine(message) } else { ledger.warn(message) }
        }
        control.started(app)
        var run = runner.run()
        withExtendedLifetime((services, presentations)) {}
        bridge.reportOffThreadCalls()
        for (i, t) in run.transitions.enumerated() {
            if let f = replacing?.replacedAt[t.record.index] {
                run.transitions[i].pluginFailure = TransitionFailureNote(failedHere: f.transition == t.record.index, failure: f)
            }
        }
        return Playback(run: run, app: app)
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

extension ReplacingProvider: NavigationShowListener {
    /// A replaced plugin's delegate hears nothing more, as it is not asked for animators.
    func navigationWillShow(_ request: TransitionRequest, animated: Bool) {
        let query = RouteQuery(container: request.container, operation: request.operation,
                               from: request.from.typeName, to: request.to.typeName)
        let index = host.currentTransitionIndex
        if let winner = runtime.router.resolve(query).winner,
           replaced.contains(where: { $0.plugin == winner.rule.plugin && index >= ($0.transition ?? 0) }) { return }
        runtime.navigationWillShow(request, animated: animated)
    }
}

/// Presentation controllers from plugins, under the replay rule: a plugin that failed in
/// transition N is not asked for one from then on (the host's controller serves instead).
final class PresentationProvider: PresentationControllerProvider {
    let runtime: PluginRuntime
    unowned let host: TransitionHost
    let replaced: [PluginFailure]

    init(runtime: PluginRuntime, host: TransitionHost, replaced: [PluginFailure]) {
        self.runtime = runtime; self.host = host; self.replaced = replaced
    }

    func presentationController(forPresented presented: ViewController, presenting: ViewController,
                                source: ViewController, style: ModalPresentationStyle) -> PresentationController? {
        let query = RouteQuery(container: .modal, operation: .present, from: presenting.typeName, to: presented.typeName)
        if let winner = runtime.router.resolve(query).winner,
           replaced.contains(where: { $0.plugin == winner.rule.plugin && host.currentTransitionIndex >= ($0.transition ?? 0) }) {
            return nil
        }
        return runtime.presentationController(forPresented: presented, presenting: presenting, source: source, style: style)
    }
}
