import UIKit

/// A tab bar delegate that cross-dissolves to tabs on the right and curls up to tabs on the
/// left, both with UIView.transition(with:) on the container.
final class TabDelegate: NSObject, UITabBarControllerDelegate {
    func tabBarController(_ tabBarController: UITabBarController, animationControllerForTransitionFrom fromVC: UIViewController,
                          to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        let tabs = tabBarController.viewControllers ?? []
        guard let from = tabs.firstIndex(of: fromVC), let to = tabs.firstIndex(of: toVC) else { return nil }
        return ContainerTransitionAnimator(options: to > from ? .transitionCrossDissolve : .transitionCurlUp)
    }
}

final class ContainerTransitionAnimator: NSObject, UIViewControllerAnimatedTransitioning {
    let options: UIView.AnimationOptions
    init(options: UIView.AnimationOptions) { self.options = options }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 0.4 }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        let container = transitionContext.containerView
        guard let fromView = transitionContext.view(forKey: .from), let toView = transitionContext.view(forKey: .to) else { return }
        UIView.transition(with: container, duration: transitionDuration(using: transitionContext), options: options, animations: {
            fromView.removeFromSuperview()
            container.addSubview(toView)
        }, completion: { finished in
            transitionContext.completeTransition(finished && !transitionContext.transitionWasCancelled)
        })
    }
}
