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
public struct Playback {
    public let run: RunResult
    /// The app as it was left, for in-process callers that inspect views (tests, benchmarks).
    public let app: App

    /// How many routed plugins failed to load (the default transition ran instead).
    public var loadFailures: Int { run.loadFailures.count }

    public static func play(_ scenario: Scenario, scan: PluginScan, fps: FrameRate = .standard,
                            loading: PluginLoadOptions = PluginLoadOptions(), libraries: PluginLibraries = .process,
                            failures: [(plugin: String, message: String)] = []) -> Playback {
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
        let runner = ScenarioRunner(app: app, provider: runtime, fps: fps, ledger: ledger)
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
        let run = runner.run()
        withExtendedLifetime(services) {}
        return Playback(run: run, app: app)
    }
}
