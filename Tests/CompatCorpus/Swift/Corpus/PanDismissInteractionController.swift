import UIKit

/// Pull-down-to-dismiss for a presented sheet: a vertical pan anywhere on it drags the dismissal
/// along. Release below 30 % of the height, or throw it down, and it goes; otherwise it settles
/// back up.
class PanDismissInteractionController: UIPercentDrivenInteractiveTransition {

    /// Set while a pull is dismissing the sheet; the transitioning delegate checks it.
    var hasStarted = false

    private weak var sheet: UIViewController?
    private var willDismiss = false
    private let dismissFraction: CGFloat = 0.3
    private let throwSpeed: CGFloat = 1000

    /// Attaches the pull to `viewController`'s view.
    func wireToViewController(_ viewController: UIViewController) {
        sheet = viewController
        completionCurve = .easeOut
        // transhost edit: was `action: #selector(pulled(_:))` with `@objc func pulled`
        // (no Objective-C runtime on Linux: the action is the method itself).
        let pull = UIPanGestureRecognizer(target: self, action: pulled)
        viewController.view.addGestureRecognizer(pull)
    }

    func pulled(_ pan: UIPanGestureRecognizer) {
        guard let view = pan.view else { return }
        let downward = max(pan.translation(in: view).y, 0)
        let fraction = min(downward / view.bounds.height, 1)
        let speed = pan.velocity(in: view).y

        switch pan.state {
        case .began:
            hasStarted = true
            sheet?.dismiss(animated: true, completion: nil)
        case .changed:
            willDismiss = fraction > dismissFraction || speed > throwSpeed
            update(fraction)
        case .ended:
            hasStarted = false
            if willDismiss {
                // A throw finishes faster than the rest of the animation would.
                completionSpeed = max(1, speed / throwSpeed)
                finish()
            } else {
                cancel()
            }
        case .cancelled, .failed:
            hasStarted = false
            cancel()
        default:
            break
        }
    }
}
