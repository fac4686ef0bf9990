import TransHostCore
import TransHostCoordinators

/// One sampled instant of a transition: every view of the window, as the screen shows it.
public struct TraceFrame {
    /// Seconds from the transition's start.
    public let t: Double
    public let nodes: [PresentationNode]
    public init(t: Double, nodes: [PresentationNode]) { self.t = t; self.nodes = nodes }
}

/// A transition as played: its record and its frames.
public struct TransitionTrace {
    public let index: Int
    /// Late breaches (reported after the transition ended) are added here too.
    public internal(set) var record: TransitionRecord
    public let frames: [TraceFrame]
    /// Set when a plugin failure made the host play this transition with the default animator.
    public var pluginFailure: TransitionFailureNote? = nil

    public init(index: Int, record: TransitionRecord, frames: [TraceFrame], pluginFailure: TransitionFailureNote? = nil) {
        self.index = index; self.record = record; self.frames = frames; self.pluginFailure = pluginFailure
    }
}

/// The outcome of playing a scenario.
public struct RunResult {
    public let scenario: Scenario
    public let fps: Int
    public var transitions: [TransitionTrace]
    public let finalStack: [String]
    public let finalSelected: Int?
    public let finalPresented: [String]
    /// Host warnings (refused actions, plugins that failed to load, ...), in order.
    public var warnings: [String]

    /// Breaches reported before any transition ran (for example in a plugin's init).
    public let unattributedBreaches: [ContractBreach]
    /// What plugins wrote with host->log, prefixed with their names.
    public var logs: [String]
    /// Plugins that crashed, hung or exited in a playback worker, in the order they did.
    public var pluginFailures: [PluginFailure] = []

    public var breaches: [ContractBreach] { unattributedBreaches + transitions.flatMap(\.record.breaches) }

    public init(scenario: Scenario, fps: Int, transitions: [TransitionTrace], finalStack: [String], finalSelected: Int?,
                finalPresented: [String], warnings: [String], unattributedBreaches: [ContractBreach], logs: [String],
                pluginFailures: [PluginFailure] = []) {
        self.scenario = scenario; self.fps = fps; self.transitions = transitions; self.finalStack = finalStack
        self.finalSelected = finalSelected; self.finalPresented = finalPresented; self.warnings = warnings
        self.unattributedBreaches = unattributedBreaches; self.logs = logs; self.pluginFailures = pluginFailures
    }
}

/// Plays a scenario's script through the coordinators on virtual time and samples every
/// transition at `fps`, both ends included: t = k / fps for every k with k / fps < duration, and
/// t = duration. A frame at t shows the animations at t, before completions due at t run.
public final class ScenarioRunner: TransitionObserver {
    public let app: App
    public let fps: Int
    private var active: (transition: ActiveTransition, recordIndex: Int)?
    private var records: [TransitionRecord] = []
    private var traces: [TransitionTrace] = []
    private var warnings: [String] = []
    /// The interaction rule of the animator routed for a transition (from its manifest), if any;
    /// used by gestures that do not state their own.
    public var interactionRule: ((TransitionContext) -> InteractionRule?)?

    /// Called after each transition is recorded (for progress display).
    public var onTransition: ((TransitionTrace) -> Void)?

    public init(app: App, provider: TransitionAnimatorProvider?, fps: Int = 60) {
        self.app = app
        self.fps = max(1, fps)
        app.host.provider = provider
        app.host.observer = self
        app.host.warningHandler = { [weak self] in self?.warn($0) }
    }

    public func warn(_ message: String) { warnings.append(message) }

    /// Plugin log lines (host->log), in order.
    private var logs: [String] = []
    public func log(_ line: String) { logs.append(line) }

    public func transitionDidBegin(_ transition: ActiveTransition) { active = (transition, records.count) }
    public func transitionDidEnd(_ record: TransitionRecord) { records.append(record) }

    /// A breach reported after its transition ended (a second completeTransition, a bad call in
    /// a late completion) joins that transition's record, so the trace and the exit code see it.
    public func transition(_ index: Int, didReportLateBreach breach: ContractBreach) {
        if let i = records.firstIndex(where: { $0.index == index }) { records[i] = records[i].adding(breach) }
        if let i = traces.firstIndex(where: { $0.record.index == index }) { traces[i].record = traces[i].record.adding(breach) }
    }

    public func run() -> RunResult {
        let engine = app.engine
        drain()
        for action in app.scenario.script {
            perform(action)
            drain()
        }
        let final = app.finalState
        return RunResult(scenario: app.scenario, fps: fps, transitions: traces, finalStack: final.stack,
                         finalSelected: final.selected, finalPresented: final.presented, warnings: warnings,
                         unattributedBreaches: app.host.unattributedBreaches, logs: logs)
    }

    /// Starts one scripted action. An action with a gesture begins its transition at the
    /// gesture's start and is driven by the pan samples; the rule decides finish or cancel.
    private func perform(_ action: Scenario.Action) {
        let engine = app.engine
        func drive(_ gesture: Scenario.Gesture?, _ start: @escaping (InteractionController?) -> Void) {
            guard let gesture else { start(nil); return }
            let interaction = InteractionController()
            interaction.warningHandler = { [weak self] in self?.warn($0) }
            let container = app.window
            // The rule is settled when the transition has begun (its animator is then known).
            let rule: () -> InteractionRule = { [weak self, weak interaction] in
                if let r = gesture.rule { return r }
                if let self, let context = interaction?.context, let r = self.interactionRule?(context) { return r }
                return .seed001
            }
            gesture.script.schedule(on: engine, at: engine.now, driving: interaction,
                                    containerSize: { [unowned container] in container.bounds.size },
                                    rule: rule, began: { start(interaction) })
        }
        switch action {
        case .push(let id, let animated, let gesture):
            guard let nav = app.navigation else { warn("push of \(id) skipped: the root is not a navigation controller"); return }
            drive(gesture) { nav.push(self.app.controllers[id]!, animated: animated, interaction: $0) }
        case .pop(let animated, let gesture):
            guard let nav = app.navigation else { warn("pop skipped: the root is not a navigation controller"); return }
            drive(gesture) { nav.pop(animated: animated, interaction: $0) }
        case .popToRoot(let animated):
            guard let nav = app.navigation else { warn("popToRoot skipped: the root is not a navigation controller"); return }
            nav.popToRoot(animated: animated)
        case .present(let id, let animated, let gesture):
            drive(gesture) { self.app.modal.present(self.app.controllers[id]!, animated: animated, interaction: $0) }
        case .dismiss(let animated, let gesture):
            drive(gesture) { self.app.modal.dismiss(animated: animated, interaction: $0) }
        case .select(let index, let animated, let gesture):
            guard let tabs = app.tabs else { warn("select \(index) skipped: the root is not a tab bar controller"); return }
            drive(gesture) { tabs.select(index, animated: animated, interaction: $0) }
        case .wait(let s):
            engine.advance(to: engine.now + s)
        }
    }

    /// Records every transition that starts, until no transition is running or queued.
    private func drain() {
        let engine = app.engine
        while true {
            engine.settle()
            if let (t, index) = active {
                active = nil
                record(t, recordIndex: index)
                continue
            }
            if app.host.active == nil && !app.host.hasQueuedActions { break }
            guard let next = engine.nextEventTime() else { break }
            engine.advance(to: next)
        }
    }

    /// The longest an interactive transition is sampled (frames stop after this many seconds).
    public static let maximumInteractiveSeconds = 60.0

    private func record(_ t: ActiveTransition, recordIndex before: Int) {
        let engine = app.engine
        let start = t.context.startTime
        var frames: [TraceFrame] = []
        if t.context.isInteractive {
            // Gesture-driven: sample at fps on virtual time until the transition ends, then once
            // more at the instant it ended.
            var k = 0
            while records.count <= before {
                let time = Double(k) / Double(fps)
                if time > Self.maximumInteractiveSeconds { break }
                while let next = engine.nextEventTime(), next < start + time, records.count <= before {
                    engine.advance(to: next)
                    engine.settle()
                }
                if records.count > before {
                    frames.append(TraceFrame(t: engine.now - start, nodes: engine.sampleTree(app.window)))
                    break
                }
                engine.advance(to: start + time)
                frames.append(TraceFrame(t: time, nodes: engine.sampleTree(app.window)))
                k += 1
            }
        } else {
            for time in Self.frameTimes(duration: t.duration, fps: fps) {
                engine.advance(to: start + time)
                frames.append(TraceFrame(t: time, nodes: engine.sampleTree(app.window)))
            }
        }
        // Let the transition end: completions, the watchdog at the latest.
        while records.count <= before {
            engine.settle()
            if records.count > before { break }
            guard let next = engine.nextEventTime() else {
                warn("transition \(t.context.operation.rawValue) \(t.context.fromViewController.typeName) -> \(t.context.toViewController.typeName) has nothing left to wait for; it was abandoned")
                return
            }
            engine.advance(to: next)
        }
        let trace = TransitionTrace(index: traces.count, record: records[before], frames: frames)
        traces.append(trace)
        onTransition?(trace)
    }

    /// Frame times for a transition: k / fps while below the duration, then the duration itself.
    public static func frameTimes(duration: Double, fps: Int) -> [Double] {
        guard duration > 0 else { return [0] }
        var times: [Double] = []
        var k = 0
        while true {
            let t = Double(k) / Double(fps)
            if t >= duration - 1e-9 { break }
            times.append(t)
            k += 1
        }
        times.append(duration)
        return times
    }
}
