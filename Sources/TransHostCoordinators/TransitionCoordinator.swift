import TransHostCore

/// UIViewControllerTransitionCoordinator: what the controllers taking part in a transition (and
/// a presentation controller) use to animate their own views with it and to hear how it ends.
///
/// Rules:
/// - `animate(alongsideTransition:completion:)`: the animation block runs as one animation block
///   on the transition's timeline, from the moment the animator starts (the transition's start;
///   later calls begin where the transition is and last what is left of it), over the
///   transition's duration with ease-in-out (UIKit's default curve). It may change any view, in
///   the container or not. When the transition is interactive it is scrubbed with it and runs
///   back on a cancel; after a cancel the host puts every property the alongside blocks changed
///   back to its model value from before the block (UIKit's alongside animations end where they
///   began). A transition that is not animated runs the blocks at once, unanimated.
/// - Completions run once the transition has ended, in the order they were added, after the
///   host's postconditions (the from-view gone or the cancel restored) and the presentation
///   controller's DidEnd, and before the animator's animationEnded; `isCancelled` tells which.
/// - Calls after the transition ended do nothing and return false, as UIKit's do.
/// - `notifyWhenInteractionChanges`: for an interactive transition, each handler runs once, when
///   the interaction ends (finish or cancel), with `isInteractive` false, `isCancelled` set and
///   `percentComplete`, `completionVelocity` and `completionCurve` those of the release.
public final class TransitionCoordinator {
    public unowned let context: TransitionContext
    private let engine: AnimationEngine
    /// transitionDuration: the animator's, once the host asked it (0 for an unanimated one).
    public internal(set) var transitionDuration: Double = 0
    /// UIKit's completionVelocity and completionCurve: the interaction controller's
    /// completionSpeed and completionCurve (1 and ease-in-out when not interactive).
    public internal(set) var completionVelocity: Double = 1
    public internal(set) var completionCurve: TimingCurve = .easeInOut
    /// Whether the interaction ended (finish or cancel); isInteractive is false from then on.
    public private(set) var interactionEnded = false
    /// The interaction's percentage (see `percentComplete`).
    weak var interaction: InteractionController?

    private var waiting: [(animation: (() -> Void)?, completion: ((TransitionCoordinator) -> Void)?)] = []
    private var completions: [(TransitionCoordinator) -> Void] = []
    private var interactionHandlers: [(TransitionCoordinator) -> Void] = []
    private var changes: [ModelChange] = []
    private var started = false
    private var ended = false

    init(context: TransitionContext, engine: AnimationEngine) {
        self.context = context
        self.engine = engine
    }

    public var isAnimated: Bool { context.isAnimated }
    public var isInteractive: Bool { context.isInteractive && !interactionEnded }
    public var isCancelled: Bool { context.transitionWasCancelled }
    public var containerView: View { context.containerView }
    /// The presentation's style for a modal transition (present or dismiss), else full screen.
    public var presentationStyle: ModalPresentationStyle { context.presentationController?.presentationStyle ?? .fullScreen }
    /// How far the transition is, 0...1: the interaction's percentage while interactive (or at
    /// its release), else the share of the duration that has passed on the transition's timeline.
    public var percentComplete: Double {
        if context.isInteractive, let interaction { return interaction.percentComplete }
        guard transitionDuration > 0 else { return ended && context.didComplete == true ? 1 : 0 }
        let local = context.timeline.localTime(atGlobal: engine.now) - context.startTime
        return min(max(local / transitionDuration, 0), 1)
    }

    /// animate(alongsideTransition:completion:); false once the transition has ended.
    @discardableResult
    public func animate(alongsideTransition animation: (() -> Void)?, completion: ((TransitionCoordinator) -> Void)? = nil) -> Bool {
        guard !ended else { return false }
        if started { run(animation); if let completion { completions.append(completion) } } else { waiting.append((animation, completion)) }
        return true
    }

    /// notifyWhenInteractionChanges(_:); ignored on a transition that is not interactive.
    public func notifyWhenInteractionChanges(_ handler: @escaping (TransitionCoordinator) -> Void) {
        guard !ended, context.isInteractive, !interactionEnded else { return }
        interactionHandlers.append(handler)
    }

    // MARK: Host side

    /// The animator has been asked to start: what waited runs now, on the transition's timeline.
    func start() {
        guard !started else { return }
        started = true
        let blocks = waiting
        waiting = []
        for b in blocks {
            run(b.animation)
            if let c = b.completion { completions.append(c) }
        }
    }

    private func run(_ animation: (() -> Void)?) {
        guard let animation else { return }
        guard context.isAnimated, transitionDuration > 0 else {
            changes += engine.recordingModelChanges(animation)
            return
        }
        let remaining = max(context.startTime + transitionDuration - context.timeline.localTime(atGlobal: engine.now), 0)
        changes += engine.withTimeline(context.timeline) {
            engine.recordingModelChanges {
                engine.animate(AnimationParameters(duration: remaining, options: AnimationParameters.overrideInheritedDuration | AnimationParameters.overrideInheritedCurve),
                               animations: animation)
            }
        }
    }

    /// The interaction ended with finish (cancelled false) or cancel.
    func interactionDidEnd(speed: Double, curve: TimingCurve) {
        guard context.isInteractive, !interactionEnded else { return }
        interactionEnded = true
        completionVelocity = speed
        completionCurve = curve
        let handlers = interactionHandlers
        interactionHandlers = []
        for h in handlers { h(self) }
    }

    /// The transition ended: a cancel rolls back what the alongside blocks changed; then the
    /// completions run.
    func transitionDidEnd(didComplete: Bool) {
        guard !ended else { return }
        start()
        ended = true
        if !didComplete {
            for c in changes.reversed() {
                engine.removeAnimation(of: c.view, c.property)
                c.view.setModelValue(c.before, for: c.property)
            }
        }
        changes = []
        let blocks = completions
        completions = []
        interactionHandlers = []
        for c in blocks { c(self) }
    }
}

