import UIKit

/// Zooms a snapshot of the destination out of a thumbnail-sized frame until it fills the screen,
/// then swaps the real view in. Dismissal shrinks the screen back into the thumbnail.
final class ZoomSnapshotAnimator: NSObject, UIViewControllerAnimatedTransitioning {

    var presenting = true

    /// Where the thumbnail sits, in screen coordinates. The presenting screen sets it before it
    /// presents; the default is a 120 pt square in the middle of the screen.
    var originFrame: CGRect = {
        let screen = UIScreen.main.bounds
        return CGRect(x: screen.midX - 60, y: screen.midY - 60, width: 120, height: 120)
    }()

    private let duration = 0.5

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return duration
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        let containerView = transitionContext.containerView
        guard let toView = transitionContext.view(forKey: .to),
              let fromView = transitionContext.view(forKey: .from) else {
            transitionContext.completeTransition(false)
            return
        }

        let zoomedView = presenting ? toView : fromView
        guard let snapshot = zoomedView.snapshotView(afterScreenUpdates: true) else {
            transitionContext.completeTransition(false)
            return
        }

        let initialFrame = presenting ? originFrame : zoomedView.frame
        let finalFrame = presenting ? zoomedView.frame : originFrame

        let xScaleFactor = initialFrame.width / finalFrame.width
        let yScaleFactor = initialFrame.height / finalFrame.height
        let scaleTransform = CGAffineTransform(scaleX: xScaleFactor, y: yScaleFactor)

        snapshot.frame = finalFrame
        snapshot.layer.cornerRadius = presenting ? 20.0 / xScaleFactor : 0
        snapshot.clipsToBounds = true
        if presenting {
            snapshot.transform = scaleTransform
            snapshot.center = CGPoint(x: initialFrame.midX, y: initialFrame.midY)
        } else {
            snapshot.frame = initialFrame
        }

        containerView.addSubview(toView)
        containerView.addSubview(snapshot)
        toView.isHidden = presenting
        if !presenting {
            fromView.isHidden = true
        }

        UIView.animate(withDuration: duration,
                       delay: 0.0,
                       usingSpringWithDamping: 0.8,
                       initialSpringVelocity: 0.2,
                       options: [],
                       animations: {
                           if self.presenting {
                               snapshot.transform = .identity
                               snapshot.layer.cornerRadius = 0
                               snapshot.center = CGPoint(x: finalFrame.midX, y: finalFrame.midY)
                           } else {
                               snapshot.transform = CGAffineTransform(scaleX: finalFrame.width / initialFrame.width,
                                                                      y: finalFrame.height / initialFrame.height)
                               snapshot.center = CGPoint(x: finalFrame.midX, y: finalFrame.midY)
                               snapshot.alpha = 0
                           }
                       },
                       completion: { _ in
                           toView.isHidden = false
                           fromView.isHidden = false
                           snapshot.removeFromSuperview()
                           if transitionContext.transitionWasCancelled {
                               toView.removeFromSuperview()
                           }
                           transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
                       })
    }
}
