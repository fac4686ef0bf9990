import UIKit

/// Lets every pushed screen be panned back to the previous one with a custom interactive pop
/// (InteractivePopTransition). Pushes keep the system animation.
class SwipeBackNavigationDelegate: NSObject, UINavigationControllerDelegate {

    private let popTransition = InteractivePopTransition()
    private weak var navigationController: UINavigationController?

    func navigationController(_ navigationController: UINavigationController,
                              didShow viewController: UIViewController,
                              animated: Bool) {
        self.navigationController = navigationController
        guard navigationController.viewControllers.count > 1 else { return }
        // transhost edit: was `action: #selector(handlePan(_:))` with `@objc func handlePan`
        // (no Objective-C runtime on Linux: the action is the method itself).
        let pan = UIPanGestureRecognizer(target: self, action: handlePan)
        viewController.view.addGestureRecognizer(pan)
    }

    func handlePan(_ recognizer: UIPanGestureRecognizer) {
        guard let view = recognizer.view else { return }
        let translation = recognizer.translation(in: view)
        switch recognizer.state {
        case .began:
            popTransition.interactionInProgress = true
            navigationController?.popViewController(animated: true)
        case .changed:
            popTransition.updateInteraction(translation)
        case .ended, .cancelled:
            let velocity = recognizer.velocity(in: view)
            let finishing = recognizer.state == .ended && (translation.x > view.bounds.width / 2 || velocity.x > 500)
            popTransition.endInteraction(finishing: finishing, velocity: velocity)
        default:
            break
        }
    }

    func navigationController(_ navigationController: UINavigationController,
                              animationControllerFor operation: UINavigationController.Operation,
                              from fromVC: UIViewController,
                              to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        return operation == .pop ? popTransition : nil
    }

    func navigationController(_ navigationController: UINavigationController,
                              interactionControllerFor animationController: UIViewControllerAnimatedTransitioning)
        -> UIViewControllerInteractiveTransitioning? {
        return popTransition.interactionInProgress ? popTransition : nil
    }
}
