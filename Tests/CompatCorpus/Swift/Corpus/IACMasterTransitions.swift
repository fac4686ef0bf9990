import UIKit

// Seed 000 (es), transliterated line by line from Objective-C: the delegate methods of
// IACMasterViewController. The seed's table view controller sets `animationController` when a
// row is tapped (row 0: IACModalTransition, row 1: IACNavigationTransition); whoever creates
// this object sets it the same way.

class IACMasterTransitions: NSObject, UINavigationControllerDelegate, UIViewControllerTransitioningDelegate {

    var animationController: IACAnimationControllerDelegate?

    // MARK: UIViewControllerAnimatedTransitioning

    func animationController(forPresented presented: UIViewController, presenting: UIViewController, source: UIViewController) -> UIViewControllerAnimatedTransitioning? {

        self.animationController?.isPresenting = true
        return self.animationController
    }

    func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? {

        self.animationController?.isPresenting = false
        return self.animationController
    }

    // MARK: - navigationController Delegate

    func navigationController(_ navigationController: UINavigationController, animationControllerFor operation: UINavigationController.Operation, from fromVC: UIViewController, to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning? {


        switch operation {
        case .push:
            self.animationController?.isPresenting = true
            return self.animationController
        case .pop:
            self.animationController?.isPresenting = false
            return self.animationController
        default: return nil
        }

    }
}
