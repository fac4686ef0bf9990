import UIKit

/// A push written the iOS 10 way: one UIViewPropertyAnimator does the work, and it is also the
/// interruptible animator UIKit asks for, so an interactive pop can scrub and reverse it.
final class PropertyAnimatorSlideAnimator: NSObject, UIViewControllerAnimatedTransitioning {

    private var animator: UIViewImplicitlyAnimating?

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return 0.4
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        interruptibleAnimator(using: transitionContext).startAnimation()
    }

    func interruptibleAnimator(using transitionContext: UIViewControllerContextTransitioning) -> UIViewImplicitlyAnimating {
        if let animator = animator {
            return animator
        }
        let containerView = transitionContext.containerView
        let fromView = transitionContext.view(forKey: .from)!
        let toView = transitionContext.view(forKey: .to)!
        let width = containerView.bounds.width

        containerView.addSubview(toView)
        toView.transform = CGAffineTransform(translationX: width, y: 0)

        let animator = UIViewPropertyAnimator(duration: transitionDuration(using: transitionContext), curve: .easeInOut) {
            fromView.transform = CGAffineTransform(translationX: -width / 3, y: 0)
            toView.transform = .identity
        }
        animator.addCompletion { position in
            fromView.transform = .identity
            toView.transform = .identity
            transitionContext.completeTransition(position == .end && !transitionContext.transitionWasCancelled)
        }
        self.animator = animator
        return animator
    }

    func animationEnded(_ transitionCompleted: Bool) {
        animator = nil
    }
}
