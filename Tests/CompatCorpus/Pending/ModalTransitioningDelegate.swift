import UIKit

/// The presented screen's transitioning delegate: it springs in, drops out, and can be pulled
/// down to dismiss it.
final class ModalTransitioningDelegate: NSObject, UIViewControllerTransitioningDelegate {

    let interactionController = PanDismissInteractionController()

    func animationController(forPresented presented: UIViewController,
                             presenting: UIViewController,
                             source: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        interactionController.wireToViewController(presented)
        return SpringPresentAnimator()
    }

    func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        return SpringPresentAnimator()
    }

    func interactionControllerForDismissal(using animator: UIViewControllerAnimatedTransitioning)
        -> UIViewControllerInteractiveTransitioning? {
        return interactionController.hasStarted ? interactionController : nil
    }
}
