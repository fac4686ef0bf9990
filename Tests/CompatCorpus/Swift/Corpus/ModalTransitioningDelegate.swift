import UIKit

/// The presented screen's transitioning delegate: it rises as a sheet from the bottom edge,
/// sinks back when dismissed, and can be pulled down to dismiss it.
final class ModalTransitioningDelegate: NSObject, UIViewControllerTransitioningDelegate {

    let interactionController = PanDismissInteractionController()

    func animationController(forPresented presented: UIViewController,
                             presenting: UIViewController,
                             source: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        interactionController.wireToViewController(presented)
        return BottomSheetAnimator(type: .presentation)
    }

    func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        return BottomSheetAnimator(type: .dismissal)
    }

    func interactionControllerForDismissal(using animator: UIViewControllerAnimatedTransitioning)
        -> UIViewControllerInteractiveTransitioning? {
        return interactionController.hasStarted ? interactionController : nil
    }
}
