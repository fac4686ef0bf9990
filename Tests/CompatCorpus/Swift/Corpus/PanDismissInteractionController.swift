import UIKit

/// Pull-down-to-dismiss for a presented screen: a vertical pan anywhere on the screen drives the
/// dismissal. Releasing past a third of the height, or flicking down, finishes it.
class PanDismissInteractionController: UIPercentDrivenInteractiveTransition {

    var hasStarted = false
    var shouldFinish = false

    private weak var presentedViewController: UIViewController?
    private var panGestureRecognizer: UIPanGestureRecognizer!

    func wireToViewController(_ viewController: UIViewController) {
        presentedViewController = viewController
        // transhost edit: was `action: #selector(handlePan(_:))` with `@objc func handlePan`
        // (no Objective-C runtime on Linux: the action is the method itself).
        panGestureRecognizer = UIPanGestureRecognizer(target: self, action: handlePan)
        viewController.view.addGestureRecognizer(panGestureRecognizer)
        completionCurve = .easeOut
    }

    func handlePan(_ sender: UIPanGestureRecognizer) {
        guard let view = sender.view else { return }
        let percentThreshold: CGFloat = 0.3

        let translation = sender.translation(in: view)
        let verticalMovement = translation.y / view.bounds.height
        let downwardMovement = fmaxf(Float(verticalMovement), 0.0)
        let downwardMovementPercent = fminf(downwardMovement, 1.0)
        let progress = CGFloat(downwardMovementPercent)

        switch sender.state {
        case .began:
            hasStarted = true
            presentedViewController?.dismiss(animated: true, completion: nil)
        case .changed:
            shouldFinish = progress > percentThreshold || sender.velocity(in: view).y > 1000
            update(progress)
        case .cancelled, .failed:
            hasStarted = false
            cancel()
        case .ended:
            hasStarted = false
            if shouldFinish {
                // Speed up the rest of the way after a flick.
                completionSpeed = max(1, sender.velocity(in: view).y / 1000)
                finish()
            } else {
                cancel()
            }
        default:
            break
        }
    }
}
