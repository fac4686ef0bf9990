import UIKit

/// Pushes the new screen in from the trailing edge and pushes the old one out the other side,
/// like a carousel. Pops run the other way.
class SlideAnimator: NSObject, UIViewControllerAnimatedTransitioning {

    enum Direction {
        case left
        case right
    }

    var direction: Direction = .left
    var duration: TimeInterval = 0.4

    override init() {
        super.init()
    }

    convenience init(direction: Direction) {
        self.init()
        self.direction = direction
    }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return duration
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        guard let fromView = transitionContext.view(forKey: .from),
              let toView = transitionContext.view(forKey: .to) else {
            return
        }

        let screenWidth = UIScreen.main.bounds.width
        let offset = direction == .left ? screenWidth : -screenWidth

        let containerView = transitionContext.containerView
        containerView.addSubview(toView)

        let finalFromFrame = fromView.frame.offsetBy(dx: -offset, dy: 0)
        let finalToFrame = fromView.frame
        toView.frame = fromView.frame.offsetBy(dx: offset, dy: 0)

        UIView.animate(withDuration: transitionDuration(using: transitionContext),
                       delay: 0,
                       options: [.curveEaseInOut],
                       animations: {
                           fromView.frame = finalFromFrame
                           toView.frame = finalToFrame
                       },
                       completion: { _ in
                           fromView.frame = finalToFrame
                           let success = !transitionContext.transitionWasCancelled
                           if !success {
                               toView.removeFromSuperview()
                           }
                           transitionContext.completeTransition(success)
                       })
    }
}
