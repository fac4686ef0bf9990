import UIKit

/// wantsInteractiveStart false: the presentation starts on its own (a linear 0.6 s property
/// animator, its interruptible animator), and a pan on the presented view pauses it with
/// UIPercentDrivenInteractiveTransition's pause(), drags it by update(_:) and finishes it.
final class PullInteraction: UIPercentDrivenInteractiveTransition {
    override init() {
        super.init()
        wantsInteractiveStart = false
    }
}

final class PullAnimator: NSObject, UIViewControllerAnimatedTransitioning {
    nonisolated(unsafe) static let interaction = PullInteraction()
    nonisolated(unsafe) static var pan: UIPanGestureRecognizer?
    nonisolated(unsafe) static var grabbedAt: CGFloat = 0
    private var animator: UIViewPropertyAnimator?

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 0.6 }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        interruptibleAnimator(using: transitionContext).startAnimation()
    }

    func interruptibleAnimator(using transitionContext: UIViewControllerContextTransitioning) -> UIViewImplicitlyAnimating {
        if let animator { return animator }
        let toView = transitionContext.view(forKey: .to)!
        let height = transitionContext.containerView.bounds.height
        transitionContext.containerView.addSubview(toView)
        toView.transform = CGAffineTransform(translationX: 0, y: height)
        let animator = UIViewPropertyAnimator(duration: 0.6, curve: .linear) { toView.transform = .identity }
        animator.addCompletion { position in
            toView.transform = .identity
            transitionContext.completeTransition(position == .end && !transitionContext.transitionWasCancelled)
        }
        // A 10 x 10 badge fades to half on a runningPropertyAnimator (0.2 s after 0.1 s, linear).
        let badge = UIView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        badge.backgroundColor = .red
        transitionContext.containerView.addSubview(badge)
        UIViewPropertyAnimator.runningPropertyAnimator(withDuration: 0.2, delay: 0.1, options: .curveLinear,
                                                       animations: { badge.alpha = 0.5 },
                                                       completion: { position in
            TransHostLog("running animator ended at \(position == .end ? "end" : "elsewhere")")
            badge.removeFromSuperview()
        })
        if Self.pan == nil {
            let pan = UIPanGestureRecognizer()
            pan.addTarget { [unowned pan] _ in PullAnimator.handle(pan, height: height) }
            toView.addGestureRecognizer(pan)
            Self.pan = pan
        }
        self.animator = animator
        return animator
    }

    static func handle(_ pan: UIPanGestureRecognizer, height: CGFloat) {
        switch pan.state {
        case .began:
            interaction.pause()
            grabbedAt = interaction.percentComplete
            TransHostLog("paused at \(grabbedAt)")
        case .changed:
            interaction.update(grabbedAt - pan.translation(in: nil).y / height)
        case .ended:
            interaction.update(grabbedAt - pan.translation(in: nil).y / height)
            interaction.finish()
        default:
            break
        }
    }
}
