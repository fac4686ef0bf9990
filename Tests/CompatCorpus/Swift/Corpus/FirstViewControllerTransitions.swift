import UIKit

// Seed 001 (zh), transliterated line by line from Objective-C: FirstViewController's delegate
// methods (UINavigationControllerDelegate and UIViewControllerTransitioningDelegate) and the
// animators it creates in viewDidLoad. The pan handler that starts the interactive present
// belongs to the view controller and is not part of this object; it sets
// `interactionController` while the pan runs.

class FirstViewControllerTransitions: NSObject, UINavigationControllerDelegate, UIViewControllerTransitioningDelegate {

    var customPush: CustomPushAnimation
    var customPop: CustomPopAnimation
    var customPresent: CustomPresentAnimation
    // interactive transitions go through UIViewControllerInteractiveTransitioning
    var interactionController: UIPercentDrivenInteractiveTransition?

    override init() {
        // init CustomPush
        customPush = CustomPushAnimation()
        customPop = CustomPopAnimation()
        customPresent = CustomPresentAnimation()
        super.init()
    }

    // MARK: - UINavigationControllerDelegate (iOS 7 custom non-interactive navigation transitions)
    // the animation
    func navigationController(_ navigationController: UINavigationController, animationControllerFor operation: UINavigationController.Operation, from fromVC: UIViewController, to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        /**
         *  typedef NS_ENUM(NSInteger, UINavigationControllerOperation) {
         *     UINavigationControllerOperationNone,
         *     UINavigationControllerOperationPush,
         *     UINavigationControllerOperationPop,
         *  };
         */
        if operation == .push {
            return customPush
        } else if operation == .pop {
            return customPop
        } else {
            return nil
        }
    }

    // MARK: - UIViewControllerTransitioningDelegate

    func animationController(forPresented presented: UIViewController, presenting: UIViewController, source: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        customPresent.animationType = .animationTypePresent
        return customPresent
    }

    func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        customPresent.animationType = .animationTypeDismiss
        return customPresent
    }

    func interactionControllerForPresentation(using animator: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning? {
        return interactionController
    }

    func interactionControllerForDismissal(using animator: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning? {
        return nil
    }
}
