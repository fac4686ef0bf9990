import UIKit

// Seed 001 (zh), transliterated line by line from Objective-C: CustomPresentAnimation and its
// AnimationType. The seed's -320 pt (iPhone 5) offset is kept.

enum AnimationType {
    case animationTypePresent
    case animationTypeDismiss
}

class CustomPresentAnimation: NSObject, UIViewControllerAnimatedTransitioning {

    var animationType: AnimationType = .animationTypePresent

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return 1.3
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {

        let toViewController = transitionContext.viewController(forKey: UITransitionContextViewControllerKey.to)!
        let fromViewController = transitionContext.viewController(forKey: UITransitionContextViewControllerKey.from)!

        let toView: UIView = toViewController.view
        let fromView: UIView = fromViewController.view

        if self.animationType == .animationTypePresent {

            // snapshots are a cheap screen capture

            // First goes below
            let snap = fromView.snapshotView(afterScreenUpdates: true)!
            transitionContext.containerView.addSubview(snap)
            // Third goes on top
            let snap2 = toView.snapshotView(afterScreenUpdates: true)!
            transitionContext.containerView.addSubview(snap2)

            snap2.transform = CGAffineTransform(translationX: -320, y: 0)

            // animate
            UIView.animate(withDuration: self.transitionDuration(using: transitionContext), delay: 0, usingSpringWithDamping: 0.5, initialSpringVelocity: 0, options: UIView.AnimationOptions.curveLinear, animations: {
                snap2.transform = CGAffineTransform.identity
            }, completion: { finished in
                // remove the snapshots
                snap.removeFromSuperview()
                snap2.removeFromSuperview()
                // add the view
                transitionContext.containerView.addSubview(toView)
                // end the transition
                transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
            })


        } else {

            // First goes below
            let snap = toView.snapshotView(afterScreenUpdates: true)!
            transitionContext.containerView.addSubview(snap)

            // Third goes on top
            let snap2 = fromView.snapshotView(afterScreenUpdates: true)!
            transitionContext.containerView.addSubview(snap2)

            // animate
            UIView.animate(withDuration: self.transitionDuration(using: transitionContext), delay: 0, usingSpringWithDamping: 0.5, initialSpringVelocity: 0, options: UIView.AnimationOptions.curveLinear, animations: {
                snap2.transform = CGAffineTransform(translationX: -320, y: 0)
            }, completion: { finished in
                // remove the snapshots
                snap.removeFromSuperview()
                snap2.removeFromSuperview()
                // add the view
                transitionContext.containerView.addSubview(toView)
                // end the transition
                transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
            })
        }
    }
}
