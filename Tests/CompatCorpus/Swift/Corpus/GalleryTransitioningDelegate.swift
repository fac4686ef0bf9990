import UIKit

/// One object that picks the animation by the kind of transition: presentations zoom out of a
/// thumbnail, dismissals zoom back into it, and navigation pushes and pops turn over like a card.
class GalleryTransitioningDelegate: NSObject, UIViewControllerTransitioningDelegate, UINavigationControllerDelegate {

    private let zoomAnimator = ZoomSnapshotAnimator()

    func animationController(forPresented presented: UIViewController,
                             presenting: UIViewController,
                             source: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        zoomAnimator.presenting = true
        return zoomAnimator
    }

    func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        zoomAnimator.presenting = false
        return zoomAnimator
    }

    func navigationController(_ navigationController: UINavigationController,
                              animationControllerFor operation: UINavigationController.Operation,
                              from fromVC: UIViewController,
                              to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        guard operation != .none else { return nil }
        let animator = CardFlipAnimator()
        animator.reverse = operation == .pop
        return animator
    }
}
