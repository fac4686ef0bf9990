// slide-in — a template animator, written as for UIKit (transhost's `UIKit` module).
//
// Push: the to-view slides in from the right edge over the from-view, which moves a third of
// the width to the left and dims to alpha 0.5 (UIKit's default ease-in-out, 0.4 s).
// Pop (the reverse route): the from-view slides out to the right, the to-view comes back.
// Cancelled interactively, everything is put back and completeTransition(false) is called.
import UIKit

/// Parameters. The initial values must equal the manifest's `configure` defaults: the host
/// calls `slide_in_configure` with the defaults (or `--param` overrides) after init.
nonisolated(unsafe) var slideDuration: TimeInterval = 0.4
nonisolated(unsafe) var dimmedAlpha: CGFloat = 0.5

@_cdecl("slide_in_configure")
public func slideInConfigure(_ duration: Double, _ dimmed: Double) {
    slideDuration = duration
    dimmedAlpha = dimmed
}

final class SlideIn: NSObject, UIViewControllerAnimatedTransitioning {
    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { slideDuration }

    func animateTransition(using ctx: UIViewControllerContextTransitioning) {
        guard let fromView = ctx.view(forKey: .from), let toView = ctx.view(forKey: .to) else {
            ctx.completeTransition(false)
            return
        }
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
