import UIKit

/// Cross-dissolves from one screen to the next, in any container: the incoming screen fades in
/// over the outgoing one, which stays put until the transition completes. Unanimated
/// transitions just swap.
final class CrossfadeAnimator: NSObject, UIViewControllerAnimatedTransitioning {

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return 0.35
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        guard let destination = transitionContext.viewController(forKey: .to),
              let incoming = transitionContext.view(forKey: .to) else {
            transitionContext.completeTransition(false)
            return
        }
        incoming.frame = transitionContext.finalFrame(for: destination)
        incoming.alpha = 0
        transitionContext.containerView.addSubview(incoming)

        guard transitionContext.isAnimated else {
            incoming.alpha = 1
            transitionContext.completeTransition(true)
            return
        }
        let done: (Bool) -> Void = transitionContext.completeTransition
        UIView.animate(withDuration: transitionDuration(using: transitionContext), animations: {
            incoming.alpha = 1
        }) { _ in
            done(!transitionContext.transitionWasCancelled)
        }
    }
}
