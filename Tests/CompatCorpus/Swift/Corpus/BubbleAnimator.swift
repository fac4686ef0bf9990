import UIKit

/// Material-style reveal from a floating action button in the bottom-right corner: a disc in the
/// presented screen's background colour grows from the button until it covers the screen, and
/// the presented screen grows and fades in with it. Dismissal shrinks both back into the button.
final class BubbleAnimator: NSObject, UIViewControllerAnimatedTransitioning {

    enum Mode {
        case present
        case dismiss
    }

    var mode: Mode = .present
    var duration: TimeInterval = 0.5
    var fallbackColor: UIColor = .white

    /// The button's centre, in the container's coordinates.
    var buttonCenter: CGPoint = {
        let screen = UIScreen.main.bounds
        return CGPoint(x: screen.maxX - 44, y: screen.maxY - 44)
    }()

    private let collapsed = CGAffineTransform(scaleX: 0.001, y: 0.001)

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return duration
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        switch mode {
        case .present: present(using: transitionContext)
        case .dismiss: dismiss(using: transitionContext)
        }
    }

    /// A disc centred on the button, just big enough to cover `bounds` from there.
    private func makeDisc(covering bounds: CGRect, color: UIColor?) -> UIView {
        let farthestX = max(buttonCenter.x - bounds.minX, bounds.maxX - buttonCenter.x)
        let farthestY = max(buttonCenter.y - bounds.minY, bounds.maxY - buttonCenter.y)
        let radius = hypot(farthestX, farthestY)
        let disc = UIView(frame: CGRect(x: 0, y: 0, width: radius * 2, height: radius * 2))
        disc.layer.cornerRadius = radius
        disc.center = buttonCenter
        disc.backgroundColor = color ?? fallbackColor
        return disc
    }

    private func present(using transitionContext: UIViewControllerContextTransitioning) {
        let containerView = transitionContext.containerView
        guard let presentedView = transitionContext.view(forKey: .to) else { return }
        let restingCenter = presentedView.center

        let disc = makeDisc(covering: presentedView.frame, color: presentedView.backgroundColor)
        disc.transform = collapsed
        containerView.addSubview(disc)

        presentedView.center = buttonCenter
        presentedView.transform = collapsed
        presentedView.alpha = 0
        containerView.addSubview(presentedView)

        UIView.animate(withDuration: duration, animations: {
            disc.transform = .identity
            presentedView.transform = .identity
            presentedView.center = restingCenter
            presentedView.alpha = 1
        }, completion: { _ in
            disc.removeFromSuperview()
            transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        })
    }

    private func dismiss(using transitionContext: UIViewControllerContextTransitioning) {
        let containerView = transitionContext.containerView
        guard let dismissedView = transitionContext.view(forKey: .from) else { return }
        let restingCenter = dismissedView.center
        // A full-screen presentation took the presenting view away; put it back underneath.
        if let presentingView = transitionContext.view(forKey: .to) {
            containerView.insertSubview(presentingView, belowSubview: dismissedView)
        }

        let disc = makeDisc(covering: dismissedView.frame, color: dismissedView.backgroundColor)
        containerView.insertSubview(disc, belowSubview: dismissedView)

        UIView.animate(withDuration: duration, animations: {
            disc.transform = self.collapsed
            dismissedView.transform = self.collapsed
            dismissedView.center = self.buttonCenter
            dismissedView.alpha = 0
        }, completion: { _ in
            disc.removeFromSuperview()
            dismissedView.transform = .identity
            dismissedView.center = restingCenter
            if !transitionContext.transitionWasCancelled {
                dismissedView.removeFromSuperview()
            }
            transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        })
    }
}
