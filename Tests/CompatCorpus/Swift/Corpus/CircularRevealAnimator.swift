import UIKit

/// Reveals the presented screen through a circle that grows from the button that was tapped,
/// with a Core Animation path animation on a shape-layer mask.
final class CircularRevealAnimator: NSObject, UIViewControllerAnimatedTransitioning, CAAnimationDelegate {

    var originPoint = CGPoint(x: UIScreen.main.bounds.midX, y: UIScreen.main.bounds.maxY - 60)
    private weak var transitionContext: UIViewControllerContextTransitioning?

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return 0.5
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        self.transitionContext = transitionContext
        guard let toView = transitionContext.view(forKey: .to) else { return }
        let containerView = transitionContext.containerView
        containerView.addSubview(toView)

        let startCircle = UIBezierPath(ovalIn: CGRect(x: originPoint.x - 22, y: originPoint.y - 22, width: 44, height: 44))
        let radius = hypot(max(originPoint.x, containerView.bounds.width - originPoint.x),
                           max(originPoint.y, containerView.bounds.height - originPoint.y))
        let endCircle = UIBezierPath(arcCenter: originPoint, radius: radius, startAngle: 0, endAngle: .pi * 2, clockwise: true)

        let mask = CAShapeLayer()
        mask.path = endCircle.cgPath
        toView.layer.mask = mask

        let animation = CABasicAnimation(keyPath: "path")
        animation.fromValue = startCircle.cgPath
        animation.toValue = endCircle.cgPath
        animation.duration = transitionDuration(using: transitionContext)
        animation.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        animation.delegate = self
        mask.add(animation, forKey: "reveal")
    }

    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        guard let transitionContext = transitionContext else { return }
        transitionContext.view(forKey: .to)?.layer.mask = nil
        transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
    }
}
