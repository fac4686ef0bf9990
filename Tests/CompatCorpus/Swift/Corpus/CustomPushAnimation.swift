import UIKit

// Seed 001 (zh), transliterated line by line from Objective-C: CustomPushAnimation. The seed's
// 320 x 568 (iPhone 5) translations are kept.

class CustomPushAnimation: NSObject, UIViewControllerAnimatedTransitioning {

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return 3.0
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        // the destination controller
        let toViewController = transitionContext.viewController(forKey: UITransitionContextViewControllerKey.to)!
        // the controller we start from
        let fromViewController = transitionContext.viewController(forKey: UITransitionContextViewControllerKey.from)!

        // add the to-view to the context
        transitionContext.containerView.insertSubview(toViewController.view, belowSubview: fromViewController.view)

        // the custom animation
        toViewController.view.transform = CGAffineTransform(translationX: 320, y: 568)
        UIView.animate(withDuration: self.transitionDuration(using: transitionContext), animations: {
            fromViewController.view.transform = CGAffineTransform(translationX: -320, y: -568)
            toViewController.view.transform = CGAffineTransform.identity
        }, completion: { finished in
            fromViewController.view.transform = CGAffineTransform.identity
            // say that the transition is over: completeTransition:
            transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        })
    }
}
