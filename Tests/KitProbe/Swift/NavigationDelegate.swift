import UIKit

/// A navigation delegate as apps write them: it vends a flip for pushes and a slide for pops,
/// and wires an edge-pan interaction controller to every pushed controller so the user can
/// swipe back.
final class NavigationDelegate: NSObject, UINavigationControllerDelegate {
    let swipeBack = SwipeBackInteraction()

    func navigationController(_ navigationController: UINavigationController, animationControllerFor operation: UINavigationController.Operation,
                              from fromVC: UIViewController, to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        TransHostLog("animator for \(operation == .push ? "push" : "pop") \(fromVC.typeName) -> \(toVC.typeName)")
        switch operation {
        case .push:
            swipeBack.wire(to: toVC)
            return FlipPushAnimator()
        case .pop:
            return SlideBackAnimator()
        default:
            return nil
        }
    }

    func navigationController(_ navigationController: UINavigationController, willShow viewController: UIViewController, animated: Bool) {
        TransHostLog("willShow \(viewController.typeName) animated \(animated) coordinator \(navigationController.transitionCoordinator != nil)")
    }

    func navigationController(_ navigationController: UINavigationController, didShow viewController: UIViewController, animated: Bool) {
        TransHostLog("didShow \(viewController.typeName) stack \(navigationController.viewControllers.count)")
    }

    func navigationController(_ navigationController: UINavigationController,
                              interactionControllerFor animationController: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning? {
        swipeBack.interactionInProgress ? swipeBack : nil
    }
}

/// Pushes with UIView.transition(from:to:): the to-view replaces the from-view with a flip.
final class FlipPushAnimator: NSObject, UIViewControllerAnimatedTransitioning {
    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 0.5 }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        guard let fromView = transitionContext.view(forKey: .from),
              let toView = transitionContext.view(forKey: .to) else { return }
        toView.frame = transitionContext.containerView.bounds
        UIView.transition(from: fromView, to: toView, duration: transitionDuration(using: transitionContext),
                          options: [.transitionFlipFromLeft]) { _ in
            transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        }
    }
}

/// Pops by sliding the from-view off to the right over the to-view.
final class SlideBackAnimator: NSObject, UIViewControllerAnimatedTransitioning {
    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 0.4 }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        guard let fromVC = transitionContext.viewController(forKey: .from),
              let toVC = transitionContext.viewController(forKey: .to) else { return }
        let container = transitionContext.containerView
        container.insertSubview(toVC.view, belowSubview: fromVC.view)
        toVC.view.frame = transitionContext.finalFrame(for: toVC)
        let width = UIScreen.main.bounds.width
        UIView.animate(withDuration: transitionDuration(using: transitionContext), delay: 0, options: .curveLinear, animations: {
            fromVC.view.transform = CGAffineTransform(translationX: width, y: 0)
        }, completion: { _ in
            fromVC.view.transform = .identity
            transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        })
    }
}

/// The classic swipe-back controller: a left-edge pan on the pushed controller's view starts
/// the pop, drives it by the horizontal translation, and finishes past half the width (or
/// when flung right), else cancels.
final class SwipeBackInteraction: UIPercentDrivenInteractiveTransition {
    var interactionInProgress = false
    private weak var viewController: UIViewController!

    func wire(to viewController: UIViewController) {
        self.viewController = viewController
        let gesture = UIScreenEdgePanGestureRecognizer { [weak self] in self?.handle($0 as! UIScreenEdgePanGestureRecognizer) }
        gesture.edges = .left
        viewController.view.addGestureRecognizer(gesture)
    }

    func handle(_ gesture: UIScreenEdgePanGestureRecognizer) {
        let translation = gesture.translation(in: gesture.view!.superview!)
        var progress = translation.x / UIScreen.main.bounds.width
        progress = CGFloat(fminf(fmaxf(Float(progress), 0.0), 1.0))
        switch gesture.state {
        case .began:
            interactionInProgress = true
            viewController.navigationController?.popViewController(animated: true)
        case .changed:
            update(progress)
        case .cancelled:
            interactionInProgress = false
            cancel()
        case .ended:
            interactionInProgress = false
            if progress > 0.5 || gesture.velocity(in: gesture.view).x > 1000 { finish() } else { cancel() }
        default:
            break
        }
    }
}
