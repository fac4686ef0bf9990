import UIKit

/// A bubble grows out of a point (a floating action button in the bottom-right corner) until it
/// covers the screen, in the presented screen's background colour; the presented screen fades in
/// with it. Dismissal collapses the bubble back into the button.
open class BubbleAnimator: NSObject, UIViewControllerAnimatedTransitioning {

    public enum Mode: Int {
        case present, dismiss
    }

    /// Where the bubble starts (and ends when dismissing), in the container's coordinates.
    open var startingPoint: CGPoint = {
        let bounds = UIScreen.main.bounds
        return CGPoint(x: bounds.maxX - 44, y: bounds.maxY - 44)
    }()

    open var duration = 0.5
    open var mode: Mode = .present
    open var bubbleColor: UIColor = .white

    open fileprivate(set) var bubble = UIView()

    open func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return duration
    }

    open func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        let containerView = transitionContext.containerView
        if mode == .present {
            guard let presentedControllerView = transitionContext.view(forKey: .to) else { return }
            let originalCenter = presentedControllerView.center
            let originalSize = presentedControllerView.frame.size

            bubble = UIView()
            bubble.frame = coveringCircleFrame(originalCenter, size: originalSize, start: startingPoint)
            bubble.layer.cornerRadius = bubble.frame.size.height / 2
            bubble.center = startingPoint
            bubble.transform = CGAffineTransform(scaleX: 0.001, y: 0.001)
            bubble.backgroundColor = presentedControllerView.backgroundColor ?? bubbleColor
            containerView.addSubview(bubble)

            presentedControllerView.center = startingPoint
            presentedControllerView.transform = CGAffineTransform(scaleX: 0.001, y: 0.001)
            presentedControllerView.alpha = 0
            containerView.addSubview(presentedControllerView)

            UIView.animate(withDuration: duration, animations: {
                self.bubble.transform = CGAffineTransform.identity
                presentedControllerView.transform = CGAffineTransform.identity
                presentedControllerView.alpha = 1
                presentedControllerView.center = originalCenter
            }, completion: { _ in
                self.bubble.removeFromSuperview()
                transitionContext.completeTransition(true)
            })
        } else {
            guard let returningControllerView = transitionContext.view(forKey: .from) else { return }
            let originalCenter = returningControllerView.center
            let originalSize = returningControllerView.frame.size
            // A full-screen presentation took the presenting view away; put it back underneath.
            if let presentingView = transitionContext.view(forKey: .to) {
                containerView.insertSubview(presentingView, belowSubview: returningControllerView)
            }

            bubble.frame = coveringCircleFrame(originalCenter, size: originalSize, start: startingPoint)
            bubble.layer.cornerRadius = bubble.frame.size.height / 2
            bubble.center = startingPoint
            bubble.backgroundColor = returningControllerView.backgroundColor ?? bubbleColor
            containerView.insertSubview(bubble, belowSubview: returningControllerView)

            UIView.animate(withDuration: duration, animations: {
                self.bubble.transform = CGAffineTransform(scaleX: 0.001, y: 0.001)
                returningControllerView.transform = CGAffineTransform(scaleX: 0.001, y: 0.001)
                returningControllerView.center = self.startingPoint
                returningControllerView.alpha = 0
            }, completion: { _ in
                returningControllerView.center = originalCenter
                returningControllerView.transform = .identity
                returningControllerView.removeFromSuperview()
                self.bubble.removeFromSuperview()
                transitionContext.completeTransition(true)
            })
        }
    }
}

private extension BubbleAnimator {
    /// The smallest circle around `start` that covers a rectangle of `size` centred on
    /// `originalCenter`.
    func coveringCircleFrame(_ originalCenter: CGPoint, size originalSize: CGSize, start: CGPoint) -> CGRect {
        let lengthX = fmax(start.x, originalSize.width - start.x)
        let lengthY = fmax(start.y, originalSize.height - start.y)
        let offset = sqrt(lengthX * lengthX + lengthY * lengthY) * 2
        let size = CGSize(width: offset, height: offset)
        return CGRect(origin: CGPoint.zero, size: size)
    }
}
