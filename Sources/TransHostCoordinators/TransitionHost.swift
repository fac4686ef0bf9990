import TransHostCore
import TransHostSupport

/// A transition in flight.
public final class ActiveTransition {
    /// 0, 1, 2, ... in the order transitions began on this host.
    public let index: Int
    public let context: TransitionContext
    public let animator: TransitionAnimator?
    public let duration: Double
    /// The percent-driven controller driving this transition, if it is interactive.
    public internal(set) var interaction: InteractionController?
    /// Model state of the from-view and the to-view when the transition began (restored on cancel).
    public internal(set) var fromState: ViewState?
    public internal(set) var toState: ViewState?
    var breaches: [ContractBreach] = []
    var appearance: [AppearanceEvent] = []
    var finish: (Bool) -> Void = { _ in }
    var watchdogGeneration = 0
    /// Where the container sat when the transition began (an animator must not move it).
    weak var containerParent: View?
    var containerIndex = 0
    var completedByWatchdog = false
    public var isFinished: Bool { context.didComplete != nil }
    init(index: Int, context: TransitionContext, animator: TransitionAnimator?, duration: Double) {
        self.index = index; self.context = context; self.animator = animator; self.duration = duration
    }
}

/// Runs transitions for every coordinator of one app: asks the provider for an animator, hands
/// it the context, watches the contract, applies UIKit's postconditions and queues actions that
/// arrive while a transition runs.
///
/// Rules:
/// - Queueing: one transition runs at a time per host (navigation, tab and modal share it). An
///   action that arrives while a transition runs, or while earlier actions still wait, is queued.
///   When the transition ends the queue is drained in arrival order on the same virtual instant
///   (an engine event at `now`, so after the completion that ended the transition has returned),
///   stopping whenever a queued action starts a transition. A queued action is evaluated against
///   the state at the time it runs (a pop queued behind a cancelled push pops the old top), and
///   its refusal, if any, is a warning at that time. The stack/selection/presented list only
///   changes when a transition completes, so queueing never corrupts it.
/// - Watchdog: if completeTransition was not called by the deadline, the host reports a
///   `never-completed` breach, removes the from- and to-view's remaining animations and completes
///   the transition as a correct animator would have (completeTransition(!transitionWasCancelled)).
///   Deadline: start + 10 x duration + 1 s for a non-interactive transition. An interactive one has
///   no deadline while the user interacts; finish()/cancel() arm it at now + 10 x remaining + 1 s,
///   where remaining is the time the rest takes at completionSpeed. A call that arrives after the
///   watchdog fired is reported as `completed-late` and ignored.
/// - completeTransition(true): the from-view leaves the container; the to-view must be in it
///   (if not, a `to-view-missing` breach is reported and the host adds it). Called after the
///   transition was cancelled, it is a `completed-after-cancel` breach and is treated as false.
/// - completeTransition(false) (cancel): the stack/selection/presented list is unchanged and the
///   host restores the from-view and the to-view to the state they had when the transition began,
///   field by field (bounds, position, anchorPoint, transform, alpha, backgroundColor,
///   cornerRadius, isHidden, superview and index in it; see `ViewState`). UIKit leaves model
///   values to the animator; transhost promises "state after cancel equals state before". Fields
///   the host had to put back are listed in `TransitionRecord.restored` (not a breach).
/// - A second completeTransition is ignored and reported as `completed-twice`. Breaches that
///   arrive after the transition's record was delivered are reported through
///   `TransitionObserver.transition(_:didReportLateBreach:)` (only there: not as a warning
///   too), and are appended to that transition's entry in `records`.
/// - Appearance: from willDisappear + to willAppear at the start; on completion from didDisappear
///   + to didAppear; on cancel to willDisappear, to didDisappear, from willAppear, from didAppear
///   (UIKit's balancing). Every path goes through `end`, so the events stay balanced.
public final class TransitionHost {
    public let engine: AnimationEngine
    public weak var provider: TransitionAnimatorProvider?
    public weak var observer: TransitionObserver?
    /// Receives host warnings (refused actions and the like).
    public var warningHandler: ((String) -> Void)?
    public private(set) var active: ActiveTransition?
    /// Every breach reported on this host, in order (including late ones).
    public private(set) var allBreaches: [ContractBreach] = []
    private var queue: [() -> Void] = []
    private var drainScheduled = false
    private var transitionCount = 0

    /// The longest transitionDuration the host accepts (longer ones are reported and capped):
    /// traces sample every frame, so an absurd duration would otherwise exhaust memory.
    public static let maximumDuration = 60.0
    public static let watchdogFactor = 10.0
    public static let watchdogSlack = 1.0

    public init(engine: AnimationEngine) { self.engine = engine }

    public var hasQueuedActions: Bool { !queue.isEmpty }

    /// The index of the transition plugin code is working for right now: the running one; while
    /// one is being set up (routing, loading, transitionDuration), the one it will be; between
    /// transitions, the last one that ran (its animator's late callbacks).
    public var currentTransitionIndex: Int { active?.index ?? (beginning ? transitionCount : max(transitionCount - 1, 0)) }
    private var beginning = false
    public var queuedActionCount: Int { queue.count }

    /// Runs `action` now, or after the running transition (and earlier queued actions).
    public func perform(_ action: @escaping () -> Void) {
        if active != nil || !queue.isEmpty {
            queue.append(action)
            if active == nil { scheduleDrain() }
        } else {
            action()
        }
    }

    func warn(_ message: String) { warningHandler?(message) }

    /// Starts a transition. `finish(didComplete)` updates the container's state (the stack, the
    /// selection) after the postconditions have been applied.
    func begin(container: ContainerKind, operation: TransitionOperation, from: ViewController, to: ViewController,
               containerView: View, animated: Bool, initialFrames: [ObjectIdentifier: Rect], finalFrames: [ObjectIdentifier: Rect],
               interaction requested: InteractionController? = nil,
               defaultAnimator: @autoclosure () -> TransitionAnimator, finish: @escaping (Bool) -> Void) {
        let ctx = TransitionContext(container: container, operation: operation, from: from, to: to, containerView: containerView,
                                    isAnimated: animated, startTime: engine.now, initialFrames: initialFrames, finalFrames: finalFrames)
        let request = TransitionRequest(container: container, operation: operation, from: from, to: to)
        beginning = true
        defer { beginning = false }
        let animator: TransitionAnimator? = animated ? (provider?.animator(for: request) ?? defaultAnimator()) : nil
        ctx.pluginName = animator?.identity?.plugin ?? "host"
        var interaction = requested
        if interaction == nil, let animator, let ip = provider as? TransitionInteractionProvider {
            interaction = ip.interactionController(for: request, animator: animator)
        }
        if interaction != nil && animator == nil {
            warn("\(container.rawValue) \(operation.rawValue) \(from.typeName) -> \(to.typeName) is not animated; its interaction controller was ignored")
            interaction = nil
        }
        if let i = interaction, i.state != .idle {
            warn("the interaction controller for \(container.rawValue) \(operation.rawValue) \(from.typeName) -> \(to.typeName) already drove a transition; it was ignored and the transition ran on its own")
            interaction = nil
        }
        ctx.isInteractive = interaction != nil
        var duration = 0.0
        if let animator {
            duration = animator.transitionDuration(ctx)
            if !duration.isFinite || duration < 0 {
                let bad = duration
                duration = 0
                pendingBreaches.append(ContractBreach(plugin: ctx.pluginName, kind: "invalid-value",
                    message: "transitionDuration returned \(bad); 0 was used"))
            } else if duration > Self.maximumDuration {
                let bad = duration
                duration = Self.maximumDuration
                pendingBreaches.append(ContractBreach(plugin: ctx.pluginName, kind: "invalid-value",
                    message: "transitionDuration returned \(JSONWriter.format(bad)) s, more than the \(JSONWriter.format(Self.maximumDuration)) s the host accepts; \(JSONWriter.format(Self.maximumDuration)) s was used"))
            }
        }
        let t = ActiveTransition(index: transitionCount, context: ctx, animator: animator, duration: duration)
        t.containerParent = containerView.superview
        t.containerIndex = containerView.superview?.subviews.firstIndex { $0 === containerView } ?? 0
        transitionCount += 1
        t.breaches = pendingBreaches
        pendingBreaches = []
        t.finish = finish
        t.interaction = interaction
        active = t
        let index = t.index
        ctx.breachHandler = { [weak self, weak t] b in
            guard let self else { return }
            var b = b
            if let t, t.completedByWatchdog, b.kind == "completed-twice" {
                b = ContractBreach(plugin: b.plugin, kind: "completed-late",
                                   message: "completeTransition was called after the watchdog had completed the transition; the call was ignored")
            }
            self.allBreaches.append(b)
            if let t, self.active === t { t.breaches.append(b) } else { self.reportLate(b, index: index) }
        }
        ctx.onComplete = { [weak self, weak t] did in if let self, let t { self.end(t, didComplete: did) } }

        t.toState = ViewState(of: to.view)
        appear(t, from, .willDisappear)
        appear(t, to, .willAppear)
        if to.view.superview == nil { to.view.frame = ctx.finalFrame(for: to) }
        if from.view.superview !== containerView { containerView.addSubview(from.view) }
        t.fromState = ViewState(of: from.view)
        observer?.transitionDidBegin(t)

        guard let animator else {
            containerView.addSubview(to.view)
            ctx.completeTransition(true)
            return
        }
        if let interaction {
            // The host never advances an interactive transition on its own.
            ctx.timeline.pause(now: engine.now)
            interaction.attach(to: t, host: self)
        } else {
            armWatchdog(t, remaining: duration)
        }
        engine.withTimeline(ctx.timeline) { animator.animateTransition(ctx) }
        if let interaction, !t.isFinished { interaction.applyPending() }
    }

    private var pendingBreaches: [ContractBreach] = []

    /// (Re)arms the watchdog of `t` at now + factor x remaining + slack; an earlier deadline is void.
    func armWatchdog(_ t: ActiveTransition, remaining: Double) {
        t.watchdogGeneration += 1
        let generation = t.watchdogGeneration
        let allowed = Self.watchdogFactor * remaining + Self.watchdogSlack
        engine.schedule(at: engine.now + allowed) { [weak self, weak t] in
            guard let self, let t, !t.isFinished, t.watchdogGeneration == generation else { return }
            let ctx = t.context
            self.allBreaches.append(ContractBreach(plugin: ctx.pluginName, kind: "never-completed",
                message: "completeTransition was not called within \(JSONWriter.format(Self.watchdogFactor)) x \(JSONWriter.format(remaining)) s + \(JSONWriter.format(Self.watchdogSlack)) s for \(ctx.container.rawValue) \(ctx.operation.rawValue) \(ctx.fromViewController.typeName) -> \(ctx.toViewController.typeName); the host completed the transition"))
            t.breaches.append(self.allBreaches[self.allBreaches.count - 1])
            for v in [ctx.fromViewController.view, ctx.toViewController.view] { self.engine.removeAllAnimations(of: v) }
            t.completedByWatchdog = true
            ctx.completeTransition(!ctx.transitionWasCancelled)
        }
    }

    private func appear(_ t: ActiveTransition, _ vc: ViewController, _ kind: AppearanceKind) {
        t.appearance.append(AppearanceEvent(controller: vc.id, type: vc.typeName, kind: kind, animated: t.context.isAnimated, time: engine.now))
    }

    private func breach(_ t: ActiveTransition, _ kind: String, _ message: String) {
        let b = ContractBreach(plugin: t.context.pluginName, kind: kind, message: message)
        allBreaches.append(b)
        t.breaches.append(b)
    }

    private func reportLate(_ b: ContractBreach, index: Int) {
        if let i = records.firstIndex(where: { $0.index == index }) { records[i] = records[i].adding(b) }
        // The observer is the one place a late breach is reported; a warning as well would
        // print and record it twice.
        observer?.transition(index, didReportLateBreach: b)
    }

    private func end(_ t: ActiveTransition, didComplete requested: Bool) {
        let ctx = t.context
        let from = ctx.fromViewController, to = ctx.toViewController
        var didComplete = requested
        if let parent = t.containerParent, ctx.containerView.superview !== parent {
            breach(t, "container-moved",
                   "the animator moved or removed the transition's container view (\(ctx.containerView.name)); the host put it back")
            parent.insertSubview(ctx.containerView, at: t.containerIndex)
        }
        if didComplete && ctx.transitionWasCancelled {
            breach(t, "completed-after-cancel",
                   "completeTransition(true) was called after the transition was cancelled; the host cancelled it")
            didComplete = false
        }
        var restored: [String] = []
        if didComplete {
            if !to.view.isDescendant(of: ctx.containerView) {
                breach(t, "to-view-missing",
                       "the to-view (\(to.typeName)) was not in the container after completeTransition(true); the host added it")
                ctx.containerView.addSubview(to.view)
            }
            if from.view !== to.view { from.view.removeFromSuperview() }
            appear(t, from, .didDisappear)
            appear(t, to, .didAppear)
        } else {
            // Undo field by field: the to-view first (it usually leaves the container), then the
            // from-view (back at its index).
            if let s = t.toState, from.view !== to.view { restored += s.restore(to.view).map { "to.\($0)" } }
            if let s = t.fromState { restored += s.restore(from.view).map { "from.\($0)" } }
            if !from.view.isDescendant(of: ctx.containerView) { ctx.containerView.addSubview(from.view) }
            // UIKit balances a cancelled transition: the to-controller disappears again and the
            // from-controller reappears.
            appear(t, to, .willDisappear)
            appear(t, to, .didDisappear)
            appear(t, from, .willAppear)
            appear(t, from, .didAppear)
        }
        // Later animations on this timeline (an animator's follow-ups) run at normal speed.
        ctx.timeline.setSpeed(1, now: engine.now)
        t.interaction?.transitionEnded()
        t.finish(didComplete)
        t.animator?.animationEnded(didComplete)
        active = nil
        let record = TransitionRecord(index: t.index, container: ctx.container, operation: ctx.operation,
                                      fromType: from.typeName, toType: to.typeName, fromID: from.id, toID: to.id,
                                      animator: t.animator?.identity, interactive: ctx.isInteractive, duration: t.duration,
                                      start: ctx.startTime, end: engine.now, outcome: didComplete ? .completed : .cancelled,
                                      breaches: t.breaches, appearance: t.appearance, restored: restored)
        records.append(record)
        observer?.transitionDidEnd(record)
        if !queue.isEmpty { scheduleDrain() }
    }

    /// Every transition that ended on this host, in order. Unlike the copy handed to the observer,
    /// these also carry breaches reported after the transition ended.
    public private(set) var records: [TransitionRecord] = []

    private func scheduleDrain() {
        guard !drainScheduled else { return }
        drainScheduled = true
        engine.schedule(at: engine.now) { [weak self] in
            guard let self else { return }
            self.drainScheduled = false
            self.drainQueue()
        }
    }

    /// Breaches reported before any transition ran.
    public private(set) var unattributedBreaches: [ContractBreach] = []

    /// Records a breach (from the plugin bridge) against the running transition; between
    /// transitions, against the last one that ended (a plugin's late callback), delivered to the
    /// observer like a late completeTransition; before any, on its own.
    public func report(_ breach: ContractBreach) {
        allBreaches.append(breach)
        if let active {
            active.breaches.append(breach)
        } else if let last = records.last {
            reportLate(breach, index: last.index)
        } else {
            unattributedBreaches.append(breach)
        }
    }

    /// Runs queued actions in arrival order until one starts a transition.
    private func drainQueue() {
        while active == nil, !queue.isEmpty { queue.removeFirst()() }
    }
}
