import TransHostCore

/// A transition in flight.
public final class ActiveTransition {
    public let context: TransitionContext
    public let animator: TransitionAnimator?
    public let duration: Double
    var breaches: [ContractBreach] = []
    var appearance: [AppearanceEvent] = []
    var finish: (Bool) -> Void = { _ in }
    public var isFinished: Bool { context.didComplete != nil }
    init(context: TransitionContext, animator: TransitionAnimator?, duration: Double) {
        self.context = context; self.animator = animator; self.duration = duration
    }
}

/// Runs transitions for every coordinator of one app: asks the provider for an animator, hands
/// it the context, watches the contract, applies UIKit's postconditions and queues actions that
/// arrive while a transition runs.
///
/// Rules:
/// - One transition runs at a time per app. An action that arrives meanwhile is queued and runs,
///   in arrival order, right after the running transition ends (on the same virtual instant).
/// - Watchdog: if completeTransition was not called by start + 10 x duration + 1 s, the host
///   reports a `never-completed` breach, removes the transition's remaining animations and
///   completes it as a correct animator would have (completeTransition(!transitionWasCancelled)).
/// - completeTransition(true): the from-view leaves the container; the to-view must be in it
///   (if not, a `to-view-missing` breach is reported and the host adds it).
///   completeTransition(false): the to-view leaves the container, the from-view stays (re-added
///   if an animator removed it) and the stack or selection is unchanged.
public final class TransitionHost {
    public let engine: AnimationEngine
    public weak var provider: TransitionAnimatorProvider?
    public weak var observer: TransitionObserver?
    /// Receives host warnings (refused actions and the like).
    public var warningHandler: ((String) -> Void)?
    public private(set) var active: ActiveTransition?
    private var queue: [() -> Void] = []

    public static let watchdogFactor = 10.0
    public static let watchdogSlack = 1.0

    public init(engine: AnimationEngine) { self.engine = engine }

    public var hasQueuedActions: Bool { !queue.isEmpty }

    /// Runs `action` now, or after the running transition ends.
    public func perform(_ action: @escaping () -> Void) {
        if active != nil { queue.append(action) } else { action() }
    }

    func warn(_ message: String) { warningHandler?(message) }

    /// Starts a transition. `finish(didComplete)` updates the container's state (the stack, the
    /// selection) after the postconditions have been applied.
    func begin(container: ContainerKind, operation: TransitionOperation, from: ViewController, to: ViewController,
               containerView: View, animated: Bool, initialFrames: [ObjectIdentifier: Rect], finalFrames: [ObjectIdentifier: Rect],
               defaultAnimator: @autoclosure () -> TransitionAnimator, finish: @escaping (Bool) -> Void) {
        let ctx = TransitionContext(container: container, operation: operation, from: from, to: to, containerView: containerView,
                                    isAnimated: animated, startTime: engine.now, initialFrames: initialFrames, finalFrames: finalFrames)
        let request = TransitionRequest(container: container, operation: operation, from: from, to: to)
        let animator: TransitionAnimator? = animated ? (provider?.animator(for: request) ?? defaultAnimator()) : nil
        ctx.pluginName = animator?.identity?.plugin ?? "host"
        var duration = 0.0
        if let animator {
            duration = animator.transitionDuration(ctx)
            if !duration.isFinite || duration < 0 {
                let bad = duration
                duration = 0
                pendingBreaches.append(ContractBreach(plugin: ctx.pluginName, kind: "invalid-value",
                    message: "transitionDuration returned \(bad); 0 was used"))
            }
        }
        let t = ActiveTransition(context: ctx, animator: animator, duration: duration)
        t.breaches = pendingBreaches
        pendingBreaches = []
        t.finish = finish
        active = t
        ctx.breachHandler = { [weak t] b in t?.breaches.append(b) }
        ctx.onComplete = { [weak self, weak t] did in if let self, let t { self.end(t, didComplete: did) } }

        appear(t, from, .willDisappear)
        appear(t, to, .willAppear)
        if to.view.superview == nil { to.view.frame = ctx.finalFrame(for: to) }
        if from.view.superview !== containerView { containerView.addSubview(from.view) }
        observer?.transitionDidBegin(t)

        guard let animator else {
            containerView.addSubview(to.view)
            ctx.completeTransition(true)
            return
        }
        let deadline = engine.now + Self.watchdogFactor * duration + Self.watchdogSlack
        engine.schedule(at: deadline) { [weak self, weak t] in
            guard let self, let t, !t.isFinished else { return }
            t.breaches.append(ContractBreach(plugin: ctx.pluginName, kind: "never-completed",
                message: "completeTransition was not called within \(Self.watchdogFactor) x \(duration) s + \(Self.watchdogSlack) s; the host completed the transition"))
            for v in [from.view, to.view] { self.engine.removeAllAnimations(of: v) }
            ctx.completeTransition(!ctx.transitionWasCancelled)
        }
        engine.withTimeline(ctx.timeline) { animator.animateTransition(ctx) }
    }

    private var pendingBreaches: [ContractBreach] = []

    private func appear(_ t: ActiveTransition, _ vc: ViewController, _ kind: AppearanceKind) {
        t.appearance.append(AppearanceEvent(controller: vc.id, type: vc.typeName, kind: kind, animated: t.context.isAnimated, time: engine.now))
    }

    private func end(_ t: ActiveTransition, didComplete: Bool) {
        let ctx = t.context
        let from = ctx.fromViewController, to = ctx.toViewController
        if didComplete {
            if !to.view.isDescendant(of: ctx.containerView) {
                t.breaches.append(ContractBreach(plugin: ctx.pluginName, kind: "to-view-missing",
                    message: "the to-view (\(to.typeName)) was not in the container after completeTransition(true); the host added it"))
                ctx.containerView.addSubview(to.view)
            }
            if from.view !== to.view { from.view.removeFromSuperview() }
            appear(t, from, .didDisappear)
            appear(t, to, .didAppear)
        } else {
            to.view.removeFromSuperview()
            if !from.view.isDescendant(of: ctx.containerView) { ctx.containerView.addSubview(from.view) }
            // UIKit balances a cancelled transition: the to-controller disappears again and the
            // from-controller reappears.
            appear(t, to, .willDisappear)
            appear(t, to, .didDisappear)
            appear(t, from, .willAppear)
            appear(t, from, .didAppear)
        }
        t.finish(didComplete)
        t.animator?.animationEnded(didComplete)
        active = nil
        let record = TransitionRecord(container: ctx.container, operation: ctx.operation, fromType: from.typeName, toType: to.typeName,
                                      animator: t.animator?.identity, interactive: ctx.isInteractive, duration: t.duration,
                                      start: ctx.startTime, end: engine.now, outcome: didComplete ? .completed : .cancelled,
                                      breaches: t.breaches, appearance: t.appearance)
        observer?.transitionDidEnd(record)
        if !queue.isEmpty { engine.schedule(at: engine.now) { [weak self] in self?.drainQueue() } }
    }

    /// Breaches reported while no transition was running.
    public private(set) var unattributedBreaches: [ContractBreach] = []

    /// Records a breach against the running transition (or, outside one, on its own).
    public func report(_ breach: ContractBreach) {
        if let active { active.breaches.append(breach) } else { unattributedBreaches.append(breach) }
    }

    /// Runs queued actions in arrival order until one starts a transition.
    private func drainQueue() {
        while active == nil, !queue.isEmpty { queue.removeFirst()() }
    }
}
