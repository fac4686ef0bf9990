import UIKit

/// Tab switches dissolve instead of cutting: UIKit's built-in cross-dissolve between the two
/// tabs' views.
final class CrossDissolveTabAnimator: NSObject, UIViewControllerAnimatedTransitioning {

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return 0.25
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        guard let fromView = transitionContext.view(forKey: .from),
              let toView = transitionContext.view(forKey: .to),
              let toViewController = transitionContext.viewController(forKey: .to) else {
            transitionContext.completeTransition(false)
            return
        }
        toView.frame = transitionContext.finalFrame(for: toViewController)
        UIView.transition(from: fromView,
                          to: toView,
                          duration: transitionDuration(using: transitionContext),
                          options: [.transitionCrossDissolve, .curveEaseInOut],
                          completion: { finished in
                              transitionContext.completeTransition(finished && !transitionContext.transitionWasCancelled)
                          })
    }
}
