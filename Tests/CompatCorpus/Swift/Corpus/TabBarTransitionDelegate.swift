import UIKit

/// The tab bar controller's delegate: every tab switch slides, in the direction of the tab that
/// was chosen.
class TabBarTransitionDelegate: NSObject, UITabBarControllerDelegate {

    func tabBarController(_ tabBarController: UITabBarController,
                          animationControllerForTransitionFrom fromVC: UIViewController,
                          to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        guard let viewControllers = tabBarController.viewControllers,
              let fromIndex = viewControllers.firstIndex(of: fromVC),
              let toIndex = viewControllers.firstIndex(of: toVC),
              fromIndex != toIndex else {
            return nil
        }
        return TabSlideAnimator(direction: toIndex > fromIndex ? .left : .right)
    }
}
