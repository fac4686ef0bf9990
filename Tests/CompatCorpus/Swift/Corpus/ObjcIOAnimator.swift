import UIKit

// Seed 004 (fr, the objc.io example shown at CocoaHeads Lyon) and seed 003 (vi), transliterated
// line by line from Objective-C: the "Animator" object, 0.25 s, the from-view shrinks to a tenth
// while the to-view fades in.

class Animator: NSObject, UIViewControllerAnimatedTransitioning {

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return 0.25
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        //1.
        let toVC = transitionContext.viewController(forKey: UITransitionContextViewControllerKey.to)!
        let fromVC = transitionContext.viewController(forKey: UITransitionContextViewControllerKey.from)!
        //2.
        transitionContext.containerView.addSubview(toVC.view)
        toVC.view.alpha = 0
        //3.
        UIView.animate(withDuration: self.transitionDuration(using: transitionContext), animations: {
            fromVC.view.transform = CGAffineTransform(scaleX: 0.1, y: 0.1)
            toVC.view.alpha = 1
        }, completion: { finished in
            fromVC.view.transform = CGAffineTransform.identity
            //4.
            transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        })
    }
}

// Seed 004: the navigation controller's delegate returns the animator for pushes only, and the
// interaction controller it holds (nil unless a gesture set one).
class NavigationControllerDelegate: NSObject, UINavigationControllerDelegate {

    var animator = Animator()
    var interactionController: UIPercentDrivenInteractiveTransition?

    func navigationController(_ navigationController: UINavigationController, animationControllerFor operation: UINavigationController.Operation, from fromVC: UIViewController, to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        if operation == .push {
            return self.animator
        }
        return nil
    }

    func navigationController(_ navigationController: UINavigationController, interactionControllerFor animationController: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning? {
        return self.interactionController
    }
}
