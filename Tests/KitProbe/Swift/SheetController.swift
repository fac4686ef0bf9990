import UIKit

/// A presented controller that is its own transitioning delegate, as apps often write it: it
/// sets `transitioningDelegate = self` when it is made, so UIKit asks it, not any other
/// delegate, for its presentation and dismissal.
final class SheetController: UIViewController, UIViewControllerTransitioningDelegate {
    required init?(coder: NSCoder) {
        super.init(coder: coder)
        transitioningDelegate = self
        modalPresentationStyle = .custom
    }

    func animationController(forPresented presented: UIViewController, presenting: UIViewController,
                             source: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        SheetAnimator(presenting: true)
    }

    func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        SheetAnimator(presenting: false)
    }
}

/// Slides the sheet up from the bottom, and back down.
final class SheetAnimator: NSObject, UIViewControllerAnimatedTransitioning {
    let presenting: Bool
    init(presenting: Bool) { self.presenting = presenting }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 0.3 }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        let key: UITransitionContextViewControllerKey = presenting ? .to : .from
        guard let sheet = transitionContext.viewController(forKey: key),
              let other = transitionContext.viewController(forKey: presenting ? .from : .to) else { return }
        let container = transitionContext.containerView
        let height = container.bounds.height
        if presenting {
            sheet.view.frame = transitionContext.finalFrame(for: sheet)
            sheet.view.transform = CGAffineTransform(translationX: 0, y: height)
            container.addSubview(sheet.view)
        } else {
            container.insertSubview(other.view, belowSubview: sheet.view)
        }
        UIView.animate(withDuration: transitionDuration(using: transitionContext), delay: 0, options: .curveEaseOut, animations: {
            sheet.view.transform = self.presenting ? .identity : CGAffineTransform(translationX: 0, y: height)
        }, completion: { _ in
            transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        })
    }
}
