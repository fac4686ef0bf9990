import UIKit

/// A card that springs in with Core Animation: the container gets a shared perspective, the
/// card a gradient backdrop, a rounded corner and a shadow, then a spring on its scale and a
/// keyframe fade; the transaction's completion block ends the transition.
final class LayerCardAnimator: NSObject, UIViewControllerAnimatedTransitioning {

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return 0.8
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        guard let toView = transitionContext.view(forKey: .to) else { return }
        let containerView = transitionContext.containerView
        containerView.addSubview(toView)

        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 500
        containerView.layer.sublayerTransform = perspective

        let backdrop = CAGradientLayer()
        backdrop.frame = toView.bounds
        backdrop.colors = [UIColor.white.cgColor, UIColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 1).cgColor]
        backdrop.locations = [0, 1]
        toView.layer.insertSublayer(backdrop, at: 0)

        toView.layer.cornerRadius = 12
        toView.layer.masksToBounds = true
        toView.layer.shadowColor = UIColor.black.cgColor
        toView.layer.shadowOpacity = 0.3
        toView.layer.shadowRadius = 8
        toView.layer.shadowOffset = CGSize(width: 0, height: 4)

        CATransaction.begin()
        CATransaction.setCompletionBlock {
            transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        }

        let spring = CASpringAnimation(keyPath: "transform.scale")
        spring.fromValue = 0.5
        spring.toValue = 1.0
        spring.mass = 1
        spring.stiffness = 200
        spring.damping = 12
        spring.duration = transitionDuration(using: transitionContext)
        toView.layer.add(spring, forKey: "pop")

        let fade = CAKeyframeAnimation(keyPath: "opacity")
        fade.values = [0.0, 1.0, 1.0]
        fade.keyTimes = [0, 0.25, 1]
        fade.duration = transitionDuration(using: transitionContext)
        toView.layer.add(fade, forKey: "fade")

        CATransaction.commit()
    }
}
