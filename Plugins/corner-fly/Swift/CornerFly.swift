// corner-fly — the animators of seed 001, in Swift with TransHostAnimatorKit.
//
// - push (CustomPushAnimation, 3.0 s): the to-view, below the from-view, comes in from the
//   bottom-right corner (translation (W, H) -> identity) while the from-view leaves to the
//   top-left corner (identity -> (-W, -H)).
// - pop (CustomPopAnimation, 2.0 s): top to bottom: the to-view comes down from (0, -H) while the
//   from-view drops to (0, H).
// - present / dismiss (CustomPresentAnimation, 1.3 s, spring damping 0.5, velocity 0):
//   present slides a snapshot of the presented view in from the left (translation (-W, 0) ->
//   identity) over a snapshot of the presenting view; dismiss slides the presented view's
//   snapshot out to the left. Driven by a pan, the present finishes past half the width.
//
// The seed hard-codes 320 x 568; this uses the container's real size (W x H).
import UIKit

nonisolated(unsafe) var pushDuration: TimeInterval = 3.0
nonisolated(unsafe) var popDuration: TimeInterval = 2.0
nonisolated(unsafe) var presentDuration: TimeInterval = 1.3
nonisolated(unsafe) var presentDamping: CGFloat = 0.5
nonisolated(unsafe) var presentVelocity: CGFloat = 0

@_cdecl("corner_fly_configure")
public func cornerFlyConfigure(_ push: Double, _ pop: Double, _ present: Double, _ damping: Double, _ velocity: Double) {
    pushDuration = push
    popDuration = pop
    presentDuration = present
    presentDamping = damping
    presentVelocity = velocity
}

/// CustomPushAnimation.
final class CornerPush: NSObject, UIViewControllerAnimatedTransitioning {
    func transitionDuration(using ctx: UIViewControllerContextTransitioning?) -> TimeInterval { pushDuration }

    func animateTransition(using ctx: UIViewControllerContextTransitioning) {
        let toViewController = ctx.viewController(forKey: .to)!
        let fromViewController = ctx.viewController(forKey: .from)!
        let size = ctx.containerView.bounds.size
        ctx.containerView.insertSubview(toViewController.view, belowSubview: fromViewController.view)
        toViewController.view.transform = CGAffineTransform(translationX: size.width, y: size.height)
        UIView.animate(withDuration: transitionDuration(using: ctx), animations: {
            fromViewController.view.transform = CGAffineTransform(translationX: -size.width, y: -size.height)
            toViewController.view.transform = .identity
        }, completion: { _ in
            fromViewController.view.transform = .identity
            ctx.completeTransition(!ctx.transitionWasCancelled)
        })
    }
}

/// CustomPopAnimation.
final class CornerPop: NSObject, UIViewControllerAnimatedTransitioning {
    func transitionDuration(using ctx: UIViewControllerContextTransitioning?) -> TimeInterval { popDuration }

    func animateTransition(using ctx: UIViewControllerContextTransitioning) {
        let toViewController = ctx.viewController(forKey: .to)!
        let fromViewController = ctx.viewController(forKey: .from)!
        let size = ctx.containerView.bounds.size
        ctx.containerView.insertSubview(toViewController.view, belowSubview: fromViewController.view)
        toViewController.view.transform = CGAffineTransform(translationX: 0, y: -size.height)
        UIView.animate(withDuration: transitionDuration(using: ctx), animations: {
            fromViewController.view.transform = CGAffineTransform(translationX: 0, y: size.height)
            toViewController.view.transform = .identity
        }, completion: { _ in
            fromViewController.view.transform = .identity
            ctx.completeTransition(!ctx.transitionWasCancelled)
        })
    }
}

/// CustomPresentAnimation.
final class CornerPresent: NSObject, UIViewControllerAnimatedTransitioning {
    func transitionDuration(using ctx: UIViewControllerContextTransitioning?) -> TimeInterval { presentDuration }

    func animateTransition(using ctx: UIViewControllerContextTransitioning) {
        let toView = ctx.view(forKey: .to)!
        let fromView = ctx.view(forKey: .from)!
        let container = ctx.containerView
        let width = container.bounds.width
        // The presenting side below, the presented side above.
        let below = ctx.isPresenting ? fromView : toView
        let above = ctx.isPresenting ? toView : fromView
        guard let snap = below.snapshotView(afterScreenUpdates: true), let snap2 = above.snapshotView(afterScreenUpdates: true) else {
            container.addSubview(toView)
            ctx.completeTransition(!ctx.transitionWasCancelled)
            return
        }
        container.addSubview(snap)
        container.addSubview(snap2)
        if ctx.isPresenting { snap2.transform = CGAffineTransform(translationX: -width, y: 0) }
        UIView.animate(withDuration: presentDuration, delay: 0, usingSpringWithDamping: presentDamping,
                       initialSpringVelocity: presentVelocity, options: .curveLinear, animations: {
            snap2.transform = ctx.isPresenting ? .identity : CGAffineTransform(translationX: -width, y: 0)
        }, completion: { _ in
            snap.removeFromSuperview()
            snap2.removeFromSuperview()
            // The seed adds the to-view unconditionally; after a cancelled pan the from-view
            // stays and the to-view must not appear.
            if !ctx.transitionWasCancelled { container.addSubview(toView) }
            ctx.completeTransition(!ctx.transitionWasCancelled)
        })
    }
}
