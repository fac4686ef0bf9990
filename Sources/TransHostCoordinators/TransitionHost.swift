import TransHostCore
import TransHostSupport

/// Runs transitions for every coordinator of one app: asks the provider for an animator, hands
/// it the context, watches the contract, applies UIKit's postconditions and queues actions that
/// arrive while a transition runs.
///
/// Rules:
/// - Queueing: one transition runs at a time per host (navigation, tab and modal share it). An
///   action that arrives while a transition runs, or while earlier actions still wait, is queued,
///   except a present or dismiss during a presentation or dismissal, which the modal coordinator
///   refuses with a warning as UIKit does.
/// - Interaction: a requested interaction controller drives a routed animator, or the default
///   navigation pop (the back swipe); on another default transition it is ignored with a warning,
///   as UIKit asks for one only when a custom animator is used.
/// - One container per controller: an action that would put a controller into a second
///   container is refused through `errorHandler` (UIKit raises), using `placement`.
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
/// - Repairs: everything the host fixes that a device would have shown wrong (a field restored
///   after a cancel, a from- or to-view put back, the container put back, a transition the
///   watchdog completed) is a `HostRepair` in the record and the trace, with the value the
///   animator left, and one warning per transition, so such an animator does not look correct.
/// - A second completeTransition is ignored and reported as `completed-twice`. Breaches that
///   arrive after the transition's record was delivered are reported through
///   `TransitionObserver.transition(_:didReportLateBreach:)` (only there: not as a warning
///   too), and are appended to that transition's entry in `records`.
/// - Appearance: from willDisappear + to willAppear at the start; on completion from didDisappear
///   + to didAppear; on cancel to willDisappear, to didDisappear, from willAppear, from didAppear
///   (UIKit's balancing). Every path goes through `end`, so the events stay balanced.
///   Each callback is forwarded to the controller's shown descendants right after it (a
///   navigation controller's top, a tab bar controller's selected tab, embedded children), as
///   UIKit's containers forward them; a presenter whose view stays on screen gets none
///   (`TransitionViews`).
public final class TransitionHost {
    public let engine: AnimationEngine
    public weak var provider: TransitionAnimatorProvider?
    public weak var observer: TransitionObserver?
    /// Receives host warnings (refused actions and the like).
    public var warningHandler: ((String) -> Void)?
    /// Receives errors: actions UIKit answers with an exception (a controller that would end up
    /// in two containers). The action is refused; without a handler they go to `warningHandler`.
    public var errorHandler: ((String) -> Void)?
    /// Where a controller sits in a container other than `asking` ("presented modally", "on the
    /// navigation stack", ...), or nil; set by the app that owns the coordinators.
    public var placement: ((ViewController, _ asking: ContainerKind) -> String?)?
    public private(set) var active: ActiveTransition?
    /// The window: a container whose view is not inside it is off screen, and changes there
    /// happen at once without a transition or appearance callbacks (see `isOnScreen`).
    public weak var window: View?
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

    func fail(_ message: String) {
        if let errorHandler { errorHandler(message) } else { warningHandler?("error: \(message)") }
    }

    /// Refuses (with an error naming it) an action that would put `vc` into a second container.
    func refuseIfPlacedElsewhere(_ vc: ViewController, by container: ContainerKind, action: String) -> Bool {
        guard let place = placement?(vc, container) else { return false }
        fail("\(action) of \(vc.typeName) (\(vc.id)) refused: it is \(place), and a view controller can be in one container only (UIKit raises an exception)")
        return true
    }

    /// Whether `view` is in the window (always true when no window was set).
    public func isOnScreen(_ view: View) -> Bool {
        guard let window else { return true }
        return view.isDescendant(of: window)
    }

    /// Whether a presentation or dismissal is running (UIKit refuses another present or dismiss then).
    public var isModalTransitionInFlight: Bool {
        guard let active, !active.isFinished else { return false }
        return active.context.container == .modal
    }

    /// Starts a transition. `finish(didComplete)` updates the container's state (the stack, the
    /// selection) after the postconditions have been applied.
    func begin(container: ContainerKind, operation: TransitionOperation, from: ViewController, to: ViewController,
               containerView: View, animated: Bool, initialFrames: [ObjectIdentifier: Rect], finalFrames: [ObjectIdentifier: Rect],
               interaction requested: InteractionController? = nil, views given: TransitionViews? = nil,
               source: ViewController? = nil, presentationController: PresentationController? = nil,
               willAnimate: (() -> Void)? = nil,
               defaultAnimator: @autoclosure () -> TransitionAnimator, finish: @escaping (Bool) -> Void) {
        let views = given ?? TransitionViews(from: from.view, to: to.view)
        let ctx = TransitionContext(container: container, operation: operation, from: from, to: to, containerView: containerView,
                                    isAnimated: animated, startTime: engine.now, initialFrames: initialFrames, finalFrames: finalFrames,
                                    fromView: views.from, toView: views.to)
        ctx.presentationController = presentationController
        // Before any plugin call: an animator may ask for the coordinator from transitionDuration.
        ctx.coordinator = TransitionCoordinator(context: ctx, engine: engine)
        let request = TransitionRequest(container: container, operation: operation, from: from, to: to, source: source)
        beginning = true
        defer { beginning = false }
        // UIKit's navigation delegate hears willShow for unanimated pushes and pops too; an
        // animated one hears it from the provider, before it is asked for the animator.
        if !animated, container == .navigation { (provider as? NavigationShowListener)?.navigationWillShow(request, animated: false) }
        let routed = animated ? provider?.animator(for: request) : nil
        let animator: TransitionAnimator? = animated ? (routed ?? defaultAnimator()) : nil
        ctx.pluginName = animator?.identity?.plugin ?? "host"
        var interaction = requested
        // UIKit asks for an interaction controller only when the delegate vended an animator; the
        // one interactive default is the navigation controller's back swipe.
        if interaction != nil, animated, routed == nil, !(container == .navigation && operation == .pop) {
            warn("\(container.rawValue) \(operation.rawValue) \(from.typeName) -> \(to.typeName) runs the host's default transition, which is not interactive; the gesture was ignored and the transition ran on its own")
            interaction = nil
        }
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
        let t = ActiveTransition(index: transitionCount, context: ctx, animator: animator, duration: duration, views: views)
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
            self.allBreaches.append(b)
            if let t, self.active === t { t.breaches.append(b) } else { self.reportLate(b, index: index) }
        }
        ctx.onComplete = { [weak self, weak t] did in if let self, let t { self.end(t, didComplete: did) } }
        ctx.onPause = { [weak self, weak t] interaction, hostDrives in
            guard let self, let t else { return "the transition has ended" }
            return self.interrupt(t, with: interaction, drivenByHost: hostDrives)
        }

        ctx.coordinator.transitionDuration = duration
        t.toState = views.to.map { ViewState(of: $0) }
        if views.fromAppears { appear(t, from, .willDisappear) }
        for vc in views.alsoDisappearing { appear(t, vc, .willDisappear) }
        if views.toAppears { appear(t, to, .willAppear) }
        if let toView = views.to, toView.superview == nil { toView.frame = ctx.finalFrame(for: to) }
        // A from-view shown elsewhere in the window (a presenter inside another container) stays
        // where it is; one that is nowhere joins the container.
        if let fromView = views.from, fromView.superview !== containerView, !isOnScreen(fromView) || window == nil {
            containerView.addSubview(fromView)
        }
        t.fromState = views.from.map { ViewState(of: $0) }
        observer?.transitionDidBegin(t)

        guard let animator else {
            willAnimate?()
            if let toView = views.to { containerView.addSubview(toView) }
            ctx.coordinator.start()
            ctx.completeTransition(true)
            return
        }
        if let interaction {
            // The host never advances an interactive transition on its own.
            ctx.timeline.pause(now: engine.now)
            interaction.attach(to: t, host: self)
            ctx.coordinator.interaction = interaction
        } else {
            armWatchdog(t, remaining: duration)
        }
        // The presentation controller's will-begin hook runs on the transition's timeline, so
        // what it animates runs (and is scrubbed) with the transition.
        engine.withTimeline(ctx.timeline) {
            willAnimate?()
            animator.animateTransition(ctx)
        }
        adoptInterruptibleAnimator(t)
        // UIKit runs alongside animations in the animator's animation context: they start with it
        // (those the will-begin hook asked for included).
        if !t.isFinished { ctx.coordinator.start() }
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
            for v in [ctx.fromViewController.view, ctx.toViewController.view] + [ctx.fromView, ctx.toView].compactMap({ $0 }) {
                self.engine.removeAllAnimations(of: v)
            }
            t.repairs.append(HostRepair(kind: "completed-by-host", subject: "completeTransition",
                message: "the animator never called completeTransition; the host stopped the from- and to-view's animations and completed the transition (on a device it would never end and the app would stop responding)"))
            ctx.completedByWatchdog = true
            ctx.completeTransition(!ctx.transitionWasCancelled)
        }
    }

    private func appear(_ t: ActiveTransition, _ vc: ViewController, _ kind: AppearanceKind) {
        for c in vc.shownSubtree {
            t.appearance.append(AppearanceEvent(controller: c.id, type: c.typeName, kind: kind, animated: t.context.isAnimated, time: engine.now))
        }
    }

    func breach(_ t: ActiveTransition, _ kind: String, _ message: String) {
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
        checkPropertyAnimatorAtEnd(t, didComplete: requested)
        let ctx = t.context
        let from = ctx.fromViewController, to = ctx.toViewController
        var didComplete = requested
        if let parent = t.containerParent, ctx.containerView.superview !== parent {
            breach(t, "container-moved",
                   "the animator moved or removed the transition's container view (\(ctx.containerView.name)); the host put it back")
            parent.insertSubview(ctx.containerView, at: t.containerIndex)
            t.repairs.append(HostRepair(kind: "container-restored", subject: ctx.containerView.name,
                message: "the animator moved or removed the container view (\(ctx.containerView.name)); the host put it back at index \(t.containerIndex) of \(parent.name) (on a device the screen would lose it)"))
        }
        if didComplete && ctx.transitionWasCancelled {
            breach(t, "completed-after-cancel",
                   "completeTransition(true) was called after the transition was cancelled; the host cancelled it")
            didComplete = false
        }
        var restored: [String] = []
        let views = t.views
        if didComplete {
            if let toView = views.to, !toView.isDescendant(of: ctx.containerView) {
                breach(t, "to-view-missing",
                       "the to-view (\(to.typeName)) was not in the container after completeTransition(true); the host added it")
                ctx.containerView.addSubview(toView)
                t.repairs.append(HostRepair(kind: "to-view-added", subject: "to-view",
                    message: "the to-view (\(to.typeName)) was not in the container after completeTransition(true); the host added it (on a device the screen would show no \(to.typeName))"))
            }
            if let fromView = views.from, fromView !== views.to { fromView.removeFromSuperview() }
            if views.fromAppears { appear(t, from, .didDisappear) }
            for vc in views.alsoDisappearing { appear(t, vc, .didDisappear) }
            if views.toAppears { appear(t, to, .didAppear) }
        } else {
            // Undo field by field: the to-view first (it usually leaves the container), then the
            // from-view (back at its index).
            if let s = t.toState, let toView = views.to, toView !== views.from { restored += restore(toView, to: s, as: "to", in: t) }
            if let s = t.fromState, let fromView = views.from { restored += restore(fromView, to: s, as: "from", in: t) }
            if let fromView = views.from, !fromView.isDescendant(of: ctx.containerView) {
                ctx.containerView.addSubview(fromView)
                t.repairs.append(HostRepair(kind: "from-view-added", subject: "from-view",
                    message: "the cancelled transition left the from-view (\(from.typeName)) outside the container; the host added it back (on a device the screen would be blank)"))
            }
            // UIKit balances a cancelled transition: the to-controller disappears again and the
            // from-controller reappears.
            if views.toAppears {
                appear(t, to, .willDisappear)
                appear(t, to, .didDisappear)
            }
            for vc in views.alsoDisappearing { appear(t, vc, .willAppear); appear(t, vc, .didAppear) }
            if views.fromAppears {
                appear(t, from, .willAppear)
                appear(t, from, .didAppear)
            }
        }
        // Later animations on this timeline (an animator's follow-ups) run at normal speed.
        ctx.timeline.setSpeed(1, now: engine.now)
        t.interaction?.transitionEnded()
        t.finish(didComplete)
        // The order at the end: the container's bookkeeping and the presentation controller's
        // DidEnd (in finish), the coordinator's completions (a cancel's rollback first), then the
        // animator's animationEnded.
        ctx.coordinator.transitionDidEnd(didComplete: didComplete)
        t.animator?.animationEnded(didComplete)
        active = nil
        let record = TransitionRecord(index: t.index, container: ctx.container, operation: ctx.operation,
                                      fromType: from.typeName, toType: to.typeName, fromID: from.id, toID: to.id,
                                      animator: t.animator?.identity, interactive: ctx.isInteractive, duration: t.duration,
                                      start: ctx.startTime, end: engine.now, outcome: didComplete ? .completed : .cancelled,
                                      breaches: t.breaches, appearance: t.appearance, restored: restored, repairs: t.repairs)
        if !t.repairs.isEmpty {
            warn("transition \(t.index) (\(ctx.container.rawValue) \(ctx.operation.rawValue) \(from.typeName) -> \(to.typeName)) looks right only because the host repaired what \(ctx.pluginName) left: \(t.repairs.map(\.subject).joined(separator: ", ")); on a device it would not (see the trace's repairs)")
        }
        records.append(record)
        observer?.transitionDidEnd(record)
        if !queue.isEmpty { scheduleDrain() }
    }

    /// Puts `view` back as `state` after a cancel and records a repair for each field a correct
    /// animator would have put back itself. A to-view that was outside the window leaves it on a
    /// cancel (UIKit's own postcondition), so its place and geometry (the final frame an animator
    /// gives it) are not repairs; what it would carry into its next appearance (alpha, transform,
    /// ...) is.
    private func restore(_ view: View, to state: ViewState, as role: String, in t: ActiveTransition) -> [String] {
        let left = ViewState(of: view)
        let fields = state.restore(view)
        let offScreen = role == "to" && state.superviewID == nil
        for f in fields where !(offScreen && ["superview", "index", "bounds", "position"].contains(f)) {
            let device = offScreen
                ? "on a device the to-view would keep \(left.describe(f)) the next time it is shown"
                : "on a device it would keep \(left.describe(f)) and jump there once the animations end"
            t.repairs.append(HostRepair(kind: "field-restored", subject: "\(role).\(f)",
                message: "the cancelled transition left the \(role)-view's \(f) at \(left.describe(f)); the host put back \(state.describe(f)), its value before the transition (\(device))"))
        }
        return fields.map { "\(role).\($0)" }
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
