import UIKit

/// The navigation controller's delegate: pushes and pops use the parallax animator, and a screen
/// that was pushed can be swiped back from its left edge.
class NavigationTransitionDelegate: NSObject, UINavigationControllerDelegate {

    private var interactionController: EdgeSwipeInteractionController?

    func navigationController(_ navigationController: UINavigationController,
                              animationControllerFor operation: UINavigationController.Operation,
                              from fromVC: UIViewController,
                              to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        switch operation {
        case .push:
            interactionController = EdgeSwipeInteractionController(viewController: toVC)
            return ParallaxPushAnimator(operation: operation)
        case .pop:
            return ParallaxPushAnimator(operation: operation)
        default:
            return nil
        }
    }

    func navigationController(_ navigationController: UINavigationController,
                              interactionControllerFor animationController: UIViewControllerAnimatedTransitioning)
        -> UIViewControllerInteractiveTransitioning? {
        guard let interactionController = interactionController, interactionController.isInteracting else {
            return nil
        }
        return interactionController
    }
}
