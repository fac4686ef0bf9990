import UIKit

/// Slides a sheet up from the bottom edge to the frame the presentation gives it, and back down
/// when it is dismissed.
final class BottomSheetAnimator: NSObject, UIViewControllerAnimatedTransitioning {

    enum TransitionType {
        case presentation
        case dismissal
    }

    let type: TransitionType
    let duration: TimeInterval

    init(type: TransitionType, duration: TimeInterval = 0.45) {
        self.type = type
        self.duration = duration
        super.init()
    }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return duration
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        let isPresentation = type == .presentation
        let key: UITransitionContextViewControllerKey = isPresentation ? .to : .from
        guard let controller = transitionContext.viewController(forKey: key) else { return }

        if isPresentation {
            transitionContext.containerView.addSubview(controller.view)
        } else if let presentingView = transitionContext.view(forKey: .to) {
            transitionContext.containerView.insertSubview(presentingView, belowSubview: controller.view)
        }

        // UIKit gives a dismissed controller a zero final frame: start from where it is.
        let presentedFrame = isPresentation ? transitionContext.finalFrame(for: controller)
                                            : transitionContext.initialFrame(for: controller)
        let dismissedFrame = presentedFrame.offsetBy(dx: 0, dy: transitionContext.containerView.frame.height)

        let initialFrame = isPresentation ? dismissedFrame : presentedFrame
        let finalFrame = isPresentation ? presentedFrame : dismissedFrame

        controller.view.frame = initialFrame
        controller.view.layer.cornerRadius = 12
        controller.view.layer.masksToBounds = true

        let animationDuration = transitionDuration(using: transitionContext)
        UIView.animate(withDuration: animationDuration, delay: 0, options: .curveEaseOut, animations: {
            controller.view.frame = finalFrame
        }, completion: { finished in
            if !isPresentation && !transitionContext.transitionWasCancelled {
                controller.view.removeFromSuperview()
            }
            transitionContext.completeTransition(finished && !transitionContext.transitionWasCancelled)
        })
    }
}
