import UIKit

/// Cross-dissolves from one screen to the next. Works for any container: the to-view is faded
/// in over the from-view, which stays where it is until the transition completes.
final class CrossfadeAnimator: NSObject, UIViewControllerAnimatedTransitioning {

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return 0.35
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        guard let toViewController = transitionContext.viewController(forKey: .to),
              let toView = transitionContext.view(forKey: .to) else {
            transitionContext.completeTransition(false)
            return
        }
        let containerView = transitionContext.containerView

        toView.frame = transitionContext.finalFrame(for: toViewController)
        toView.alpha = 0
        containerView.addSubview(toView)

        let animations = {
            toView.alpha = 1
        }
        let completion = transitionContext.completeTransition

        if transitionContext.isAnimated {
            UIView.animate(withDuration: transitionDuration(using: transitionContext),
                           animations: animations,
                           completion: { _ in completion(!transitionContext.transitionWasCancelled) })
        } else {
            animations()
            completion(true)
        }
    }
}
