// slide-in — a template animator written in Swift with TransHostAnimatorKit.
//
// Push: the to-view slides in from the right edge over the from-view, which moves a third of
// the width to the left and dims to alpha 0.5 (UIKit's default ease-in-out, 0.4 s).
// Pop (the reverse route): the from-view slides out to the right, the to-view comes back.
// Cancelled interactively, everything is put back and completeTransition(false) is called.
import TransHostAnimatorKit

/// Parameters. The initial values must equal the manifest's `configure` defaults: the host
/// calls `slide_in_configure` with the defaults (or `--param` overrides) after init.
nonisolated(unsafe) var slideDuration: TimeInterval = 0.4
nonisolated(unsafe) var dimmedAlpha: CGFloat = 0.5

@_cdecl("slide_in_configure")
public func slideInConfigure(_ duration: Double, _ dimmed: Double) {
    slideDuration = duration
    dimmedAlpha = dimmed
}

final class SlideIn: UIViewControllerAnimatedTransitioning {
    /// Must equal the animator's `id` in manifest.json.
    let identifier = "slide-in"

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { slideDuration }

    func animateTransition(using ctx: UIViewControllerContextTransitioning) {
        let fromView = ctx.viewController(forKey: .from).view
        let toView = ctx.viewController(forKey: .to).view
        let container = ctx.containerView
        let width = container.bounds.width
        let pushing = ctx.isPresenting

        if pushing {
            container.addSubview(toView)
            toView.transform = CGAffineTransform(translationX: width, y: 0)
        } else {
            container.insertSubview(toView, belowSubview: fromView)
            toView.transform = CGAffineTransform(translationX: -width / 3, y: 0)
            toView.alpha = dimmedAlpha
        }

        UIView.animate(withDuration: transitionDuration(using: ctx), animations: {
            if pushing {
                fromView.transform = CGAffineTransform(translationX: -width / 3, y: 0)
                fromView.alpha = dimmedAlpha
            } else {
                fromView.transform = CGAffineTransform(translationX: width, y: 0)
            }
            toView.transform = .identity
            toView.alpha = 1
        }, completion: { _ in
            // Leave the from-view as it was found, whether the transition completed or not.
            fromView.transform = .identity
            fromView.alpha = 1
            if ctx.transitionWasCancelled { toView.removeFromSuperview() }
            ctx.completeTransition(!ctx.transitionWasCancelled)
        })
    }
}

/// The plugin's animators, handed to the kit once at init.
@_cdecl("th_swift_plugin_make")
public func makePlugin() -> UnsafeMutableRawPointer { TransHostPlugin(SlideIn()).export() }
