// circle-reveal — the presented screen appears through a circle that grows from the button that
// presented it, and disappears through the same circle shrinking back into the button.
//
// The circle is a CAShapeLayer set as the moving view's `layer.mask`; a CABasicAnimation on its
// `path` morphs a circle of the button's size, centred on the button, into one whose radius is
// the distance from the button's centre to the farthest corner of the container (so it covers
// the screen), ease-in-ease-out. Both circles are `UIBezierPath(ovalIn:)`, so the two paths have
// the same elements and morph point by point, as Core Animation requires. The animation's
// delegate (CAAnimationDelegate) removes the mask and completes the transition when it stops.
//
// - present (0.6 s): the presented view is added above the presenting one and revealed.
// - dismiss (0.5 s): the presented view is hidden again by the shrinking circle; the presenting
//   view is put back beneath it first if the container does not hold it.
// - Interactive: the route names the "pull" interaction (a vertical pan, finished past 40 % of
//   the height); the host scrubs the path animation with the pan, and a cancelled dismissal
//   leaves the presented view as it was.
//
// The button is the presenting view's subview named `reveal button` (its accessibility
// identifier); without one the circle starts 60 points above the bottom centre.
import UIKit

nonisolated(unsafe) var presentDuration: TimeInterval = 0.6
nonisolated(unsafe) var dismissDuration: TimeInterval = 0.5
nonisolated(unsafe) var buttonName = "reveal button"

@_cdecl("circle_reveal_configure")
public func circleRevealConfigure(_ present: Double, _ dismiss: Double) {
    presentDuration = present
    dismissDuration = dismiss
}

final class CircleReveal: NSObject, UIViewControllerAnimatedTransitioning, CAAnimationDelegate {
    private var context: UIViewControllerContextTransitioning?
    private var masked: UIView?
    private var presenting = true

    func transitionDuration(using ctx: UIViewControllerContextTransitioning?) -> TimeInterval {
        (ctx?.isPresenting ?? true) ? presentDuration : dismissDuration
    }

    /// The button's centre and radius in the container's coordinates.
    func origin(in ctx: UIViewControllerContextTransitioning) -> (CGPoint, CGFloat) {
        let container = ctx.containerView
        let presentingView = ctx.viewController(forKey: ctx.isPresenting ? .from : .to)?.view
        if let button = presentingView?.viewNamed(buttonName) {
            let frame = button.convert(button.bounds, to: container)
            return (CGPoint(x: frame.midX, y: frame.midY), min(frame.width, frame.height) / 2)
        }
        return (CGPoint(x: container.bounds.midX, y: container.bounds.maxY - 60), 22)
    }

    func circle(_ centre: CGPoint, _ radius: CGFloat) -> UIBezierPath {
        UIBezierPath(ovalIn: CGRect(x: centre.x - radius, y: centre.y - radius, width: 2 * radius, height: 2 * radius))
    }

    func animateTransition(using ctx: UIViewControllerContextTransitioning) {
        context = ctx
        presenting = ctx.isPresenting
        let container = ctx.containerView
        guard let toView = ctx.view(forKey: .to), let fromView = ctx.view(forKey: .from) else {
            ctx.completeTransition(!ctx.transitionWasCancelled)
            return
        }
        let (centre, buttonRadius) = origin(in: ctx)
        let b = container.bounds
        let far = hypot(max(centre.x - b.minX, b.maxX - centre.x), max(centre.y - b.minY, b.maxY - centre.y))
        let small = circle(centre, buttonRadius), large = circle(centre, far)

        let moving: UIView
        if presenting {
            container.addSubview(toView)
            moving = toView
        } else {
            if toView.superview == nil { container.insertSubview(toView, belowSubview: fromView) }
            moving = fromView
        }
        let mask = CAShapeLayer()
        mask.path = (presenting ? large : small).cgPath
        moving.layer.mask = mask
        masked = moving

        let animation = CABasicAnimation(keyPath: "path")
        animation.fromValue = (presenting ? small : large).cgPath
        animation.toValue = (presenting ? large : small).cgPath
        animation.duration = transitionDuration(using: ctx)
        animation.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        animation.delegate = self
        mask.add(animation, forKey: "reveal")
    }

    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        guard let ctx = context else { return }
        context = nil
        masked?.layer.mask = nil
        let cancelled = ctx.transitionWasCancelled
        if presenting && cancelled { ctx.view(forKey: .to)?.removeFromSuperview() }
        if !presenting && !cancelled { ctx.view(forKey: .from)?.removeFromSuperview() }
        ctx.completeTransition(!cancelled)
    }
}
