import UIKit

/// Lets the user drag a pushed screen back off to the right from the left screen edge, like the
/// system back swipe. Let go past the middle of the screen, or flick, and the pop finishes;
/// otherwise it snaps back.
final class EdgeSwipeInteractionController: UIPercentDrivenInteractiveTransition {

    /// True while a swipe drives a pop; the navigation delegate vends this object only then.
    private(set) var isInteracting = false

    private weak var screen: UIViewController?
    private var releaseFinishes = false

    init(viewController: UIViewController) {
        screen = viewController
        super.init()
        // transhost edit: was `action: #selector(edgePanned(_:))` with `@objc func edgePanned`
        // (no Objective-C runtime on Linux: the action is the method itself).
        let edgePan = UIScreenEdgePanGestureRecognizer(target: self, action: edgePanned)
        edgePan.edges = .left
        viewController.view.addGestureRecognizer(edgePan)
    }

    func edgePanned(_ recognizer: UIScreenEdgePanGestureRecognizer) {
        guard let container = recognizer.view?.superview else { return }
        let width = container.bounds.width
        let dragged = recognizer.translation(in: container).x
        let fraction = min(max(dragged / width, 0), 1)

        switch recognizer.state {
        case .began:
            isInteracting = true
            screen?.navigationController?.popViewController(animated: true)
        case .changed:
            let flicked = recognizer.velocity(in: container).x > 800
            releaseFinishes = flicked || fraction > 0.5
            update(fraction)
        case .ended:
            isInteracting = false
            releaseFinishes ? finish() : cancel()
        case .cancelled, .failed:
            isInteracting = false
            cancel()
        default:
            break
        }
    }
}
