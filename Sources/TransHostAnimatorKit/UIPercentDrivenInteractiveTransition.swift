/// UIPercentDrivenInteractiveTransition: drives the animator's animations by a percentage.
/// `update`, `finish` and `cancel` may be called before the transition starts (from the
/// gesture handler that starts it); they are applied when it does.
open class UIPercentDrivenInteractiveTransition: NSObject, UIViewControllerInteractiveTransitioning {
    open var completionSpeed: CGFloat = 1
    open var completionCurve: UIView.AnimationCurve = .easeInOut
    open var wantsInteractiveStart = true
    open private(set) var percentComplete: CGFloat = 0
    /// The animator's transitionDuration for the running transition.
    open var duration: CGFloat { CGFloat(context?.coordinator.transitionDuration ?? 0) }

    private weak var context: TransHostTransitionContext?
    private var pendingEnd: Bool?
    private var endRequested = false
    /// Whether update() was called since the last transition ended (before this one started).
    private var updatedBeforeStart = false

    public override init() { super.init() }

    /// Called by the host through the kit: runs the animator, then applies what was asked before.
    open func startInteractiveTransition(_ transitionContext: UIViewControllerContextTransitioning) {
        guard let ctx = transitionContext as? TransHostTransitionContext else { return }
        context = ctx
        endRequested = false
        paused = true
        // Every interactive transition starts at 0, unless the gesture already moved it.
        if !updatedBeforeStart { percentComplete = 0 }
        updatedBeforeStart = false
        ctx.interactionAnimator?.animateTransition(using: ctx)
        ctx.updateInteractiveTransition(percentComplete)
        if let end = pendingEnd {
            pendingEnd = nil
            end ? finish() : cancel()
        }
    }

    /// A transition that started on its own (wantsInteractiveStart false): pause() can take it.
    func adopt(_ ctx: TransHostTransitionContext, animator: UIViewControllerAnimatedTransitioning) {
        context = ctx
        adoptedAnimator = animator
        endRequested = false
        paused = false
        percentComplete = 0
    }
    /// Whether pause() took a transition that started on its own.
    private var paused = true
    private var adoptedAnimator: UIViewControllerAnimatedTransitioning?

    open func update(_ percentComplete: CGFloat) {
        self.percentComplete = min(max(percentComplete, 0), 1)
        guard let context, !context.hasEnded, !endRequested, paused else { updatedBeforeStart = true; return }
        context.updateInteractiveTransition(self.percentComplete)
    }
    open func finish() { end(true) }
    open func cancel() { end(false) }
    /// pause(): interrupts a transition that runs on its own (wantsInteractiveStart false, or
    /// after finish()/cancel()): it holds still, and update/finish/cancel drive it again.
    open func pause() {
        guard let ctx = context, !ctx.hasEnded else { return }
        endRequested = false
        paused = true
        ctx.pauseDrivenByInteraction()
        // It holds where it was: percentComplete is how far its property animator had come.
        if let pa = adoptedAnimator?.interruptibleAnimator(using: ctx) as? UIViewPropertyAnimator {
            percentComplete = pa.fractionComplete
        }
    }

    private func end(_ finishing: Bool) {
        guard let ctx = context, !ctx.hasEnded else { pendingEnd = finishing; return }
        guard !endRequested else { return }
        endRequested = true
        ctx.completionSpeed = completionSpeed
        ctx.completionCurve = completionCurve
        finishing ? ctx.finishInteractiveTransition() : ctx.cancelInteractiveTransition()
    }
}
