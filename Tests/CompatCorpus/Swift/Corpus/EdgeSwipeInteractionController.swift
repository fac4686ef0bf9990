import UIKit

/// Drives an interactive pop with a swipe from the left screen edge, as the system back gesture
/// does: the transition follows the finger, and a release past half the width (or a fast flick)
/// finishes it; anything else cancels.
final class EdgeSwipeInteractionController: UIPercentDrivenInteractiveTransition {

    var interactionInProgress = false

    private var shouldCompleteTransition = false
    private weak var viewController: UIViewController?

    init(viewController: UIViewController) {
        super.init()
        self.viewController = viewController
        prepareGestureRecognizer(in: viewController.view)
    }

    private func prepareGestureRecognizer(in view: UIView) {
        // transhost edit: was `action: #selector(handleGesture(_:))` with `@objc func handleGesture`
        // (no Objective-C runtime on Linux: the action is the method itself).
        let gesture = UIScreenEdgePanGestureRecognizer(target: self, action: handleGesture)
        gesture.edges = .left
        view.addGestureRecognizer(gesture)
    }

    func handleGesture(_ gestureRecognizer: UIScreenEdgePanGestureRecognizer) {
        guard let gestureView = gestureRecognizer.view, let superview = gestureView.superview else { return }
        let translation = gestureRecognizer.translation(in: superview)
        var progress = translation.x / superview.bounds.width
        progress = CGFloat(fminf(fmaxf(Float(progress), 0.0), 1.0))

        switch gestureRecognizer.state {
        case .began:
            interactionInProgress = true
            viewController?.navigationController?.popViewController(animated: true)
        case .changed:
            let velocity = gestureRecognizer.velocity(in: superview)
            shouldCompleteTransition = progress > 0.5 || velocity.x > 800
            update(progress)
        case .cancelled:
            interactionInProgress = false
            cancel()
        case .ended:
            interactionInProgress = false
            if shouldCompleteTransition {
                finish()
            } else {
                cancel()
            }
        default:
            break
        }
    }
}
