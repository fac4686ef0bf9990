import TransHostCoordinators
import TransHostPluginHost
import TransHostDiscovery
import TransHostRouting

/// Plays a scenario with the plugins of a scan: builds the app, makes the plugin runtime the
/// coordinators' delegate, and runs the script.
public struct Playback {
    public let run: RunResult
    public let app: App
    /// How many routed plugins failed to load (the default transition ran instead).
    public let loadFailures: Int

    public static func play(_ scenario: Scenario, scan: PluginScan, fps: Int = 60, loading: PluginLoadOptions = PluginLoadOptions()) -> Playback {
        let app = App(scenario: scenario)
        var breachSink: (ContractBreach) -> Void = { _ in }
        var logSink: (String) -> Void = { _ in }
        let bridge = HostBridge(engine: app.engine, breachHandler: { breachSink($0) }, logHandler: { logSink($0) })
        bridge.activate()
        let runtime = PluginRuntime(scan: scan, types: TypeHierarchy(superclasses: scenario.types), bridge: bridge, options: loading)
        let runner = ScenarioRunner(app: app, provider: runtime, fps: fps)
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
        let run = runner.run()
        return Playback(run: run, app: app, loadFailures: loadFailures)
    }
}
