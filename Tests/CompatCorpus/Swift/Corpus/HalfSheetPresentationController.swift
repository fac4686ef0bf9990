import UIKit

/// Presents a screen as a sheet over the bottom half of the screen, with the presenting screen
/// dimmed behind it. The delegate vends the presentation controller with BottomSheetAnimator,
/// which slides the sheet to the frame this controller gives it.
final class HalfSheetPresentationController: UIPresentationController {

    private lazy var scrim: UIView = {
        let scrim = UIView()
        scrim.backgroundColor = UIColor(white: 0, alpha: 0.4)
        scrim.alpha = 0
        return scrim
    }()

    /// The lower half of the container.
    override var frameOfPresentedViewInContainerView: CGRect {
        guard let bounds = containerView?.bounds else { return .zero }
        return CGRect(x: 0, y: bounds.midY, width: bounds.width, height: bounds.height - bounds.midY)
    }

    /// Fades the scrim to `alpha` with the transition, or at once when there is none.
    private func fadeScrim(to alpha: CGFloat) {
        guard let coordinator = presentedViewController.transitionCoordinator else {
            scrim.alpha = alpha
            return
        }
        coordinator.animate(alongsideTransition: { _ in
            self.scrim.alpha = alpha
        })
    }

    override func presentationTransitionWillBegin() {
        guard let containerView = containerView else { return }
        scrim.frame = containerView.bounds
        containerView.insertSubview(scrim, at: 0)
        fadeScrim(to: 1)
    }

    override func dismissalTransitionWillBegin() {
        fadeScrim(to: 0)
    }

    override func dismissalTransitionDidEnd(_ completed: Bool) {
        if completed {
            scrim.removeFromSuperview()
        }
    }

    override func containerViewWillLayoutSubviews() {
        super.containerViewWillLayoutSubviews()
        presentedView?.frame = frameOfPresentedViewInContainerView
    }
}

/// Vends the half sheet: the presentation controller for the layout, BottomSheetAnimator for the
/// motion.
final class HalfSheetTransitioningDelegate: NSObject, UIViewControllerTransitioningDelegate {

    func presentationController(forPresented presented: UIViewController,
                                presenting: UIViewController?,
                                source: UIViewController) -> UIPresentationController? {
        return HalfSheetPresentationController(presentedViewController: presented, presenting: presenting)
    }

    func animationController(forPresented presented: UIViewController,
                             presenting: UIViewController,
                             source: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        return BottomSheetAnimator(type: .presentation)
    }

    func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        return BottomSheetAnimator(type: .dismissal)
    }
}
