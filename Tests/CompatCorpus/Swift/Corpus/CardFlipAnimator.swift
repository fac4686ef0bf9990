import UIKit
import QuartzCore

/// Turns the screen over like a card: the from-view rotates away about the vertical axis with
/// perspective until it is edge-on, then the to-view rotates in from the other edge.
class CardFlipAnimator: NSObject, UIViewControllerAnimatedTransitioning {

    var reverse = false

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return 0.8
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        let containerView = transitionContext.containerView
        guard let fromVC = transitionContext.viewController(forKey: .from),
              let toVC = transitionContext.viewController(forKey: .to) else {
            return
        }
        let fromView = fromVC.view!
        let toView = toVC.view!

        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500.0
        containerView.layer.sublayerTransform = perspective

        toView.frame = transitionContext.finalFrame(for: toVC)
        containerView.addSubview(toView)

        let direction: CGFloat = reverse ? -1 : 1
        let halfTurn = CGFloat.pi / 2
        // Edge-on, so it is invisible until the second half turns it in.
        toView.layer.transform = CATransform3DRotate(perspective, -direction * halfTurn, 0.0, 1.0, 0.0)

        let duration = transitionDuration(using: transitionContext)
        UIView.animateKeyframes(withDuration: duration, delay: 0, options: .calculationModeCubic, animations: {
            UIView.addKeyframe(withRelativeStartTime: 0.0, relativeDuration: 0.5) {
                fromView.layer.transform = CATransform3DRotate(perspective, direction * halfTurn, 0.0, 1.0, 0.0)
            }
            UIView.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.5) {
                toView.layer.transform = CATransform3DIdentity
            }
        }, completion: { _ in
            fromView.layer.transform = CATransform3DIdentity
            toView.layer.transform = CATransform3DIdentity
            containerView.layer.sublayerTransform = CATransform3DIdentity
            transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        })
    }
}
