import UIKit

/// A sheet over the lower half of the screen. The presenter's view stays where it is, dimmed
/// by a black veil that fades in and out with the transition through the transition
/// coordinator (so it follows the finger when the dismissal is interactive, and comes back if
/// that is cancelled). Once presented, a downward pan on the sheet dismisses it interactively.
final class HalfSheetPresentationController: UIPresentationController {
    /// The veil's colour at full strength (UIKit's own sheets dim to about 40% black).
    static let dimming = UIColor(white: 0, alpha: 0.4)

    let pullDown = PullDownInteraction()

    private lazy var dimmingView: UIView = {
        let view = UIView()
        view.accessibilityIdentifier = "dimming"
        view.backgroundColor = HalfSheetPresentationController.dimming
        view.alpha = 0
        return view
    }()

    /// The lower half of the container.
    override var frameOfPresentedViewInContainerView: CGRect {
        guard let bounds = containerView?.bounds else { return .zero }
        return CGRect(x: 0, y: bounds.midY, width: bounds.width, height: bounds.height - bounds.midY)
    }

    override var shouldRemovePresentersView: Bool { false }

    override func presentationTransitionWillBegin() {
        guard let containerView else { return }
        dimmingView.frame = containerView.bounds
        containerView.addSubview(dimmingView)
        fadeDimming(to: 1)
    }

    override func presentationTransitionDidEnd(_ completed: Bool) {
        if completed {
            pullDown.attach(to: presentedViewController)
        } else {
            dimmingView.removeFromSuperview()
        }
    }

    override func dismissalTransitionWillBegin() {
        fadeDimming(to: 0)
    }

    override func dismissalTransitionDidEnd(_ completed: Bool) {
        if completed { dimmingView.removeFromSuperview() }
    }

    override func containerViewWillLayoutSubviews() {
        super.containerViewWillLayoutSubviews()
        if let containerView { dimmingView.frame = containerView.bounds }
    }

    /// With the transition when there is one, else at once.
    private func fadeDimming(to alpha: CGFloat) {
        guard let coordinator = presentedViewController.transitionCoordinator else {
            dimmingView.alpha = alpha
            return
        }
        coordinator.animate(alongsideTransition: { _ in self.dimmingView.alpha = alpha })
    }
}

/// Vends the half sheet: the presentation controller for the layout, SheetSlideAnimator for the
/// motion, and the pull-down interaction while a finger drags the sheet.
final class HalfSheetTransitioningDelegate: NSObject, UIViewControllerTransitioningDelegate {
    private weak var current: HalfSheetPresentationController?

    func presentationController(forPresented presented: UIViewController, presenting: UIViewController?,
                                source: UIViewController) -> UIPresentationController? {
        let controller = HalfSheetPresentationController(presentedViewController: presented, presenting: presenting)
        current = controller
        return controller
    }

    func animationController(forPresented presented: UIViewController, presenting: UIViewController,
                             source: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        SheetSlideAnimator(presenting: true)
    }

    func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        SheetSlideAnimator(presenting: false)
    }

    func interactionControllerForDismissal(using animator: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning? {
        guard let pullDown = current?.pullDown, pullDown.isPulling else { return nil }
        return pullDown
    }
}
