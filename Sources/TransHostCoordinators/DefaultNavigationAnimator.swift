import TransHostCore

/// The host's push/pop when no route matches (UIKit's slide, made deterministic).
///
/// Timing: 0.35 s, ease-in-out. Push: the to-view slides in from the right edge (x: +width -> 0)
/// above the from-view, which moves left by 30% of the width. Pop mirrors it: the from-view slides
/// out to the right while the to-view, inserted below it, comes back from -30%. Frames are reset
/// in the completion so a later transition starts from the container's bounds.
public final class DefaultNavigationAnimator: TransitionAnimator {
    public static let duration = 0.35
    public static let parallax = 0.3
    let operation: TransitionOperation

    public init(operation: TransitionOperation) { self.operation = operation }

    public var identity: AnimatorIdentity? { nil }

    public func transitionDuration(_ context: TransitionContext) -> Double { Self.duration }

    public func animateTransition(_ ctx: TransitionContext) {
        let container = ctx.containerView
        // Navigation transitions always give both views.
        guard let fromView = ctx.view(forKey: .from), let toView = ctx.view(forKey: .to) else {
            ctx.completeTransition(!ctx.transitionWasCancelled)
            return
        }
        let final = ctx.finalFrame(for: ctx.toViewController)
        let w = container.bounds.width
        let engine = container.engine
        var start = final, fromEnd = fromView.frame
        if operation == .pop {
            container.insertSubview(toView, belowSubview: fromView)
            start.origin.x = final.minX - Self.parallax * w
            fromEnd.origin.x += w
        } else {
            container.addSubview(toView)
            start.origin.x = final.minX + w
            fromEnd.origin.x -= Self.parallax * w
        }
        toView.frame = start
        let fromStart = fromView.frame
        engine.animate(AnimationParameters(duration: Self.duration), animations: {
            toView.frame = final
            fromView.frame = fromEnd
        }, completion: { _ in
            fromView.frame = fromStart
            ctx.completeTransition(!ctx.transitionWasCancelled)
        })
    }
}
