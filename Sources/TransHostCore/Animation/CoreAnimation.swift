/// Core Animation's side of the engine: explicit animations on layers, CATransaction and the
/// implicit animations of standalone layers, all on the engine's virtual clock and timelines.
///
/// Rules (Core Animation's, made deterministic):
/// - `add(_:forKey:to:)` copies the animation; it joins the current timeline (a transition's,
///   so interactive transitions scrub it and a cancel runs it back), starting at `beginTime`
///   (0: now). An animation with the same key is removed first (its delegate hears
///   `finished == false`).
/// - The model value never changes by animating; the presentation value is the model value
///   with the animations applied in the order they were added.
/// - At its end an animation is removed (`isRemovedOnCompletion`) and the model value shows
///   again, unless it stays and its `fillMode` holds the end value. The frame sampled at the
///   end instant still shows the end value (the trace's frame rule), like view animations.
/// - `animationDidStart` runs when its begin time is reached, `animationDidStop` when it ends
///   (`finished == true`) or is removed early (`false`), at that virtual time, in the order the
///   animations were added, within the timeline the animation joined.
/// - A CATransaction's completion block runs once every animation added while it was open has
///   stopped (at commit, on the next engine step, when there were none).
/// - Setting an animatable property of a standalone layer animates it implicitly from its
///   presentation value, for the transaction's duration (0.25 s) and timing function (Core
///   Animation's default curve), unless the transaction disables actions or the layer is being
///   set up (not yet in a view's layer tree at an earlier instant). A view's own layer has no
///   implicit animations (UIKit's rule outside animation blocks).
public final class CoreAnimation {
    unowned let engine: AnimationEngine
    private var layerCounter = 0
    private var sequenceCounter = 0
    private var runs: [LayerAnimationRun] = []
    /// Delegate stops due now (removals), called on the next engine step.
    private var pendingStops: [(run: LayerAnimationRun, finished: Bool)] = []

    init(engine: AnimationEngine) { self.engine = engine }

    func nextLayerID() -> String { layerCounter += 1; return "l\(layerCounter)" }

    // MARK: Transactions

    final class Transaction {
        var duration: Double?
        var timing: UnitBezier?
        var disableActions: Bool?
        var completion: (() -> Void)?
        var timeline: AnimationTimeline
        var runs: [LayerAnimationRun] = []
        let implicit: Bool
        init(timeline: AnimationTimeline, implicit: Bool) { self.timeline = timeline; self.implicit = implicit }
    }
    private var transactions: [Transaction] = []
    private var waiting: [Transaction] = []

    /// CATransaction.begin.
    public func beginTransaction() { transactions.append(Transaction(timeline: engine.currentTimeline, implicit: false)) }

    /// CATransaction.commit: ends the innermost explicit transaction (a commit without a begin
    /// is ignored with a warning).
    public func commitTransaction() {
        guard let i = transactions.lastIndex(where: { !$0.implicit }) else {
            engine.warn("CATransaction.commit() was called without a matching begin(); it was ignored")
            return
        }
        let tx = transactions.remove(at: i)
        finish(tx)
    }

    /// The transaction setters apply to: the innermost one, or the implicit one of this engine
    /// step (created on demand and committed on the next step, as Core Animation commits its
    /// implicit transaction at the end of the run-loop turn).
    private var current: Transaction {
        if let t = transactions.last { return t }
        let t = Transaction(timeline: engine.currentTimeline, implicit: true)
        transactions.append(t)
        engine.schedule(at: engine.now) { [weak self, weak t] in
            guard let self, let t, let i = self.transactions.firstIndex(where: { $0 === t }) else { return }
            self.transactions.remove(at: i)
            self.finish(t)
        }
        return t
    }

    public var animationDuration: Double {
        get { transactions.last(where: { $0.duration != nil })?.duration ?? LayerAnimation.defaultDuration }
        set { current.duration = newValue.isFinite ? max(newValue, 0) : nil }
    }
    public var animationTimingFunction: UnitBezier? {
        get { transactions.last(where: { $0.timing != nil })?.timing }
        set { current.timing = newValue }
    }
    public var disableActions: Bool {
        get { transactions.last(where: { $0.disableActions != nil })?.disableActions ?? false }
        set { current.disableActions = newValue }
    }
    /// CATransaction.setCompletionBlock: replaces the current transaction's block.
    public func setCompletionBlock(_ block: (() -> Void)?) { current.completion = block }

    private func finish(_ tx: Transaction) {
        // Animations added in a nested transaction also hold up the enclosing ones.
        if let outer = transactions.last { outer.runs += tx.runs }
        guard let completion = tx.completion else { return }
        if tx.runs.allSatisfy(\.stopped) {
            let timeline = tx.timeline
            engine.schedule(at: engine.now) { [weak engine] in engine?.withTimeline(timeline) { completion() } }
        } else {
            waiting.append(tx)
        }
    }

    // MARK: Adding and removing

    /// layer.add(_:forKey:): a nil key gets a unique one. Returns the key used.
    @discardableResult
    public func add(_ animation: LayerAnimation, forKey key: String?, to target: LayerTarget,
                    onStart: (() -> Void)? = nil, onStop: ((Bool) -> Void)? = nil) -> String {
        sequenceCounter += 1
        let key = key ?? "animation-\(sequenceCounter)"
        remove(key: key, from: target)
        let timeline = engine.currentTimeline
        let localNow = timeline.localTime(atGlobal: engine.now)
        let b = animation.beginTime
        let begin = b > 0 && b.isFinite ? localNow + (b - engine.now) : localNow
        var anim = animation
        if !(anim.speed.isFinite) { anim.speed = 1 }
        let run = LayerAnimationRun(key: key, animation: anim, target: target, timeline: timeline, begin: begin,
                                    sequence: sequenceCounter, onStart: onStart, onStop: onStop)
        switch target {
        case .view(let v): v.layerAnimations.append(run)
        case .layer(let l): l.animations.append(run)
        }
        runs.append(run)
        for tx in transactions { tx.runs.append(run) }
        return key
    }

    /// removeAnimation(forKey:): the delegate hears finished == false on the next step.
    public func remove(key: String, from target: LayerTarget) {
        for run in list(of: target) where run.key == key { stop(run, finished: false, now: true) }
    }

    /// removeAllAnimations.
    public func removeAll(from target: LayerTarget) {
        for run in list(of: target) { stop(run, finished: false, now: true) }
    }

    /// The keys of the animations attached to `target`, in the order added.
    public func keys(of target: LayerTarget) -> [String] { list(of: target).map(\.key) }

    /// The animation attached under `key`, as added.
    public func animation(forKey key: String, of target: LayerTarget) -> LayerAnimation? {
        list(of: target).last { $0.key == key }?.animation
    }

    private func list(of target: LayerTarget) -> [LayerAnimationRun] {
        switch target {
        case .view(let v): return v.layerAnimations.filter { !$0.removed }
        case .layer(let l): return l.animations.filter { !$0.removed }
        }
    }

    private func detach(_ run: LayerAnimationRun) {
        run.removed = true
        switch run.target {
        case .view(let v)?: v.layerAnimations.removeAll { $0 === run }
        case .layer(let l)?: l.animations.removeAll { $0 === run }
        case nil: break
        }
    }

    /// Stops `run`: detaches it when it is removed (always, unless it ended and stays), and
    /// queues its delegate's stop.
    private func stop(_ run: LayerAnimationRun, finished: Bool, now removal: Bool) {
        guard !run.stopped else { if removal { detach(run) }; return }
        run.stopped = true
        if removal || run.animation.isRemovedOnCompletion { detach(run) }
        runs.removeAll { $0 === run }
        pendingStops.append((run, finished))
    }

    // MARK: Time

    /// The next virtual time at which an animation starts or stops, or a delegate is due.
    func nextEventTime() -> Double? {
        if !pendingStops.isEmpty { return engine.now }
        var best: Double?
        for run in runs {
            let local = run.started ? run.stopLocal : run.begin
            guard let l = local, let g = run.timeline.globalTime(ofLocal: l, now: engine.now) else { continue }
            best = min(best ?? g, g)
        }
        return best
    }

    var isIdle: Bool { runs.isEmpty && pendingStops.isEmpty && waiting.isEmpty }

    func hasRunningAnimations(in timeline: AnimationTimeline) -> Bool { runs.contains { $0.timeline === timeline } }

    /// Starts and stops what is due at `t`, then calls the delegates and completion blocks
    /// (not when the engine cut a chain of same-instant callbacks: see maximumRoundsPerInstant).
    func process(at t: Double, callingDelegates: Bool) {
        var starts: [LayerAnimationRun] = []
        for run in runs {
            let due: (Double?) -> Bool = { l in
                guard let l, let g = run.timeline.globalTime(ofLocal: l, now: self.engine.now) else { return false }
                return g <= t
            }
            if !run.started && (due(run.begin) || due(run.stopLocal)) { run.started = true; starts.append(run) }
            if run.started && due(run.stopLocal) { stop(run, finished: true, now: false) }
        }
        let stops = pendingStops
        pendingStops.removeAll()
        let done = waiting.filter { $0.runs.allSatisfy(\.stopped) }
        waiting.removeAll { tx in done.contains { $0 === tx } }
        guard callingDelegates else { return }
        for run in starts.sorted(by: { $0.sequence < $1.sequence }) {
            if let s = run.onStart { engine.withTimeline(run.timeline) { s() } }
        }
        for (run, finished) in stops.sorted(by: { $0.run.sequence < $1.run.sequence }) {
            if !starts.contains(where: { $0 === run }) && !run.started {
                run.started = true
                if let s = run.onStart { engine.withTimeline(run.timeline) { s() } }
            }
            if let s = run.onStop { engine.withTimeline(run.timeline) { s(finished) } }
        }
        for tx in done { if let c = tx.completion { engine.withTimeline(tx.timeline) { c() } } }
    }

    // MARK: Implicit animations

    /// Called by a standalone layer after it stored a new model value.
    func modelDidChange(_ layer: Layer, _ property: LayerProperty, from: LayerValue, to: LayerValue) {
        // Paths with other elements cannot morph: they change at once.
        if case .path = to, !from.matches(to) { remove(key: property.rawValue, from: .layer(layer)); return }
        guard !disableActions, layer.animatesImplicitly else { return }
        // Core Animation's default action has only a fromValue: it heads for the model value,
        // whatever the model becomes while it runs.
        let anim = LayerAnimation(kind: .basic(from: from, to: nil, by: nil), keyPath: property.rawValue,
                                  duration: animationDuration, timingFunction: animationTimingFunction ?? .caDefault)
        guard animationDuration > 0 else { remove(key: property.rawValue, from: .layer(layer)); return }
        add(anim, forKey: property.rawValue, to: .layer(layer))
    }

    // MARK: Presentation

    /// The presentation values of a standalone layer now.
    public func presentation(of layer: Layer) -> LayerState {
        var s = layer.model
        apply(layer.animations, to: &s)
        return s
    }

    func presentationValue(of layer: Layer, _ property: LayerProperty) -> LayerValue? {
        property.value(in: presentation(of: layer))
    }

    /// A view's presentation state with its explicit layer animations applied.
    func applying(to view: View, _ state: PresentationState) -> PresentationState {
        guard !view.layerAnimations.isEmpty else { return state }
        let s = layerState(of: view, state)
        var out = state
        out.bounds = s.bounds; out.position = s.position; out.anchorPoint = s.anchorPoint; out.transform = s.transform
        out.alpha = min(max(s.opacity, 0), 1); out.backgroundColor = s.backgroundColor; out.cornerRadius = max(s.cornerRadius, 0)
        return out
    }

    /// The presentation values of a view layer's style now.
    public func presentationStyle(of view: View) -> LayerStyle {
        guard !view.layerAnimations.isEmpty else { return view.layerStyle }
        return layerState(of: view, engine.blockPresentation(of: view)).style
    }

    private func layerState(of view: View, _ state: PresentationState) -> LayerState {
        var s = LayerState()
        s.bounds = state.bounds; s.position = state.position; s.anchorPoint = state.anchorPoint; s.transform = state.transform
        s.opacity = state.alpha; s.backgroundColor = state.backgroundColor; s.cornerRadius = state.cornerRadius
        s.isHidden = view.isHidden; s.masksToBounds = view.clipsToBounds; s.style = view.layerStyle
        apply(view.layerAnimations, to: &s)
        return s
    }

    private func apply(_ list: [LayerAnimationRun], to s: inout LayerState) {
        for run in list where !run.removed {
            let local = run.timeline.localTime(atGlobal: engine.now)
            var a = run.activeTime(atLocal: local)
            // The instant it stops counts as its end, whatever rounding did to the times.
            if run.stopped && !run.removed, let end = run.endLocal { a = max(a, (end - run.begin) * run.animation.speed) }
            apply(run.animation, activeTime: a, ended: run.stopped, to: &s)
        }
    }

    /// Applies one animation (a group's children recursively) at active time `a`.
    func apply(_ anim: LayerAnimation, activeTime a: Double, ended: Bool, to s: inout LayerState) {
        let time: Double, progress: Double
        switch anim.phase(atActive: a) {
        case .before:
            guard anim.fillMode.fillsBackwards else { return }
            guard case .active(let t0, let p0) = anim.phase(atActive: 0) else { return }
            (time, progress) = (t0, p0)
        case .active(let t0, let p0):
            (time, progress) = (t0, p0)
        case .after(let t0, let p0):
            // Shown at the end instant itself, and after it only when filled forwards.
            guard !ended || anim.fillMode.fillsForwards else { return }
            (time, progress) = (t0, p0)
        }
        if case .group(let children) = anim.kind {
            for child in children {
                var c = child
                if !(c.speed.isFinite) { c.speed = 1 }
                // A member without a duration of its own lasts as long as its group.
                if !(c.duration > 0) { c.duration = anim.effectiveDuration }
                // A child past its own end shows only if it fills forwards, except at the group's
                // own end instant (the trace's last frame).
                apply(c, activeTime: (time - c.beginTime) * c.speed, ended: ended || time < anim.effectiveDuration, to: &s)
            }
            return
        }
        guard let path = anim.keyPath, let kp = LayerKeyPath(path), let whole = kp.property.value(in: s), let under = kp.part(of: whole),
              let (v, angle) = anim.value(time: time, progress: progress, underlying: under) else { return }
        let value = anim.isAdditive ? (under.adding(v) ?? v) : v
        guard let newWhole = kp.replacing(value, in: whole) else { return }
        kp.property.set(kp.property.clamped(newWhole), in: &s)
        if let angle { s.transform = Transform3D.rotation(angle, 0, 0, 1).concatenating(s.transform) }
    }
}
