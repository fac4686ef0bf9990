// rotate-spring — IACNavigationTransition of seed 000, in Swift with TransHostAnimatorKit.
//
// Push: the to-view starts upside down (rotated -pi) hanging from the top centre (anchorPoint
// (0.5, 0) at (width/2, 0)) and swings down into place on a spring (damping 0.8, initial
// velocity 6.0, 1.0 s), while the from-view flies left (center (-width, height/2)) turning pi/2.
// Pop is the seed's reverse: the from-view swings up about the top centre to upside down, and the
// to-view comes back from the left, turning from pi to 0.
//
// Differences from the seed, on purpose: the seed hard-codes 160 (half of 320 points); this
// uses the container's real width. It calls completeTransition(YES) unconditionally; this calls
// completeTransition(!transitionWasCancelled) so interactive cancels work, and on a cancel it
// puts back what it moved (the seed never had to: it was not interactive).
import UIKit

/// Parameters, set through the manifest's libffi `configure` entry point.
nonisolated(unsafe) var springDuration: TimeInterval = 1.0
nonisolated(unsafe) var springDamping: CGFloat = 0.8
nonisolated(unsafe) var springVelocity: CGFloat = 6.0

@_cdecl("rotate_spring_configure")
public func rotateSpringConfigure(_ duration: Double, _ damping: Double, _ velocity: Double) {
    springDuration = duration
    springDamping = damping
    springVelocity = velocity
}

final class RotateSpring: NSObject, UIViewControllerAnimatedTransitioning {
    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { springDuration }

    func animateTransition(using ctx: UIViewControllerContextTransitioning) {
        if ctx.isPresenting { animatePresenting(ctx) } else { animateDismissal(ctx) }
    }

    func animatePresenting(_ ctx: UIViewControllerContextTransitioning) {
        let fromViewController = ctx.viewController(forKey: .from)!
        let toViewController = ctx.viewController(forKey: .to)!
        let container = ctx.containerView
        let size = container.bounds.size

        fromViewController.view.frame = container.bounds
        toViewController.view.frame = container.bounds
        let fromCenter = fromViewController.view.center

        // The to-view upside down, hanging from the top centre.
        toViewController.view.transform = CGAffineTransform(rotationAngle: -.pi)
        toViewController.view.layer.anchorPoint = CGPoint(x: 0.5, y: 0.0)
        toViewController.view.layer.position = CGPoint(x: size.width / 2, y: 0)

        container.insertSubview(toViewController.view, belowSubview: fromViewController.view)

        UIView.animate(withDuration: springDuration, delay: 0.0, usingSpringWithDamping: springDamping,
                       initialSpringVelocity: springVelocity, options: .curveEaseIn, animations: {
            toViewController.view.layer.transform = CATransform3DIdentity
            fromViewController.view.center = CGPoint(x: -size.width, y: size.height / 2)
            fromViewController.view.transform = CGAffineTransform(rotationAngle: CGFloat.pi / 2)
        }, completion: { _ in
            if ctx.transitionWasCancelled {
                fromViewController.view.transform = .identity
                fromViewController.view.center = fromCenter
                Self.reset(toViewController.view, to: container.bounds)
            }
            ctx.completeTransition(!ctx.transitionWasCancelled)
        })
    }

    func animateDismissal(_ ctx: UIViewControllerContextTransitioning) {
        let fromViewController = ctx.viewController(forKey: .from)!
        let toViewController = ctx.viewController(forKey: .to)!
        let container = ctx.containerView
        let initialRect = ctx.initialFrame(for: fromViewController)
        let toCenter = toViewController.view.center, toTransform = toViewController.view.transform

        // The from-view pivots about its top centre.
        let rotation = CGAffineTransform(rotationAngle: .pi)
        fromViewController.view.frame = initialRect
        fromViewController.view.layer.anchorPoint = CGPoint(x: 0.5, y: 0.0)
        fromViewController.view.layer.position = CGPoint(x: initialRect.width / 2, y: 0)

        container.insertSubview(toViewController.view, belowSubview: fromViewController.view)

        // The to-view waits upside down on the left.
        toViewController.view.center = CGPoint(x: -initialRect.width, y: initialRect.height)
        toViewController.view.transform = rotation

        UIView.animate(withDuration: springDuration, delay: 0.0, usingSpringWithDamping: springDamping,
                       initialSpringVelocity: springVelocity, options: .curveEaseIn, animations: {
            fromViewController.view.transform = rotation
            toViewController.view.frame = initialRect
            toViewController.view.transform = CGAffineTransform(rotationAngle: 0)
        }, completion: { _ in
            if ctx.transitionWasCancelled {
                Self.reset(fromViewController.view, to: initialRect)
                toViewController.view.transform = toTransform
                toViewController.view.center = toCenter
            }
            ctx.completeTransition(!ctx.transitionWasCancelled)
        })
    }

    /// Back to an upright view filling `frame` with the default anchor point.
    static func reset(_ view: UIView, to frame: CGRect) {
        view.transform = .identity
        view.layer.anchorPoint = CGPoint(x: 0.5, y: 0.5)
        view.frame = frame
    }
}
