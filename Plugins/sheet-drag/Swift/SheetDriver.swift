// The interaction: a pan on the card grabs the running transition (pauseInteractiveTransition),
// scrubs its property animator by the finger's vertical travel, and on release continues it on
// a spring toward where the card was thrown.
import UIKit

final class SheetDriver {
    nonisolated(unsafe) static let shared = SheetDriver()

    /// How far ahead a release looks (seconds of its velocity) to decide where the card goes.
    static let projection: CGFloat = 0.25

    private weak var animator: UIViewPropertyAnimator?
    private weak var context: TransHostTransitionContext?
    private var presenting = true
    private var travel: CGFloat = 1
    private var startFraction: CGFloat = 0
    private var cards: [ObjectIdentifier] = []

    func drive(_ animator: UIViewPropertyAnimator, context: UIViewControllerContextTransitioning, card: UIView,
               presenting: Bool, travel: CGFloat) {
        self.animator = animator
        self.context = context as? TransHostTransitionContext
        self.presenting = presenting
        self.travel = max(travel, 1)
        // One recognizer per card view, kept across its presentations.
        let id = ObjectIdentifier(card)
        guard !cards.contains(id) else { return }
        cards.append(id)
        let pan = UIPanGestureRecognizer()
        pan.addTarget { [unowned self, unowned pan] _ in self.handle(pan) }
        card.addGestureRecognizer(pan)
    }

    func release() {
        animator = nil
        context = nil
    }

    /// Progress per point the finger moves down: a presentation goes back, a dismissal on.
    private var sign: CGFloat { presenting ? -1 : 1 }

    private func handle(_ pan: UIPanGestureRecognizer) {
        guard let animator, let context, animator.state == .active else { return }
        switch pan.state {
        case .began:
            context.pauseInteractiveTransition()
            animator.pauseAnimation()
            startFraction = animator.fractionComplete
        case .changed:
            follow(pan, animator, context)
        case .ended, .cancelled:
            let f = follow(pan, animator, context)
            let speed = sign * pan.velocity(in: nil).y / travel   // progress per second
            let finishing = f + speed * Self.projection > 0.5
            if finishing { context.finishInteractiveTransition() } else { context.cancelInteractiveTransition() }
            animator.isReversed = !finishing
            // UIKit's convention: the velocity toward the target over the distance left to it.
            let remaining = finishing ? 1 - f : f
            let toward = finishing ? speed : -speed
            let v = remaining > 0.001 ? toward / remaining : 0
            let spring = UISpringTimingParameters(dampingRatio: 0.9, initialVelocity: CGVector(dx: 0, dy: v))
            animator.continueAnimation(withTimingParameters: spring, durationFactor: 0.7)
        default:
            break
        }
    }

    /// The card follows the finger: progress moves by the vertical travel over the screen height.
    @discardableResult
    private func follow(_ pan: UIPanGestureRecognizer, _ animator: UIViewPropertyAnimator, _ context: TransHostTransitionContext) -> CGFloat {
        let f = min(max(startFraction + sign * pan.translation(in: nil).y / travel, 0), 1)
        animator.fractionComplete = f
        context.updateInteractiveTransition(f)
        return f
    }
}
