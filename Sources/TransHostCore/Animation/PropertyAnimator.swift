/// UIViewPropertyAnimator on the virtual clock: animation blocks that can be started, paused,
/// scrubbed, reversed, continued with new timing, stopped and finished (docs/animation.md,
/// "Property animators").
///
/// Model: the animator has a progress f (fractionComplete in value terms) that its own timeline
/// follows: every block it runs is linear in f, from the f at which it was added (plus its
/// delay) to 1, so the screen always shows each property at its from-value plus f times the
/// change. Running moves f along segments (`AnimatorSegment`): the animator's curve from its
/// time fraction u to the end (f = curve(u)), or a new curve or spring after
/// `continueAnimation`. Hence:
/// - reversing keeps positions continuous: f runs back along the same curve from where it is;
/// - continuing with a spring keeps velocity continuous: the spring starts at the current df/dt
///   (unless its own initialVelocity is non-zero);
/// - `fractionComplete` is f when `scrubsLinearly` (the default), the time fraction u when not
///   (setting it then shows curve(u));
/// - stopping writes every property's presentation value into its model value;
/// - at the end f is exactly 1 (or 0 reversed); model values are the end (or, reversed, the
///   start) values, and completions run with `.end` (or `.start`).
public final class PropertyAnimator {
    public enum State: Int, Sendable { case inactive = 0, active = 1, stopped = 2 }
    public enum Position: Int, Sendable { case end = 0, start = 1, current = 2 }

    public unowned let engine: AnimationEngine
    /// Seconds of the main animations (a physical spring's settling time).
    public let duration: Double
    public let timing: AnimatorTiming
    public private(set) var state: State = .inactive
    public var isInterruptible = true
    public var scrubsLinearly = true
    public var pausesOnCompletion = false
    /// Receives misuse reports (UIKit raises an exception for most), each a sentence.
    public var warningHandler: ((String) -> Void)?
    /// Told when the animator stops, finishes or changes state (the transition host watches).
    public var onStateChange: ((PropertyAnimator) -> Void)?

    let timeline: AnimationTimeline
    private var segment: AnimatorSegment?
    private var pausedFraction = 0.0
    /// The time fraction along the animator's own curve while paused, when known.
    private var pausedParameter: Double? = 0
    private var reversed = false
    private var completions: [(Position) -> Void] = []
    private var generation = 0
    /// Each property a stopped animator held, with its start and end values, for finishAnimation.
    private var stoppedValues: [(view: View, property: AnimatableProperty, from: AnimatableValue, to: AnimatableValue)] = []

    public init(engine: AnimationEngine, duration: Double, timing: AnimatorTiming) {
        self.engine = engine
        var d = duration.isFinite ? max(duration, 0) : 0
        if case .physicalSpring(let m, let k, let c, let v) = timing {
            let unit = AnimatorTiming.unitMass(mass: m, stiffness: k, damping: c)
            d = AnimatorTiming.settlingDuration(stiffness: unit.k, damping: unit.c, initialVelocity: v)
        }
        self.duration = d
        self.timing = timing
        timeline = AnimationTimeline(name: "property animator", startingAt: engine.now)
        timeline.pause(now: engine.now)
        timeline.extrapolates = true
        timeline.progression = { [weak self] g in self?.fraction(at: g) ?? 0 }
    }

    // MARK: Reading

    public var isRunning: Bool { state == .active && segment != nil }
    public var isReversed: Bool {
        get { reversed }
        set { setReversed(newValue) }
    }

    /// The progress in value terms at global time g (1 at the end; a spring overshoots).
    public func fraction(at g: Double) -> Double { segment?.fraction(at: g) ?? pausedFraction }

    /// df/dt at global time g (per second), by a central difference of the closed forms.
    public func velocity(at g: Double) -> Double {
        guard let s = segment, g < s.end else { return 0 }
        let h = 1e-6
        let a = max(g - h, s.start)
        return (s.fraction(at: g + h) - s.fraction(at: a)) / (g + h - a)
    }

    public var fractionComplete: Double {
        get {
            let f = fraction(at: engine.now)
            if scrubsLinearly { return f }
            return timeParameter() ?? f
        }
        set { setFractionComplete(newValue) }
    }

    private var ownCurve: UnitBezier? { if case .cubic(let b) = timing { return b }; return nil }

    /// The time fraction along the animator's own curve now, when it is on it.
    private func timeParameter() -> Double? {
        if let s = segment {
            if case .curve(let b, _, _) = s.shape, b == ownCurve { return s.curveParameter(at: engine.now) }
            return nil
        }
        if let u = pausedParameter { return u }
        return ownCurve?.inverse(pausedFraction)
    }

    // MARK: Blocks

    /// addAnimations(_:delayFactor:): the block's changes animate from the current progress plus
    /// delayFactor x the remaining progress, to the end. On an inactive animator the block runs
    /// when the animator becomes active (startAnimation, pauseAnimation, fractionComplete), as
    /// in UIKit, so its from-values are the ones on screen then.
    public func addAnimations(_ animations: @escaping () -> Void, delayFactor: Double = 0) {
        guard state != .stopped else {
            warn("addAnimations was called on a stopped property animator (UIKit raises); the changes were applied without animation")
            animations()
            return
        }
        var d = delayFactor.isFinite ? delayFactor : 0
        if d < 0 || d > 1 { warn("addAnimations got delayFactor \(delayFactor), outside [0, 1]; it was clamped"); d = min(max(d, 0), 1) }
        if state == .inactive { pendingBlocks.append((animations, d)); return }
        runBlock(animations, delayFactor: d)
    }

    private var pendingBlocks: [(body: () -> Void, delayFactor: Double)] = []

    private func runBlock(_ animations: () -> Void, delayFactor d: Double) {
        let f = min(max(fraction(at: engine.now), 0), 1)
        let remaining = 1 - f
        let params = AnimationParameters(duration: remaining * (1 - d), delay: remaining * d,
                                         options: AnimationParameters.overrideInheritedDuration | AnimationParameters.overrideInheritedCurve,
                                         curve: .linear)
        engine.withTimeline(timeline) { engine.animate(params, animations: animations) }
    }

    /// Inactive -> active: the blocks added so far run now.
    private func activate() {
        state = .active
        let blocks = pendingBlocks
        pendingBlocks = []
        for b in blocks { runBlock(b.body, delayFactor: b.delayFactor) }
    }

    public func addCompletion(_ completion: @escaping (Position) -> Void) { completions.append(completion) }

    // MARK: Control

    /// startAnimation(afterDelay:): starts an inactive animator, or resumes a paused one.
    public func startAnimation(afterDelay delay: Double = 0) {
        let delay = delay.isFinite ? max(delay, 0) : 0
        switch state {
        case .stopped:
            warn("startAnimation was called on a stopped property animator (UIKit raises); call finishAnimation(at:) first")
        case .inactive:
            activate()
            run(makeSegment(from: 0, to: 1, timing: timing, seconds: duration, start: engine.now + delay, u: 0))
        case .active:
            guard segment == nil else { return }
            resume(timing: nil, seconds: nil, delay: delay)
        }
    }

    /// pauseAnimation(): holds the progress where it is (an inactive animator becomes active).
    public func pauseAnimation() {
        guard isInterruptible else { warn("pauseAnimation was called on a property animator that is not interruptible (UIKit raises); it was ignored"); return }
        switch state {
        case .stopped: warn("pauseAnimation was called on a stopped property animator (UIKit raises); it was ignored")
        case .inactive: pausedFraction = 0; pausedParameter = 0; activate(); changed()
        case .active: if segment != nil { freeze() }
        }
    }

    /// stopAnimation(_:): every property stays at its presentation value (now its model value).
    /// withoutFinishing: the animator becomes inactive and no completion runs; otherwise it is
    /// stopped, waiting for finishAnimation(at:).
    public func stopAnimation(_ withoutFinishing: Bool) {
        guard isInterruptible else { warn("stopAnimation was called on a property animator that is not interruptible (UIKit raises); it was ignored"); return }
        guard state == .active else {
            if state == .stopped && withoutFinishing { state = .inactive; stoppedValues = []; changed() }
            return
        }
        if segment != nil { freeze() }
        stoppedValues = engine.settleAnimations(of: timeline, at: .current)
        state = withoutFinishing ? .inactive : .stopped
        if withoutFinishing { stoppedValues = []; completions = [] }
        changed()
    }

    /// finishAnimation(at:) on a stopped animator: properties jump to the position and the
    /// completions run with it.
    public func finishAnimation(at position: Position) {
        guard state == .stopped else {
            warn("finishAnimation(at:) was called on a property animator that is not stopped (state \(state)); UIKit raises; it was ignored")
            return
        }
        for entry in stoppedValues {
            switch position {
            case .end: entry.view.storeModel(entry.property, entry.to)
            case .start: entry.view.storeModel(entry.property, entry.from)
            case .current: break
            }
        }
        stoppedValues = []
        complete(at: position)
    }

    /// continueAnimation(withTimingParameters:durationFactor:): runs the rest toward the end
    /// (the start when reversed) with `timing` (nil: the animator's own), in durationFactor x
    /// duration seconds (0: the time the rest would take at the animator's own pace).
    public func continueAnimation(timing newTiming: AnimatorTiming?, durationFactor: Double) {
        guard state == .active else {
            warn("continueAnimation was called on a property animator that is \(state == .stopped ? "stopped" : "inactive") (UIKit raises); it was ignored")
            return
        }
        var factor = durationFactor.isFinite ? durationFactor : 0
        if factor < 0 { warn("continueAnimation got durationFactor \(durationFactor); 0 was used"); factor = 0 }
        var carried = 0.0
        if segment != nil {
            // Running: the new timing takes over from where it is, at the current velocity.
            carried = velocity(at: engine.now)
            pausedParameter = timeParameter()
            pausedFraction = fraction(at: engine.now)
            segment = nil
        }
        resume(timing: newTiming, seconds: factor > 0 ? factor * duration : nil, delay: 0, carriedVelocity: carried)
    }

    /// Ends the animator for someone else (the transition host after a contract breach): its
    /// properties jump to `position` and its completions never run.
    public func abandon(at position: Position) {
        switch state {
        case .inactive: break
        case .active:
            segment = nil
            generation += 1
            _ = engine.settleAnimations(of: timeline, at: position)
        case .stopped:
            for e in stoppedValues where position != .current { e.view.storeModel(e.property, position == .end ? e.to : e.from) }
        }
        stoppedValues = []
        completions = []
        pendingBlocks = []
        state = .inactive
        reversed = false
        pausedFraction = 0
        pausedParameter = 0
        changed()
    }

    // MARK: Internals

    private func warn(_ m: String) { warningHandler?(m) ?? engine.warn(m) }
    private func changed() { onStateChange?(self) }

    private func freeze() {
        let now = engine.now
        pausedParameter = timeParameter()
        pausedFraction = fraction(at: now)
        segment = nil
        generation += 1
        changed()
    }

    private func setReversed(_ r: Bool) {
        guard r != reversed else { return }
        reversed = r
        guard state == .active, let s = segment else { return }
        // Runs back (or on again) from where it is, with position (and a spring's velocity) continuous.
        let now = engine.now
        if now < s.start { run(AnimatorSegment(start: s.start, seconds: s.seconds, from: s.from, to: r ? 0 : 1, shape: s.shape)); return }
        let v = velocity(at: now)
        pausedParameter = timeParameter()
        pausedFraction = fraction(at: now)
        segment = nil
        resume(timing: nil, seconds: nil, delay: 0, carriedVelocity: v)
    }

    private func setFractionComplete(_ value: Double) {
        guard value.isFinite else { warn("fractionComplete was set to \(value); it was ignored"); return }
        if state == .stopped { warn("fractionComplete was set on a stopped property animator; it was ignored"); return }
        if isRunning { warn("fractionComplete was set while the property animator runs (pause it first, as UIKit requires); it was ignored"); return }
        if state == .inactive { pausedFraction = 0; pausedParameter = 0; activate() }
        let v = min(max(value, 0), 1)
        if scrubsLinearly || ownCurve == nil {
            pausedFraction = v
            pausedParameter = ownCurve.map { $0.inverse(v) }
        } else {
            pausedParameter = v
            pausedFraction = ownCurve!.solve(v)
        }
        changed()
    }

    /// Runs from the paused progress toward the target, on the animator's own curve (from its
    /// time fraction) or on `newTiming`.
    private func resume(timing newTiming: AnimatorTiming?, seconds: Double?, delay: Double, carriedVelocity: Double = 0) {
        let f = pausedFraction
        let target: Double = reversed ? 0 : 1
        let use = newTiming ?? timing
        // On its own curve the animator resumes from its time fraction; a new curve starts afresh
        // over the rest.
        var u: Double? = nil
        if newTiming == nil, let b = ownCurve { u = pausedParameter ?? b.inverse(f) }
        let ownPace: Double = u.map { abs(target - $0) * duration } ?? abs(target - f) * duration
        let secs = seconds ?? ownPace
        var run = use
        if case .cubic = use {} else {
            // Velocity continuity: a spring whose own initial velocity is 0 starts at the
            // animator's current rate, in fractions of the remaining distance per second.
            let distance = target - f
            if use.initialVelocity == 0, carriedVelocity != 0, abs(distance) > 1e-12 { run = use.with(initialVelocity: carriedVelocity / distance) }
        }
        self.run(makeSegment(from: f, to: target, timing: run, seconds: secs, start: engine.now + delay, u: u))
    }

    private func makeSegment(from f: Double, to target: Double, timing t: AnimatorTiming, seconds: Double, start: Double, u: Double?) -> AnimatorSegment {
        switch t {
        case .cubic(let b):
            let ua = u ?? 0
            let ub: Double = u == nil ? 1 : (target >= f ? 1 : 0)
            return AnimatorSegment(start: start, seconds: max(seconds, 0), from: f, to: target, shape: .curve(b, ua: ua, ub: ub))
        case .spring(let z, let v):
            let secs = min(max(seconds, 0.01), 10)
            return AnimatorSegment(start: start, seconds: secs, from: f, to: target,
                                   shape: .spring(SpringSolver(dampingRatio: z, duration: secs, initialVelocity: v)))
        case .physicalSpring(let m, let k, let c, let v):
            let unit = AnimatorTiming.unitMass(mass: m, stiffness: k, damping: c)
            let settle = AnimatorTiming.settlingDuration(stiffness: unit.k, damping: unit.c, initialVelocity: v)
            return AnimatorSegment(start: start, seconds: settle, from: f, to: target,
                                   shape: .spring(SpringSolver(stiffness: unit.k, damping: unit.c, initialVelocity: v)))
        }
    }

    private func run(_ s: AnimatorSegment) {
        segment = s
        generation += 1
        let g = generation
        changed()
        engine.schedule(at: s.end) { [weak self] in
            guard let self, self.generation == g, self.segment != nil else { return }
            self.reachedEnd()
        }
    }

    private func reachedEnd() {
        guard let s = segment else { return }
        pausedFraction = s.to
        pausedParameter = s.to
        segment = nil
        generation += 1
        if pausesOnCompletion { changed(); return }
        let position: Position = s.to <= 0 ? .start : .end
        _ = engine.settleAnimations(of: timeline, at: position == .end ? .end : .start)
        complete(at: position)
    }

    private func complete(at position: Position) {
        state = .inactive
        reversed = false
        pausedFraction = 0
        pausedParameter = 0
        let run = completions
        completions = []
        changed()
        for c in run { engine.withTimeline(engine.globalTimeline) { c(position) } }
    }
}

extension AnimationEngine {
    /// Ends every block of `timeline` without calling its completion: each property's model
    /// value becomes its end value, its start value or what shows now. Returns what each
    /// property held (for a later finishAnimation).
    func settleAnimations(of timeline: AnimationTimeline, at position: PropertyAnimator.Position)
        -> [(view: View, property: AnimatableProperty, from: AnimatableValue, to: AnimatableValue)] {
        var held: [(view: View, property: AnimatableProperty, from: AnimatableValue, to: AnimatableValue)] = []
        let local = timeline.localTime(atGlobal: now)
        for g in groups where g.timeline === timeline {
            for (view, anim) in g.animations where view.animations[anim.property] === anim {
                held.append((view, anim.property, anim.from, anim.to))
                switch position {
                case .end: view.storeModel(anim.property, anim.to)
                case .start: view.storeModel(anim.property, anim.from)
                case .current: view.storeModel(anim.property, anim.value(atLocal: local))
                }
                view.animations[anim.property] = nil
            }
            g.animations.removeAll()
            g.stopped = true
        }
        groups.removeAll { $0.timeline === timeline }
        return held
    }
}
