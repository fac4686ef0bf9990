import UIKit

/// A modal card that pops up from slightly smaller than full size on a bouncy spring, and drops
/// off the bottom of the screen when dismissed.
class SpringPresentAnimator: NSObject, UIViewControllerAnimatedTransitioning {

    private let presentDuration: TimeInterval = 0.6
    private let dismissDuration: TimeInterval = 0.3

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        guard let context = transitionContext,
              let toVC = context.viewController(forKey: .to) else {
            return presentDuration
        }
        return toVC.isBeingPresented ? presentDuration : dismissDuration
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        guard let fromVC = transitionContext.viewController(forKey: .from),
              let toVC = transitionContext.viewController(forKey: .to) else {
            return
        }

        let isPresenting = toVC.presentingViewController === fromVC
        if isPresenting {
            present(toVC, using: transitionContext)
        } else {
            dismiss(fromVC, using: transitionContext)
        }
    }

    private func present(_ presented: UIViewController, using transitionContext: UIViewControllerContextTransitioning) {
        let containerView = transitionContext.containerView
        let presentedView: UIView = presented.view
        presentedView.frame = transitionContext.finalFrame(for: presented)
        presentedView.transform = CGAffineTransform(scaleX: 0.8, y: 0.8)
        presentedView.alpha = 0
        containerView.addSubview(presentedView)

        let duration = transitionDuration(using: transitionContext)
        UIView.animate(withDuration: duration,
                       delay: 0,
                       usingSpringWithDamping: 0.6,
                       initialSpringVelocity: 0.5,
                       options: .curveEaseInOut,
                       animations: {
                           presentedView.transform = .identity
                           presentedView.alpha = 1
                       },
                       completion: { _ in
                           transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
                       })
    }

    private func dismiss(_ dismissed: UIViewController, using transitionContext: UIViewControllerContextTransitioning) {
        guard let dismissedView = dismissed.view else { return }
        let screenHeight = UIScreen.main.bounds.size.height
        if let presentingView = transitionContext.view(forKey: .to) {
            transitionContext.containerView.insertSubview(presentingView, belowSubview: dismissedView)
        }

        UIView.animate(withDuration: transitionDuration(using: transitionContext),
                       delay: 0,
                       options: .curveEaseIn,
                       animations: {
                           dismissedView.center.y += screenHeight
                       },
                       completion: { _ in
                           let cancelled = transitionContext.transitionWasCancelled
                           if cancelled {
                               dismissedView.center.y -= screenHeight
                           }
                           transitionContext.completeTransition(!cancelled)
                       })
    }
}
