import UIKit

/// A presented controller that is its own transitioning delegate, as apps often write it: it
/// sets `transitioningDelegate = self` when it is made, so UIKit asks it, not any other
/// delegate, for its presentation and dismissal. A pull-down on its view dismisses it through a
/// hand-written interaction controller.
final class SheetController: UIViewController, UIViewControllerTransitioningDelegate {
    let pullDown = PullDownInteraction()

    required init?(coder: NSCoder) {
        super.init(coder: coder)
        transitioningDelegate = self
        modalPresentationStyle = .custom
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        pullDown.attach(to: self)
    }

    func animationController(forPresented presented: UIViewController, presenting: UIViewController,
                             source: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        SheetAnimator(presenting: true)
    }

    func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        SheetAnimator(presenting: false)
    }

    func interactionControllerForDismissal(using animator: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning? {
        pullDown.isPulling ? pullDown : nil
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

/// A hand-written UIViewControllerInteractiveTransitioning: the finger moves the sheet itself;
/// the release finishes past 30% of the screen (the rest animates down) or springs back.
final class PullDownInteraction: NSObject, UIViewControllerInteractiveTransitioning {
    private(set) var isPulling = false
    private weak var controller: UIViewController?
    private var context: UIViewControllerContextTransitioning?

    func attach(to controller: UIViewController) {
        self.controller = controller
        controller.view.addGestureRecognizer(UIPanGestureRecognizer(target: self, action: handle))
    }

    func startInteractiveTransition(_ transitionContext: UIViewControllerContextTransitioning) {
        context = transitionContext
        guard let presenting = transitionContext.viewController(forKey: .to),
              let sheet = transitionContext.view(forKey: .from) else { return }
        transitionContext.containerView.insertSubview(presenting.view, belowSubview: sheet)
    }

    func handle(_ pan: UIPanGestureRecognizer) {
        let height = UIScreen.main.bounds.height
        let progress = max(0, min(1, pan.translation(in: pan.view?.superview).y / height))
        switch pan.state {
        case .began:
            isPulling = true
            controller?.dismiss(animated: true)
        case .changed:
            controller?.view.transform = CGAffineTransform(translationX: 0, y: progress * height)
            context?.updateInteractiveTransition(progress)
        case .ended, .cancelled:
            isPulling = false
            guard let context, let view = controller?.view else { return }
            let finishing = pan.state == .ended && progress > 0.3
            finishing ? context.finishInteractiveTransition() : context.cancelInteractiveTransition()
            UIView.animate(withDuration: 0.25, animations: {
                view.transform = finishing ? CGAffineTransform(translationX: 0, y: height) : .identity
            }, completion: { _ in
                if !finishing { context.viewController(forKey: .to)?.view.removeFromSuperview() }
                context.completeTransition(finishing)
                self.context = nil
            })
        default:
            break
        }
    }
}
