import UIKit

/// Uses UIKit's built-in flip: the old screen turns over to reveal the new one. Pushes flip from
/// the right, pops from the left.
class FlipTransitionAnimator: NSObject, UIViewControllerAnimatedTransitioning {

    var operation: UINavigationController.Operation = .push

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return 0.6
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        guard let fromView = transitionContext.view(forKey: UITransitionContextViewKey.from),
              let toView = transitionContext.view(forKey: UITransitionContextViewKey.to),
              let toViewController = transitionContext.viewController(forKey: UITransitionContextViewControllerKey.to) else {
            return
        }
        toView.frame = transitionContext.finalFrame(for: toViewController)

        let options: UIView.AnimationOptions = operation == .pop ? .transitionFlipFromLeft : .transitionFlipFromRight
        // transition(from:to:) swaps the views in the from-view's superview (the container).
        UIView.transition(from: fromView,
                          to: toView,
                          duration: transitionDuration(using: transitionContext),
                          options: options) { finished in
            transitionContext.completeTransition(finished)
        }
    }
}
