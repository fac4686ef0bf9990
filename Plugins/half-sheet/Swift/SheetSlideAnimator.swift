import UIKit

/// Slides the sheet up from below the screen to its frame (0.4 s, ease-out), and back down
/// (0.3 s, ease-in; linear while a finger drives it, so the sheet stays under the finger).
/// Only the sheet moves: the presenter's view stays in the container behind the dimming view.
final class SheetSlideAnimator: NSObject, UIViewControllerAnimatedTransitioning {
    let presenting: Bool
    init(presenting: Bool) { self.presenting = presenting }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        presenting ? 0.4 : 0.3
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        guard let sheet = transitionContext.viewController(forKey: presenting ? .to : .from) else {
            transitionContext.completeTransition(false)
            return
        }
        let container = transitionContext.containerView
        // Where the sheet sits on screen: its final frame when it comes, its initial one when it goes.
        let onScreen = presenting ? transitionContext.finalFrame(for: sheet) : transitionContext.initialFrame(for: sheet)
        let offscreen = CGAffineTransform(translationX: 0, y: container.bounds.height - onScreen.minY)
        let options: UIView.AnimationOptions
        if presenting {
            sheet.view.frame = transitionContext.finalFrame(for: sheet)
            sheet.view.transform = offscreen
            container.addSubview(sheet.view)
            options = .curveEaseOut
        } else {
            options = transitionContext.isInteractive ? .curveLinear : .curveEaseIn
        }
        UIView.animate(withDuration: transitionDuration(using: transitionContext), delay: 0, options: options, animations: {
            sheet.view.transform = self.presenting ? .identity : offscreen
        }, completion: { _ in
            // Whatever the outcome the sheet keeps no transform of its own: on screen it sits at
            // its frame, and off screen it is ready to be shown again.
            sheet.view.transform = .identity
            transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        })
    }
}

/// The pull-down: a pan on the presented sheet starts its dismissal and drives it by the
/// distance dragged over the sheet's height; the release finishes past half the height or on a
/// downward flick (at least 800 pt/s), and otherwise cancels and the sheet settles back.
final class PullDownInteraction: UIPercentDrivenInteractiveTransition {
    static let flick: CGFloat = 800
    private(set) var isPulling = false
    private weak var controller: UIViewController?

    func attach(to controller: UIViewController) {
        guard self.controller == nil else { return }
        self.controller = controller
        controller.view.addGestureRecognizer(UIPanGestureRecognizer(target: self) { [weak self] in
            self?.handle($0)
        })
    }

    func handle(_ pan: UIPanGestureRecognizer) {
        guard let view = controller?.view else { return }
        let height = max(view.bounds.height, 1)
        let progress = max(0, min(1, pan.translation(in: view.superview).y / height))
        switch pan.state {
        case .began:
            isPulling = true
            controller?.dismiss(animated: true)
        case .changed:
            update(progress)
        case .ended, .cancelled:
            isPulling = false
            let velocity = pan.velocity(in: view.superview).y
            if pan.state == .ended && (progress > 0.5 || velocity >= Self.flick) { finish() } else { cancel() }
        default:
            break
        }
    }
}
