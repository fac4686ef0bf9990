// sheet-drag — a card presented the iOS 10 way: one UIViewPropertyAnimator plays the
// transition, it is the interruptible animator UIKit asks for, and a pan on the card grabs it
// mid-flight (SheetDriver.swift).
//
// - present: the card (the presented view) rises from below the screen while the presenting
//   screen recedes (scale 0.92, alpha 0.6), on a spring (damping ratio 0.86, 0.5 s);
// - dismiss: the reverse; the card drops below the screen while the screen behind comes back.
// Grabbed, the card follows the finger; released, it is thrown on toward the end or back to the
// start on a spring that starts at the finger's speed. A transition that went back completes
// with completeTransition(false): a presentation thrown back down is cancelled, a dismissal
// flicked back up leaves the card presented.
import UIKit

final class SheetAnimator: NSObject, UIViewControllerAnimatedTransitioning {
    static let duration: TimeInterval = 0.5
    static let recede = CGAffineTransform(scaleX: 0.92, y: 0.92)
    static let recededAlpha: CGFloat = 0.6

    private var animator: UIViewPropertyAnimator?

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        Self.duration
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        interruptibleAnimator(using: transitionContext).startAnimation()
    }

    func interruptibleAnimator(using transitionContext: UIViewControllerContextTransitioning) -> UIViewImplicitlyAnimating {
        if let animator { return animator }
        let ctx = transitionContext
        let container = ctx.containerView
        let presenting = ctx.isPresenting
        let card = presenting ? ctx.view(forKey: .to)! : ctx.view(forKey: .from)!
        let behind = presenting ? ctx.view(forKey: .from)! : ctx.view(forKey: .to)!
        let height = container.bounds.height
        let below = CGAffineTransform(translationX: 0, y: height)
        if presenting {
            container.addSubview(card)
            card.transform = below
        } else {
            container.insertSubview(behind, belowSubview: card)
            behind.transform = Self.recede
            behind.alpha = Self.recededAlpha
        }
        let timing = UISpringTimingParameters(dampingRatio: 0.86, initialVelocity: CGVector(dx: 0, dy: 0))
        let animator = UIViewPropertyAnimator(duration: Self.duration, timingParameters: timing)
        animator.addAnimations {
            card.transform = presenting ? .identity : below
            behind.transform = presenting ? Self.recede : .identity
            behind.alpha = presenting ? Self.recededAlpha : 1
        }
        animator.addCompletion { position in
            let completed = position == .end && !ctx.transitionWasCancelled
            // Whatever happened, the views leave the transition as they were before it.
            behind.transform = .identity
            behind.alpha = 1
            card.transform = .identity
            SheetDriver.shared.release()
            ctx.completeTransition(completed)
        }
        SheetDriver.shared.drive(animator, context: ctx, card: card, presenting: presenting, travel: height)
        self.animator = animator
        return animator
    }

    func animationEnded(_ transitionCompleted: Bool) {
        animator = nil
    }
}
