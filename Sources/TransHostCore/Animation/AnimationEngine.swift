/// Options of one animation block, mirroring UIView's animate(withDuration:delay:options:...).
public struct AnimationParameters: Equatable, Sendable {
    public var duration: Double
    public var delay: Double
    /// UIViewAnimationOptions bits (curve bits 16-17, override-inherited bits 5 and 6).
    public var options: UInt32
    /// Overrides the curve bits (springs).
    public var curve: TimingCurve?

    public init(duration: Double, delay: Double = 0, options: UInt32 = 0, curve: TimingCurve? = nil) {
        self.duration = duration; self.delay = delay; self.options = options; self.curve = curve
    }

    public static let overrideInheritedDuration: UInt32 = 1 << 5
    public static let overrideInheritedCurve: UInt32 = 1 << 6
}

/// One animatable property an observed piece of code changed, with its model value before.
public struct ModelChange {
    public let view: View
    public let property: AnimatableProperty
    public let before: AnimatableValue
}

/// Records animations on views and evaluates them on virtual time.
///
/// Rules (UIKit's, made deterministic):
/// - Inside `animate`, every change of an animatable property becomes an animation from the
///   property's *presentation* value at that moment to the new model value. A property that was
///   already animating therefore continues from where it is on screen; the old animation is
///   removed and its block's completion gets `finished == false`.
/// - Nested blocks inherit the enclosing block's duration and curve unless their options carry
///   overrideInheritedDuration / overrideInheritedCurve.
/// - Completion order: by the virtual time the block stopped, then by the order the blocks were
///   created. A block that changed nothing completes (finished) on the next advance.
/// - `advance(to: t)` processes every event strictly before t, then sets the clock to t; events at
///   exactly t run on the next advance or `settle()`. Sampling at t therefore shows every
///   animation at its final value at its end time, and the result does not depend on how the
///   clock was stepped to t.
public final class AnimationEngine {
    public let clock: VirtualClock
    /// Receives contract warnings (non-finite values and the like). Set by the host.
    public var warningHandler: ((String) -> Void)?

    private var viewCounter = 0
    /// Moves whenever a view of this engine changes in a way sampling reads (see SamplingPlan).
    let samplingEpoch = SamplingEpoch()
    /// The fewest views a tree needs for sampling to build it a plan. What sampling reads of a
    /// smaller tree stays in the processor's caches, where walking it is as fast as reading a
    /// plan: engine bench, 2 cores, best of interleaved runs, with a plan 100 layers took 14.2 us
    /// a frame against 14.4 walked (its first frame 60 against 27), and 1000 layers, whose views
    /// and animations no longer fit this machine's caches, 169 against 213. Tests lower it to
    /// exercise plans on small trees.
    var samplingPlanMinimumViews = 512
    private var groupCounter = 0
    /// The running blocks, in creation order. Any change may move the next block stop.
    var groups: [AnimationGroup] = [] { didSet { blockStops.invalidate() } }
    private var blockStops = BlockStopCache()
    private var readyCompletions: [(time: Double, group: AnimationGroup)] = []
    private var scheduled = EventQueue()
    private var scheduleCounter = 0

    /// The timeline new animations join; see `withTimeline`.
    public let globalTimeline: AnimationTimeline
    private var timelineStack: [AnimationTimeline] = []

    private final class Transaction {
        let duration: Double
        let delay: Double
        let curve: TimingCurve
        let begin: Double
        let timeline: AnimationTimeline
        /// Keyframe collection state when this is an animateKeyframes block.
        let keyframeMode: KeyframeCalculationMode?
        var keyframeStart = 0.0
        var keyframeDuration = 1.0
        var changes: [(view: View, property: AnimatableProperty, from: AnimatableValue)] = []
        var keyframes: [ObjectIdentifier: [AnimatableProperty: (from: AnimatableValue, frames: [(start: Double, duration: Double, value: AnimatableValue)])]] = [:]
        init(duration: Double, delay: Double, curve: TimingCurve, begin: Double, timeline: AnimationTimeline, keyframeMode: KeyframeCalculationMode?) {
            self.duration = duration; self.delay = delay; self.curve = curve; self.begin = begin
            self.timeline = timeline; self.keyframeMode = keyframeMode
        }
    }
    private var transactions: [Transaction] = []

    /// Explicit layer animations, CATransaction and implicit animations (CoreAnimation.swift).
    public private(set) lazy var coreAnimation = CoreAnimation(engine: self)

    public init(clock: VirtualClock = VirtualClock()) {
        self.clock = clock
        globalTimeline = AnimationTimeline(name: "global", startingAt: clock.now)
    }

    public var now: Double { clock.now }

    func nextViewID() -> String { viewCounter += 1; return "v\(viewCounter)" }

    func warn(_ message: String) { warningHandler?(message) }

    // MARK: Timelines

    /// The timeline animations created now will join.
    public var currentTimeline: AnimationTimeline { timelineStack.last ?? globalTimeline }

    /// Runs `body` with `timeline` as the current timeline (for a transition's animations).
    public func withTimeline<T>(_ timeline: AnimationTimeline, _ body: () throws -> T) rethrows -> T {
        timelineStack.append(timeline)
        defer { timelineStack.removeLast() }
        return try body()
    }

    /// Whether any block of `timeline` is still running.
    public func hasRunningAnimations(in timeline: AnimationTimeline) -> Bool {
        groups.contains { $0.timeline === timeline && !$0.stopped } || coreAnimation.hasRunningAnimations(in: timeline)
    }

    // MARK: Animation blocks

    /// UIView.animate(withDuration:delay:options:animations:completion:) and, with
    /// `parameters.curve = .spring(...)`, the spring variant.
    public func animate(_ parameters: AnimationParameters, animations: () -> Void, completion: ((Bool) -> Void)? = nil) {
        runBlock(parameters, keyframeMode: nil, animations: animations, completion: completion)
    }

    /// UIView.animateKeyframes(withDuration:delay:options:animations:completion:). Inside,
    /// call `addKeyframe`. The whole animation uses ease-in-out unless curve bits are given.
    public func animateKeyframes(_ parameters: AnimationParameters, mode: KeyframeCalculationMode,
                                 animations: () -> Void, completion: ((Bool) -> Void)? = nil) {
        runBlock(parameters, keyframeMode: mode, animations: animations, completion: completion)
    }

    /// UIView.addKeyframe(withRelativeStartTime:relativeDuration:animations:). Outside an
    /// animateKeyframes block the changes apply immediately, with a warning.
    public func addKeyframe(relativeStart: Double, relativeDuration: Double, animations: () -> Void) {
        guard let tx = transactions.last, tx.keyframeMode != nil else {
            warn("addKeyframe was called outside animateKeyframes; its changes were applied without animation")
            animations()
            return
        }
        let saved = (tx.keyframeStart, tx.keyframeDuration)
        tx.keyframeStart = relativeStart.isFinite ? min(max(relativeStart, 0), 1) : 0
        tx.keyframeDuration = relativeDuration.isFinite ? min(max(relativeDuration, 0), 1) : 0
        animations()
        (tx.keyframeStart, tx.keyframeDuration) = saved
    }

    private func runBlock(_ p: AnimationParameters, keyframeMode: KeyframeCalculationMode?, animations: () -> Void,
                          completion: ((Bool) -> Void)?) {
        var duration = p.duration.isFinite ? max(p.duration, 0) : 0
        let delay = p.delay.isFinite ? max(p.delay, 0) : 0
        if !p.duration.isFinite || p.duration < 0 { warn("animation duration \(p.duration) is not a finite, non-negative number; 0 was used") }
        if !p.delay.isFinite || p.delay < 0 { warn("animation delay \(p.delay) is not a finite, non-negative number; 0 was used") }
        var curve = p.curve ?? TimingCurve(optionBits: p.options)
        if let outer = transactions.last {
            if p.options & AnimationParameters.overrideInheritedDuration == 0 { duration = outer.duration }
            if p.options & AnimationParameters.overrideInheritedCurve == 0 && p.curve == nil { curve = outer.curve }
        }
        let timeline = currentTimeline
        let begin = timeline.localTime(atGlobal: now) + delay
        let tx = Transaction(duration: duration, delay: delay, curve: curve, begin: begin, timeline: timeline, keyframeMode: keyframeMode)
        transactions.append(tx)
        animations()
        transactions.removeLast()
        commit(tx, completion: completion)
    }

    private func commit(_ tx: Transaction, completion: ((Bool) -> Void)?) {
        groupCounter += 1
        let group = AnimationGroup(sequence: groupCounter, timeline: tx.timeline, begin: tx.begin,
                                   end: tx.begin + tx.duration, completion: completion)
        for change in tx.changes {
            let to = change.view.modelValue(change.property)
            var track: KeyframeTrack?
            if let mode = tx.keyframeMode, let k = tx.keyframes[ObjectIdentifier(change.view)]?[change.property] {
                track = KeyframeTrack.compose(initial: k.from, frames: k.frames, mode: mode)
            }
            if track == nil && change.from == to {
                // Nothing to animate, but an animation still heading for an older value must stop
                // (the screen already shows the new model value), as UIKit replaces it.
                if let old = change.view.animations[change.property] { stop(old, on: change.view, finished: false) }
                continue
            }
            let anim = PropertyAnimation(property: change.property, from: change.from, to: to, keyframes: track,
                                         begin: tx.begin, duration: tx.duration, curve: tx.curve, group: group,
                                         extrapolates: tx.timeline.extrapolates)
            if let old = change.view.animations[change.property] { stop(old, on: change.view, finished: false) }
            change.view.animations[change.property] = anim
            group.animations.append((change.view, anim))
        }
        if group.animations.isEmpty {
            group.stopped = true
            readyCompletions.append((now, group))
        } else {
            groups.append(group)
        }
    }

    /// Called by a view before it stores a new model value.
    func modelWillChange(_ view: View, _ property: AnimatableProperty, from old: AnimatableValue, to new: AnimatableValue) {
        if let recorder = recorders.last, !recorder.contains(where: { $0.view === view && $0.property == property }) {
            recorders[recorders.count - 1].append(ModelChange(view: view, property: property, before: old))
        }
        guard let tx = transactions.last else { return }
        if !tx.changes.contains(where: { $0.view === view && $0.property == property }) {
            tx.changes.append((view, property, presentationValue(view, property)))
        }
        if tx.keyframeMode != nil {
            let id = ObjectIdentifier(view)
            var perView = tx.keyframes[id] ?? [:]
            var entry = perView[property] ?? (from: presentationValue(view, property), frames: [])
            entry.frames.append((tx.keyframeStart, tx.keyframeDuration, new))
            perView[property] = entry
            tx.keyframes[id] = perView
        }
    }

    private func stop(_ anim: PropertyAnimation, on view: View, finished: Bool) {
        if view.animations[anim.property] === anim { view.animations[anim.property] = nil }
        let group = anim.group
        group.animations.removeAll { $0.animation === anim }
        if !finished { group.finished = false }
        if group.animations.isEmpty && !group.stopped {
            group.stopped = true
            groups.removeAll { $0 === group }
            readyCompletions.append((now, group))
        }
    }

    /// Removes every animation of `view` (CALayer.removeAllAnimations): its blocks complete with
    /// finished == false, and its layer's explicit animations stop (their delegates hear
    /// finished == false on the next step).
    public func removeAllAnimations(of view: View) {
        for p in AnimatableProperty.allCases { if let a = view.animations[p] { stop(a, on: view, finished: false) } }
        if !view.layerAnimations.isEmpty { coreAnimation.removeAll(from: .view(view)) }
    }

    // MARK: Recording model changes

    private var recorders: [[ModelChange]] = []

    /// Runs `body` and returns every animatable property whose model value it changed, with the
    /// value before its first change (in or out of animation blocks), so that a caller can put
    /// them back: a transition coordinator rolls back its alongside animations on a cancel.
    public func recordingModelChanges(_ body: () -> Void) -> [ModelChange] {
        recorders.append([])
        body()
        let changes = recorders.removeLast()
        // An outer recording sees what the inner one saw.
        if !recorders.isEmpty {
            for c in changes where !recorders[recorders.count - 1].contains(where: { $0.view === c.view && $0.property == c.property }) {
                recorders[recorders.count - 1].append(c)
            }
        }
        return changes
    }

    /// Removes `view`'s animation of `property`, if any; its block completes with finished == false.
    public func removeAnimation(of view: View, _ property: AnimatableProperty) {
        if let a = view.animations[property] { stop(a, on: view, finished: false) }
    }

    // MARK: Presentation

    /// The value the screen shows now for `property` of `view`.
    func presentationValue(_ view: View, _ property: AnimatableProperty) -> AnimatableValue {
        guard let anim = view.animations[property] else { return view.modelValue(property) }
        return anim.value(atLocal: anim.group.timeline.localTime(atGlobal: now))
    }

    /// The presentation layer of `view` at the current time (its explicit layer animations
    /// included).
    public func presentation(of view: View) -> PresentationState {
        coreAnimation.applying(to: view, blockPresentation(of: view))
    }

    /// The presentation of `view` from its animation blocks alone.
    func blockPresentation(of view: View) -> PresentationState {
        var state = view.modelState
        // Only animated properties are evaluated; the rest are the model values. A spring may
        // overshoot: the screen never shows an alpha outside [0, 1] or a negative radius.
        // (sampleTree does the same for a whole tree.)
        var cache = SamplingCache(now: now)
        for anim in view.animations.list { anim.apply(to: &state, cache: &cache) }
        return state
    }

    /// Whether `view` has a running animation of `property`.
    public func isAnimating(_ view: View, _ property: AnimatableProperty) -> Bool { view.animations[property] != nil }

    // MARK: Time

    /// Runs `action` when the clock reaches `time` (events at equal times run in scheduling order).
    public func schedule(at time: Double, _ action: @escaping () -> Void) {
        scheduleCounter += 1
        scheduled.insert(.init(time: max(time, now), sequence: scheduleCounter, action: action))
    }

    /// Advances virtual time to `target`, processing every event strictly before it in time order.
    public func advance(to target: Double) {
        guard target.isFinite else { return }
        while let t = nextEventTime(), t < target { process(at: t) }
        if target > clock.now { clock.now = target }
    }

    public func advance(by dt: Double) { advance(to: now + dt) }

    /// Processes every event due at or before the current time (including completions queued now).
    public func settle() {
        while let t = nextEventTime(), t <= now { process(at: t) }
    }

    /// The time of the next pending event, if any.
    public func nextEventTime() -> Double? {
        var best: Double? = readyCompletions.isEmpty ? nil : now
        // Every block's stop, clamped to now as globalTime(ofLocal:now:) clamps it (see BlockStopCache).
        if let raw = blockStops.earliestRawStop(of: groups) {
            let t = max(raw, now)
            best = min(best ?? t, t)
        }
        if let s = scheduled.nextTime { best = min(best ?? s, s) }
        if let c = coreAnimation.nextEventTime() { best = min(best ?? c, c) }
        return best
    }

    /// Whether nothing is pending: no running block, no completion, no scheduled action.
    public var isIdle: Bool { groups.isEmpty && readyCompletions.isEmpty && scheduled.isEmpty && coreAnimation.isIdle }

    /// The most rounds of ended blocks and completions processed at one virtual instant. A
    /// completion that starts a zero-length animation whose completion starts another never lets
    /// virtual time advance; past this many rounds the chain is cut (its completions are not
    /// called) with a warning, so time moves on and the transition's watchdog can end it.
    public static let maximumRoundsPerInstant = 10_000
    private var roundsAtInstant = 0
    private var lastRoundTime = -Double.infinity

    private func process(at t: Double) {
        if t > clock.now { clock.now = t }
        if t == lastRoundTime { roundsAtInstant += 1 } else { lastRoundTime = t; roundsAtInstant = 0 }
        let cut = roundsAtInstant >= Self.maximumRoundsPerInstant
        if cut && roundsAtInstant == Self.maximumRoundsPerInstant {
            warn("more than \(Self.maximumRoundsPerInstant) animation completions ran at t = \(t) s without virtual time advancing (zero-length animations started from completions); the chain was cut and its remaining completions were not called")
        }
        // Blocks whose animations reached their end (or their start, on a reversed timeline).
        let ended = groups.filter { g in
            let local = g.timeline.stopTime(for: g)
            guard let gt = g.timeline.globalTime(ofLocal: local, now: now) else { return false }
            return gt <= t
        }
        for g in ended.sorted(by: { $0.sequence < $1.sequence }) {
            for (view, anim) in g.animations where view.animations[anim.property] === anim {
                view.animations[anim.property] = nil
            }
            g.animations.removeAll()
            g.stopped = true
            readyCompletions.append((t, g))
        }
        // One pass for all of them: thousands of blocks often end at the same instant.
        if !ended.isEmpty { groups.removeAll { $0.stopped } }
        // Completions in (stop time, creation order); each runs in its block's timeline so that
        // chained animations stay in the same transition.
        let ready = readyCompletions.sorted { ($0.time, $0.group.sequence) < ($1.time, $1.group.sequence) }
        readyCompletions.removeAll()
        for r in ready where !cut {
            if let c = r.group.completion { withTimeline(r.group.timeline) { c(r.group.finished) } }
        }
        coreAnimation.process(at: t, callingDelegates: !cut)
        for s in scheduled.popDue(through: t) { s.action() }
    }
}
