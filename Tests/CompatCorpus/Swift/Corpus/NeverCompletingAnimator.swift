import UIKit

/// A real bug, kept on purpose: the animator fades the new screen in but never tells the context
/// that it is done. On a device the app freezes with the transition on screen; it is the
/// textbook way to break the transitioning contract.
class NeverCompletingAnimator: NSObject, UIViewControllerAnimatedTransitioning {

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return 0.3
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        guard let toView = transitionContext.view(forKey: .to) else { return }
        transitionContext.containerView.addSubview(toView)
        toView.alpha = 0

        UIView.animate(withDuration: transitionDuration(using: transitionContext), animations: {
            toView.alpha = 1
        }, completion: { _ in
            // BUG: transitionContext.completeTransition(_:) is never called.
            toView.alpha = 1
        })
    }
}
