import UIKit

/// Presents a screen that bounces out of nothing: it grows past full size, undershoots a
/// little and settles, while the screen behind it dims. Dismissal runs the bounce backwards.
final class KeyframeBounceAnimator: NSObject, UIViewControllerAnimatedTransitioning {

    let isPresenting: Bool

    init(isPresenting: Bool = true) {
        self.isPresenting = isPresenting
        super.init()
    }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return isPresenting ? 0.7 : 0.4
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        let key: UITransitionContextViewControllerKey = isPresenting ? .to : .from
        guard let controller = transitionContext.viewController(forKey: key) else { return }
        let animatedView: UIView = controller.view
        let containerView = transitionContext.containerView
        let duration = self.transitionDuration(using: transitionContext)

        if isPresenting {
            animatedView.frame = transitionContext.finalFrame(for: controller)
            animatedView.transform = CGAffineTransform(scaleX: 0.01, y: 0.01)
            containerView.addSubview(animatedView)
            let behind = transitionContext.view(forKey: .from)

            UIView.animateKeyframes(withDuration: duration, delay: 0, options: [.calculationModeLinear], animations: {
                UIView.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.5) {
                    animatedView.transform = CGAffineTransform(scaleX: 1.15, y: 1.15)
                    behind?.alpha = 0.6
                }
                UIView.addKeyframe(withRelativeStartTime: 0.5, relativeDuration: 0.25) {
                    animatedView.transform = CGAffineTransform(scaleX: 0.95, y: 0.95)
                }
                UIView.addKeyframe(withRelativeStartTime: 0.75, relativeDuration: 0.25) {
                    animatedView.transform = .identity
                }
            }, completion: { finished in
                behind?.alpha = 1
                transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
            })
        } else {
            if let behind = transitionContext.view(forKey: .to) {
                containerView.insertSubview(behind, belowSubview: animatedView)
            }
            UIView.animateKeyframes(withDuration: duration, delay: 0, options: [], animations: {
                UIView.addKeyframe(withRelativeStartTime: 0, relativeDuration: 0.3) {
                    animatedView.transform = CGAffineTransform(scaleX: 1.1, y: 1.1)
                }
                UIView.addKeyframe(withRelativeStartTime: 0.3, relativeDuration: 0.7) {
                    animatedView.transform = CGAffineTransform(scaleX: 0.01, y: 0.01)
                    animatedView.alpha = 0
                }
            }, completion: { _ in
                let cancelled = transitionContext.transitionWasCancelled
                if cancelled {
                    animatedView.transform = .identity
                    animatedView.alpha = 1
                }
                transitionContext.completeTransition(!cancelled)
            })
        }
    }
}
