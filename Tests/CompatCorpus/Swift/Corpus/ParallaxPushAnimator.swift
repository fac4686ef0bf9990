import UIKit

/// The system's push, rebuilt so it can be tuned: the new screen slides in from the right edge
/// with a shadow while the old one moves a third of the way left under a dimming layer. Pops
/// play it backwards and can be driven by an edge swipe.
class ParallaxPushAnimator: NSObject, UIViewControllerAnimatedTransitioning {

    let operation: UINavigationController.Operation
    private let parallaxFactor: CGFloat = 0.3

    init(operation: UINavigationController.Operation) {
        self.operation = operation
        super.init()
    }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return 0.35
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        guard let fromViewController = transitionContext.viewController(forKey: .from),
              let toViewController = transitionContext.viewController(forKey: .to) else {
            return
        }
        let containerView = transitionContext.containerView
        let width = containerView.bounds.width
        let isPush = operation == .push

        let topView: UIView = isPush ? toViewController.view : fromViewController.view
        let bottomView: UIView = isPush ? fromViewController.view : toViewController.view

        let dimmingView = UIView()
        dimmingView.backgroundColor = UIColor.black.withAlphaComponent(0.2)
        dimmingView.frame = containerView.bounds
        dimmingView.alpha = isPush ? 0 : 1

        if isPush {
            containerView.addSubview(dimmingView)
            containerView.addSubview(toViewController.view)
            toViewController.view.frame = transitionContext.finalFrame(for: toViewController)
            topView.transform = CGAffineTransform(translationX: width, y: 0)
        } else {
            containerView.insertSubview(toViewController.view, belowSubview: fromViewController.view)
            containerView.insertSubview(dimmingView, belowSubview: fromViewController.view)
            bottomView.transform = CGAffineTransform(translationX: -width * parallaxFactor, y: 0)
        }

        topView.layer.shadowColor = UIColor.black.cgColor
        topView.layer.shadowOpacity = 0.3
        topView.layer.shadowRadius = 8
        topView.layer.shadowOffset = CGSize(width: -2, height: 0)

        // A finger is linear; UIKit eases the rest of the way itself when the pan is released.
        let curve: UIView.AnimationOptions = transitionContext.isInteractive ? .curveLinear : .curveEaseInOut

        UIView.animate(withDuration: transitionDuration(using: transitionContext), delay: 0, options: curve, animations: {
            if isPush {
                bottomView.transform = CGAffineTransform(translationX: -width * self.parallaxFactor, y: 0)
                topView.transform = .identity
                dimmingView.alpha = 1
            } else {
                topView.transform = CGAffineTransform(translationX: width, y: 0)
                bottomView.transform = .identity
                dimmingView.alpha = 0
            }
        }, completion: { _ in
            dimmingView.removeFromSuperview()
            topView.transform = .identity
            bottomView.transform = .identity
            topView.layer.shadowOpacity = 0
            if transitionContext.transitionWasCancelled {
                toViewController.view.removeFromSuperview()
            }
            transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        })
    }
}
