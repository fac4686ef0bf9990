import TransHostCore
import TransHostCoordinators

/// Plays a scenario's script through the coordinators on virtual time and samples every
/// transition at `fps` (the frame rule of docs/trace.md):
/// - frames run from t = 0 to the transition's last instant, both ends included: t = k / fps
///   for every k with k / fps below it, then the last instant itself. The last instant is the
///   declared duration for a transition that plays on its own, and the instant it ended for an
///   interactive one (its length depends on the gesture);
/// - a frame at t > 0 shows the animations at t before anything due at t runs (gesture events,
///   completion blocks, completeTransition), so the last frame shows the animations at their
///   end, before the animator's cleanup; t = 0 shows the transition as it began, once what was
///   due at that instant ran;
/// - a transition that ended at the instant it began has one frame, t = 0 (the state it left);
/// - `after` shows the window right after completeTransition was applied, for every transition.
public final class ScenarioRunner: TransitionObserver {
    public let app: App
    public let fps: Int
    /// Where everything to report goes, once each.
    public let ledger: EventLedger
    private var active: (transition: ActiveTransition, recordIndex: Int)?
    private var records: [TransitionRecord] = []
    private var traces: [TransitionTrace] = []
    /// The interaction rule of the animator routed for a transition (from its manifest), if any;
    /// used by gestures that do not state their own.
    public var interactionRule: ((TransitionContext) -> InteractionRule?)?

    /// Finds the gesture recognizer a standalone gesture starting at a point reaches, as a
    /// function taking (state, translation, velocity, location); nil when none does. Set by
    /// whoever attaches recognizers (the plugin host's app services).
    public var gestureRecognizer: ((Point) -> ((Int, Point, Point, Point) -> Void)?)?

    /// Delivers a standalone scripted gesture to the recognizer it reaches: began at now (zero
    /// translation), changed at each sample, ended at the release. Velocities are the finite
    /// differences between events (the release's may be given).
    private func deliver(_ script: GestureScript, start: Point, velocity: Point?) {
        guard let deliver = gestureRecognizer?(start) else {
            warn("gesture at (\(start.x), \(start.y)) skipped: no gesture recognizer in the window receives it")
            return
        }
        if let problem = script.validate().first { warn("gesture skipped: \(problem)"); return }
        let engine = app.engine
        let t0 = engine.now
        var previous = PanSample(time: 0, x: 0)
        func at(_ s: PanSample) -> Point { Point(x: start.x + s.translation.x, y: start.y + s.translation.y) }
        func speed(_ a: PanSample, _ b: PanSample) -> Point {
            let dt = b.time - a.time
            return dt > 0 ? Point(x: (b.translation.x - a.translation.x) / dt, y: (b.translation.y - a.translation.y) / dt) : Point(x: 0, y: 0)
        }
        engine.schedule(at: t0) { deliver(1, Point(x: 0, y: 0), Point(x: 0, y: 0), start) }
        for s in script.samples {
            let v = speed(previous, s)
            engine.schedule(at: t0 + s.time) { deliver(2, s.translation, v, at(s)) }
            previous = s
        }
        let release = script.release
        let v = velocity ?? speed(previous, release)
        engine.schedule(at: t0 + release.time) { deliver(3, release.translation, v, at(release)) }
        gestureEnd = t0 + release.time
    }
    private var gestureEnd = -Double.infinity

    /// Called after each transition is recorded (for progress display).
    public var onTransition: ((TransitionTrace) -> Void)?

    public init(app: App, provider: TransitionAnimatorProvider?, fps: FrameRate = .standard, ledger: EventLedger = EventLedger()) {
        self.app = app
        self.fps = fps.perSecond
        self.ledger = ledger
        app.host.provider = provider
        app.host.observer = self
        app.host.warningHandler = { [weak self] in self?.warn($0) }
        app.host.errorHandler = { [weak self] in self?.ledger.error($0) }
    }

    public func warn(_ message: String) { ledger.warn(message) }

    public func transitionDidBegin(_ transition: ActiveTransition) { active = (transition, records.count) }
    public func transitionDidEnd(_ record: TransitionRecord) {
        records.append(record)
        for b in record.breaches { ledger.breach(b, transition: record.index) }
        // Sampled now, before a queued action can start the next transition at the same instant.
        afterFrames[record.index] = TraceFrame(t: record.end - record.start, nodes: app.engine.sampleTree(app.window))
        onTransitionEnd?(record)
    }
    private var afterFrames: [Int: TraceFrame] = [:]
    /// Called as each transition ends (before the next one can begin).
    public var onTransitionEnd: ((TransitionRecord) -> Void)?

    /// A breach reported after its transition ended (a second completeTransition, a bad call in
    /// a late completion) belongs to that transition, so the trace and the exit code see it.
    public func transition(_ index: Int, didReportLateBreach breach: ContractBreach) {
        ledger.breach(breach, transition: index)
    }

    public func run() -> RunResult {
        drain()
        let script = app.scenario.script
        var i = 0
        while i < script.count {
            guard app.scenario.time(ofAction: i) != nil else {
                drain()
                perform(script[i], app.scenario.options(ofAction: i))
                i += 1
                continue
            }
            // A run of timed actions is scheduled at once, so that each arrives at its time even
            // while the runner records a transition that started earlier.
            var j = i
            var timed: [(at: Double, action: Scenario.Action, options: Scenario.ActionOptions)] = []
            while j < script.count, let at = app.scenario.time(ofAction: j) {
                timed.append((at, script[j], app.scenario.options(ofAction: j)))
                j += 1
            }
            arrive(timed)
            i = j
        }
        drain()
        for b in app.host.unattributedBreaches { ledger.breach(b, transition: nil) }
        let final = app.finalState
        var result = RunResult(scenario: app.scenario, fps: fps, transitions: traces, finalStack: final.stack,
                               finalSelected: final.selected, finalPresented: final.presented, events: ledger.events)
        if app.scenario.hasControllerTree { result.finalTree = app.treeDescription }
        return result
    }

    /// Starts one scripted action. An action with a gesture begins its transition at the
    /// gesture's start and is driven by the pan samples; the rule decides finish or cancel.
    private func perform(_ action: Scenario.Action, _ options: Scenario.ActionOptions) {
        let engine = app.engine
        func drive(_ gesture: Scenario.Gesture?, _ start: @escaping (InteractionController?) -> Void) {
            guard let gesture else { start(nil); return }
            let interaction = InteractionController()
            interaction.warningHandler = { [weak self] in self?.warn($0) }
            if let speed = gesture.completionSpeed { interaction.completionSpeed = speed }
            if let curve = gesture.completionCurve { interaction.completionCurve = curve }
            let container = app.window
            // The rule is settled when the transition has begun (its animator is then known).
            let rule: () -> InteractionRule = { [weak self, weak interaction] in
                if let r = gesture.rule { return r }
                if let self, let context = interaction?.context, let r = self.interactionRule?(context) { return r }
                if let context = interaction?.context, context.container == .navigation, context.operation == .pop { return .backSwipe }
                return .seed001
            }
            gesture.script.schedule(on: engine, at: engine.now, driving: interaction,
                                    containerSize: { [unowned container] in container.bounds.size },
                                    rule: rule, began: { start(interaction) })
        }
        let controllers = app.controllers
        let app = self.app
        // The container an action acts on: the one it names, else the visible context's when the
        // action arrives (as UIKit code asks its navigationController when it runs).
        func container<C>(_ what: String, _ kind: String, of controller: (ViewController) -> C?, visible: @autoclosure () -> C?) -> C? {
            if let id = options.target {
                guard let c = app.controller(id).flatMap(controller) else {
                    warn("\(what) skipped: \(id) is not a \(kind) (its \"target\")")
                    return nil
                }
                return c
            }
            guard let c = visible() else {
                warn("\(what) skipped: there is no \(kind) in the visible context (\(app.visibleLeaf.typeName) is not inside one)")
                return nil
            }
            return c
        }
        func navigation(_ what: String) -> NavigationCoordinator? {
            container(what, "navigation controller", of: \.navigationCoordinator, visible: app.visibleNavigation)
        }
        func tabBar(_ what: String) -> TabCoordinator? {
            container(what, "tab bar controller", of: \.tabCoordinator, visible: app.visibleTabs)
        }
        switch action {
        case .push(let id, let animated, let gesture):
            guard let nav = navigation("push of \(id)") else { return }
            drive(gesture) { nav.push(controllers[id]!, animated: animated, interaction: $0) }
        case .pop(let animated, let gesture):
            guard let nav = navigation("pop") else { return }
            drive(gesture) { nav.pop(animated: animated, interaction: $0) }
        case .popToRoot(let animated, let gesture):
            guard let nav = navigation("popToRoot") else { return }
            drive(gesture) { nav.popToRoot(animated: animated, interaction: $0) }
        case .popTo(let id, let animated, let gesture):
            guard let nav = navigation("popTo \(id)") else { return }
            drive(gesture) { nav.popTo(controllers[id]!, animated: animated, interaction: $0) }
        case .setViewControllers(let ids, let animated, let gesture):
            guard let nav = navigation("setViewControllers") else { return }
            drive(gesture) { nav.setViewControllers(ids.map { controllers[$0]! }, animated: animated, interaction: $0) }
        case .present(let id, let animated, let gesture):
            let source = options.from.flatMap { app.controller($0) }
            drive(gesture) { self.app.modal.present(controllers[id]!, from: source, style: options.style, animated: animated, interaction: $0) }
        case .dismiss(let animated, let gesture):
            let target = options.dismissing.flatMap { app.controller($0) }
            drive(gesture) { self.app.modal.dismiss(target, animated: animated, interaction: $0) }
        case .select(let index, let animated, let gesture):
            guard let tabs = tabBar("select \(index)") else { return }
            drive(gesture) { tabs.select(index, animated: animated, interaction: $0) }
        case .wait(let s):
            engine.advance(to: engine.now + s)
        case .gesture(let script, let start, let velocity):
            deliver(script, start: start, velocity: velocity)
        case .grab(let gesture, let backward):
            grab(gesture, backward: backward)
        }
    }

    /// Timed actions: each arrives at its virtual time (at once when that has passed, and never
    /// before an earlier action of the script), whether or not a transition is running then;
    /// transitions that run meanwhile are recorded as usual.
    private func arrive(_ timed: [(at: Double, action: Scenario.Action, options: Scenario.ActionOptions)]) {
        let engine = app.engine
        var arrived = 0
        var time = engine.now
        for (at, action, options) in timed {
            time = max(time, at)
            engine.schedule(at: time) { [unowned self] in
                arrived += 1
                perform(action, options)
            }
        }
        while arrived < timed.count {
            engine.settle()
            if let (t, index) = active {
                active = nil
                record(t, recordIndex: index)
                continue
            }
            guard arrived < timed.count, let next = engine.nextEventTime() else { break }
            engine.advance(to: next)
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
            // A scripted gesture plays to its release even while no transition runs (its handler
            // may start one at any event).
            if app.host.active == nil && !app.host.hasQueuedActions && engine.now >= gestureEnd { break }
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
        if records.count > before {
            // Ended as it began (not animated, or a zero-length interaction): one frame.
            frames.append(TraceFrame(t: 0, nodes: engine.sampleTree(app.window)))
        } else if t.context.isInteractive {
            sampleUntilEnd(t, recordIndex: before, from: 0, into: &frames)
        } else {
            var k = 0
            for time in Self.frameTimes(duration: t.duration, fps: fps) {
                engine.advance(to: start + time)
                frames.append(TraceFrame(t: time, nodes: engine.sampleTree(app.window)))
                k += 1
                if t.wasInterrupted && records.count <= before { break }
            }
            // Grabbed while it ran: from here on its length depends on the gesture.
            if t.wasInterrupted && records.count <= before { sampleUntilEnd(t, recordIndex: before, from: k, into: &frames) }
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
        let record = records[before]
        let after = afterFrames.removeValue(forKey: record.index) ?? TraceFrame(t: record.end - record.start, nodes: engine.sampleTree(app.window))
        let trace = TransitionTrace(index: traces.count, record: record, frames: frames, after: after)
        traces.append(trace)
        onTransition?(trace)
    }

    /// Samples an interactive (or grabbed) transition at fps on virtual time, from frame k on,
    /// until it ends. Every event instant is sampled before its events run, so when the
    /// transition ends there, that sample (the animations at their end, before completions) is
    /// the last frame.
    private func sampleUntilEnd(_ t: ActiveTransition, recordIndex before: Int, from first: Int, into frames: inout [TraceFrame]) {
        let engine = app.engine
        let start = t.context.startTime
        var k = first
        while records.count <= before {
            let time = Double(k) / Double(fps)
            if time > Self.maximumInteractiveSeconds { break }
            while let next = engine.nextEventTime(), next < start + time, records.count <= before {
                engine.advance(to: next)
                // While the user still interacts nothing can end it (its timeline is paused),
                // so pan samples cost no extra sampling.
                let interacting = t.interaction.map { $0.state == .interacting || $0.state == .idle } ?? false
                let pending = interacting ? nil : TraceFrame(t: next - start, nodes: engine.sampleTree(app.window))
                engine.settle()
                if records.count > before, let pending, frames.last.map({ $0.t < pending.t }) ?? true { frames.append(pending) }
            }
            if records.count > before { break }
            engine.advance(to: start + time)
            frames.append(TraceFrame(t: time, nodes: engine.sampleTree(app.window)))
            k += 1
        }
        // Ended while still interacting (an animator that completed on its own): the end is
        // still a frame, sampled as it is now.
        if records.count > before, let last = frames.last, last.t < records[before].end - start - 1e-9 {
            frames.append(TraceFrame(t: records[before].end - start, nodes: engine.sampleTree(app.window)))
        }
    }

    /// How close to the end a frame instant may come before it counts as the end itself: a
    /// duration that was a C float (0.6f is 0.6000000238) must not gain a frame 24 ns before its
    /// last one. The trace prints 6 decimals, so instants this close would print alike anyway.
    public static let endTolerance = 1e-6

    /// Frame times for a transition: k / fps while below the duration, then the duration itself.
    public static func frameTimes(duration: Double, fps: Int) -> [Double] {
        guard duration > 0 else { return [0] }
        var times: [Double] = []
        var k = 0
        while true {
            let t = Double(k) / Double(fps)
            if t >= duration - endTolerance { break }
            times.append(t)
            k += 1
        }
        times.append(duration)
        return times
    }
}
