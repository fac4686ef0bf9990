import UIKit

/// A pop that the finger drives directly, without UIPercentDrivenInteractiveTransition: while the
/// pan moves, the top screen follows it and the context is told the progress; on release it
/// springs home or away and the transition finishes or cancels. Without a pan it animates on its
/// own like a plain animator.
final class InteractivePopTransition: NSObject, UIViewControllerAnimatedTransitioning, UIViewControllerInteractiveTransitioning {

    var interactionInProgress = false

    private weak var transitionContext: UIViewControllerContextTransitioning?
    private var fromView: UIView?
    private var toView: UIView?

    // MARK: UIViewControllerAnimatedTransitioning

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return 0.3
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        guard let fromView = transitionContext.view(forKey: .from),
              let toView = transitionContext.view(forKey: .to) else { return }
        transitionContext.containerView.insertSubview(toView, belowSubview: fromView)
        let width = transitionContext.containerView.bounds.width
        UIView.animate(withDuration: transitionDuration(using: transitionContext), animations: {
            fromView.transform = CGAffineTransform(translationX: width, y: 0)
        }, completion: { _ in
            fromView.transform = .identity
            transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        })
    }

    // MARK: UIViewControllerInteractiveTransitioning

    var wantsInteractiveStart: Bool {
        return interactionInProgress
    }

    func startInteractiveTransition(_ transitionContext: UIViewControllerContextTransitioning) {
        self.transitionContext = transitionContext
        guard let fromView = transitionContext.view(forKey: .from),
              let toView = transitionContext.view(forKey: .to) else { return }
        transitionContext.containerView.insertSubview(toView, belowSubview: fromView)
        toView.alpha = 0.5
        self.fromView = fromView
        self.toView = toView
    }

    // MARK: Driving

    func updateInteraction(_ translation: CGPoint) {
        guard let context = transitionContext, let fromView = fromView else { return }
        let width = context.containerView.bounds.width
        let x = min(max(translation.x, 0), width)
        fromView.transform = CGAffineTransform(translationX: x, y: 0)
        toView?.alpha = 0.5 + 0.5 * x / width
        context.updateInteractiveTransition(x / width)
    }

    func endInteraction(finishing: Bool, velocity: CGPoint) {
        guard let context = transitionContext, let fromView = fromView else { return }
        let width = context.containerView.bounds.width
        let travelled = fromView.transform.tx
        let remaining = finishing ? width - travelled : travelled
        let springVelocity = remaining > 0 ? abs(velocity.x) / remaining : 0

        if finishing {
            context.finishInteractiveTransition()
        } else {
            context.cancelInteractiveTransition()
        }
        UIView.animate(withDuration: transitionDuration(using: context),
                       delay: 0,
                       usingSpringWithDamping: 1,
                       initialSpringVelocity: springVelocity,
                       options: [],
                       animations: {
                           fromView.transform = finishing ? CGAffineTransform(translationX: width, y: 0) : .identity
                           self.toView?.alpha = finishing ? 1 : 0.5
                       },
                       completion: { _ in
                           fromView.transform = .identity
                           self.toView?.alpha = 1
                           if !finishing {
                               self.toView?.removeFromSuperview()
                           }
                           context.completeTransition(finishing)
                           self.interactionInProgress = false
                       })
    }
}
