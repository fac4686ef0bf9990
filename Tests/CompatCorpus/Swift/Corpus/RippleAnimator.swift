import UIKit

/// A ripple: a white ring on the container's layer grows and fades (a CAAnimationGroup that
/// holds its end), while the presented view fades in; the group's delegate removes the ring and
/// completes the transition.
final class RippleAnimator: NSObject, UIViewControllerAnimatedTransitioning, CAAnimationDelegate {
    private weak var context: UIViewControllerContextTransitioning?
    private var ring: CAShapeLayer?

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return 0.6
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        guard let toView = transitionContext.view(forKey: .to) else { return }
        let containerView = transitionContext.containerView
        containerView.addSubview(toView)
        toView.alpha = 0

        let ring = CAShapeLayer()
        ring.path = UIBezierPath(ovalIn: CGRect(x: -30, y: -30, width: 60, height: 60)).cgPath
        ring.position = CGPoint(x: containerView.bounds.midX, y: containerView.bounds.midY)
        ring.fillColor = UIColor.clear.cgColor
        ring.strokeColor = UIColor.white.cgColor
        ring.lineWidth = 4
        containerView.layer.addSublayer(ring)

        let grow = CABasicAnimation(keyPath: "transform.scale")
        grow.fromValue = 1
        grow.toValue = 8
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1
        fade.toValue = 0
        let group = CAAnimationGroup()
        group.animations = [grow, fade]
        group.duration = transitionDuration(using: transitionContext)
        group.timingFunction = CAMediaTimingFunction(name: .easeOut)
        group.fillMode = .forwards
        group.isRemovedOnCompletion = false
        group.delegate = self
        ring.add(group, forKey: "ripple")

        self.ring = ring
        context = transitionContext
        UIView.animate(withDuration: transitionDuration(using: transitionContext)) {
            toView.alpha = 1
        }
    }

    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        ring?.removeFromSuperlayer()
        ring = nil
        guard let context = context else { return }
        context.completeTransition(!context.transitionWasCancelled)
    }
}
