// split-modal — IACModalTransition of seed 000, in Swift with TransHostAnimatorKit.
//
// Present (1.0 s, linear keyframes): the from-view's snapshot is cut into a left and a right
// half; in the first half of the keyframes each half turns about Y (m34 = -1/900) and moves out
// by 120 pt; in the second half the to-view grows from scale 0 and alpha 0.6 to identity and 1.
// Dismiss (0.5 s) reverses it: a snapshot of the presented view shrinks to scale 0 and alpha 0.6,
// then the presenting view's two halves turn back and close in.
//
// Decisions about the seed's quirks (documented in the README):
// - `CATransform3DRotate(t, 90.0f, 0, 1, 0)` turns by 90 *radians* (about 116.6 degrees, so each
//   half shows its back). Faithful by default: the `angle` parameter is 90 (radians); set it to
//   1.5707963 for the quarter turn the article meant.
// - The seed animates the dismissal for presentationDuration although transitionDuration
//   reports dismissalDuration (0.5 s); here the animation lasts what transitionDuration says,
//   so traces and interactive scrubbing agree with the context.
// - The seed leaves its snapshots in the container and never puts the presenting view back on
//   dismissal; here the completion removes the snapshots and adds the to-view, so the app is
//   left consistent (the host would otherwise report to-view-missing).
// - The seed's 160 x 640 crops assume a 320-point screen; here the halves are cut from the
//   container's real size.
import UIKit

nonisolated(unsafe) var presentationDuration: TimeInterval = 1.0
nonisolated(unsafe) var dismissalDuration: TimeInterval = 0.5
nonisolated(unsafe) var halfAngle: CGFloat = 90.0
nonisolated(unsafe) var halfOffset: CGFloat = 120.0
nonisolated(unsafe) var perspective: CGFloat = 900.0

@_cdecl("split_modal_configure")
public func splitModalConfigure(_ presentation: Double, _ dismissal: Double, _ angle: Double, _ offset: Double, _ eyeDistance: Double) {
    presentationDuration = presentation
    dismissalDuration = dismissal
    halfAngle = angle
    halfOffset = offset
    perspective = eyeDistance
}

final class SplitModal: NSObject, UIViewControllerAnimatedTransitioning {
    func transitionDuration(using ctx: UIViewControllerContextTransitioning?) -> TimeInterval {
        (ctx?.isPresenting ?? true) ? presentationDuration : dismissalDuration
    }

    func animateTransition(using ctx: UIViewControllerContextTransitioning) {
        if ctx.isPresenting { animatePresenting(ctx) } else { animateDismissal(ctx) }
    }

    /// The two halves of `view`'s snapshot, side by side where the view is.
    func halves(of view: UIView, size: CGSize) -> (UIView, UIView)? {
        guard let left = view.snapshotView(afterScreenUpdates: true)?.resizableSnapshotView(
                from: CGRect(x: 0, y: 0, width: size.width / 2, height: size.height), afterScreenUpdates: true, withCapInsets: .zero),
              let right = view.snapshotView(afterScreenUpdates: true)?.resizableSnapshotView(
                from: CGRect(x: size.width / 2, y: 0, width: size.width / 2, height: size.height), afterScreenUpdates: true, withCapInsets: .zero)
        else { return nil }
        right.center = CGPoint(x: left.center.x * 3, y: left.center.y)
        return (left, right)
    }

    func animatePresenting(_ ctx: UIViewControllerContextTransitioning) {
        let toViewController = ctx.viewController(forKey: .to)!
        let fromViewController = ctx.viewController(forKey: .from)!
        let containerView = ctx.containerView
        let size = containerView.bounds.size
        guard let (capture1, capture2) = halves(of: fromViewController.view, size: size) else {
            ctx.completeTransition(!ctx.transitionWasCancelled)
            return
        }
        fromViewController.view.removeFromSuperview()
        containerView.addSubview(toViewController.view)
        containerView.addSubview(capture1)
        containerView.addSubview(capture2)

        toViewController.view.layer.transform = CATransform3DScale(CATransform3DIdentity, 0.0, 0.0, 1)
        toViewController.view.alpha = 0.6

        let t1 = firstTransform(), t2 = secondTransform()
        UIView.animateKeyframes(withDuration: presentationDuration, delay: 0.0, options: .calculationModeLinear, animations: {
            UIView.addKeyframe(withRelativeStartTime: 0.0, relativeDuration: 0.5) {
                capture1.layer.transform = t1
                capture1.center = CGPoint(x: capture1.center.x - halfOffset, y: capture1.center.y)
                capture2.layer.transform = t2
                capture2.center = CGPoint(x: capture2.center.x + halfOffset, y: capture1.center.y)
            }
            UIView.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) {
                toViewController.view.layer.transform = CATransform3DIdentity
                toViewController.view.alpha = 1.0
            }
        }, completion: { _ in
            capture1.removeFromSuperview()
            capture2.removeFromSuperview()
            if ctx.transitionWasCancelled { containerView.insertSubview(fromViewController.view, at: 0) }
            ctx.completeTransition(!ctx.transitionWasCancelled)
        })
    }

    func animateDismissal(_ ctx: UIViewControllerContextTransitioning) {
        let toViewController = ctx.viewController(forKey: .to)!
        let fromViewController = ctx.viewController(forKey: .from)!
        let containerView = ctx.containerView
        let size = containerView.bounds.size
        guard let (capture1, capture2) = halves(of: toViewController.view, size: size),
              let intermediateView = fromViewController.view.snapshotView(afterScreenUpdates: true) else {
            containerView.addSubview(toViewController.view)
            ctx.completeTransition(!ctx.transitionWasCancelled)
            return
        }
        // The halves start where the presentation left them: turned and moved out.
        capture1.layer.transform = firstTransform()
        capture1.center = CGPoint(x: capture1.center.x - halfOffset, y: capture1.center.y)
        capture2.center = CGPoint(x: capture2.center.x + halfOffset, y: capture2.center.y)
        capture2.layer.transform = secondTransform()

        fromViewController.view.removeFromSuperview()
        containerView.addSubview(intermediateView)
        containerView.addSubview(capture1)
        containerView.addSubview(capture2)

        UIView.animateKeyframes(withDuration: dismissalDuration, delay: 0.0, options: .calculationModeLinear, animations: {
            UIView.addKeyframe(withRelativeStartTime: 0.0, relativeDuration: 0.5) {
                intermediateView.layer.transform = CATransform3DScale(CATransform3DIdentity, 0.0, 0.0, 1)
                intermediateView.alpha = 0.6
            }
            UIView.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) {
                capture1.layer.transform = CATransform3DIdentity
                capture1.center = CGPoint(x: capture1.center.x + halfOffset, y: capture1.center.y)
                capture2.layer.transform = CATransform3DIdentity
                capture2.center = CGPoint(x: capture2.center.x - halfOffset, y: capture1.center.y)
            }
        }, completion: { _ in
            intermediateView.removeFromSuperview()
            capture1.removeFromSuperview()
            capture2.removeFromSuperview()
            if ctx.transitionWasCancelled {
                containerView.addSubview(fromViewController.view)
            } else {
                containerView.addSubview(toViewController.view)
            }
            ctx.completeTransition(!ctx.transitionWasCancelled)
        })
    }

    func firstTransform() -> CATransform3D {
        var transform = CATransform3DIdentity
        transform.m34 = 1.0 / -perspective
        return CATransform3DRotate(transform, halfAngle, 0, 1, 0)
    }

    func secondTransform() -> CATransform3D {
        var transform = CATransform3DIdentity
        transform.m34 = 1.0 / -perspective
        return CATransform3DRotate(transform, -halfAngle, 0, 1, 0)
    }
}
