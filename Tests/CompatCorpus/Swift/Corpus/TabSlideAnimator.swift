import UIKit

/// Slides between tabs in the direction of the tab bar: choosing a tab to the right of the current
/// one moves the content left, and the other way round.
final class TabSlideAnimator: NSObject, UIViewControllerAnimatedTransitioning {

    enum SlideDirection {
        case left, right
    }

    private let direction: SlideDirection

    init(direction: SlideDirection) {
        self.direction = direction
    }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return 0.3
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        guard let fromView = transitionContext.view(forKey: .from),
              let toView = transitionContext.view(forKey: .to) else {
            transitionContext.completeTransition(false)
            return
        }

        let containerView = transitionContext.containerView
        containerView.addSubview(toView)

        let width = containerView.frame.width
        let offset = direction == .left ? width : -width

        toView.frame = containerView.bounds
        toView.frame.origin.x = offset

        UIView.animate(withDuration: transitionDuration(using: transitionContext), delay: 0, options: .curveEaseOut, animations: {
            fromView.frame.origin.x = -offset
            toView.frame.origin.x = 0
        }, completion: { _ in
            fromView.frame.origin.x = 0
            transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        })
    }
}
