import UIKit

/// Cross-fades pushes and pops, and lets the incoming screen's title fade in alongside the
/// transition through its transition coordinator, so it keeps pace with the transition (and
/// with the finger, were it interactive).
final class AlongsideTitleFadeDelegate: NSObject, UINavigationControllerDelegate {

    func navigationController(_ navigationController: UINavigationController,
                              willShow viewController: UIViewController,
                              animated: Bool) {
        guard animated,
              let titleView = viewController.view.subviews.first(where: { $0.accessibilityIdentifier == "title" }),
              let coordinator = navigationController.transitionCoordinator else {
            return
        }
        titleView.alpha = 0
        coordinator.animate(alongsideTransition: { _ in
            titleView.alpha = 1
        }, completion: { context in
            if context.isCancelled {
                titleView.alpha = 1
            }
        })
    }

    func navigationController(_ navigationController: UINavigationController,
                              animationControllerFor operation: UINavigationController.Operation,
                              from fromVC: UIViewController,
                              to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        return CrossfadeAnimator()
    }
}
