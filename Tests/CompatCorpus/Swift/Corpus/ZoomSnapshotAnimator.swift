import UIKit

/// Opens a photo out of its thumbnail: a snapshot of the destination starts squeezed into the
/// thumbnail's square with rounded corners and springs out to full screen, then the real view
/// takes its place. Closing shrinks a fading snapshot of the photo back into the square.
final class ZoomSnapshotAnimator: NSObject, UIViewControllerAnimatedTransitioning {

    var presenting = true

    /// The thumbnail's frame on screen. The grid sets it before presenting; by default it is a
    /// 120 pt square in the middle of the screen.
    var thumbnailFrame: CGRect = {
        let screen = UIScreen.main.bounds
        return CGRect(x: screen.midX - 60, y: screen.midY - 60, width: 120, height: 120)
    }()

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return 0.5
    }

    /// The transform that squeezes `full` into `small` (both centred on the same point).
    private func squeeze(_ full: CGRect, into small: CGRect) -> CGAffineTransform {
        return CGAffineTransform(scaleX: small.width / full.width, y: small.height / full.height)
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        let containerView = transitionContext.containerView
        guard let toView = transitionContext.view(forKey: .to),
              let fromView = transitionContext.view(forKey: .from) else {
            transitionContext.completeTransition(false)
            return
        }
        let photoView = presenting ? toView : fromView
        let fullFrame = photoView.frame
        guard let zoom = photoView.snapshotView(afterScreenUpdates: true) else {
            transitionContext.completeTransition(false)
            return
        }

        let small = squeeze(fullFrame, into: thumbnailFrame)
        let thumbnailCenter = CGPoint(x: thumbnailFrame.midX, y: thumbnailFrame.midY)
        let fullCenter = CGPoint(x: fullFrame.midX, y: fullFrame.midY)
        zoom.frame = fullFrame
        zoom.clipsToBounds = true
        if presenting {
            zoom.transform = small
            zoom.center = thumbnailCenter
            zoom.layer.cornerRadius = 20 / small.a
        }

        containerView.addSubview(toView)
        containerView.addSubview(zoom)
        photoView.isHidden = true

        UIView.animate(withDuration: transitionDuration(using: transitionContext),
                       delay: 0,
                       usingSpringWithDamping: 0.8,
                       initialSpringVelocity: 0.2,
                       options: [],
                       animations: {
                           if self.presenting {
                               zoom.transform = .identity
                               zoom.center = fullCenter
                               zoom.layer.cornerRadius = 0
                           } else {
                               zoom.transform = small
                               zoom.center = thumbnailCenter
                               zoom.alpha = 0
                           }
                       },
                       completion: { _ in
                           photoView.isHidden = false
                           zoom.removeFromSuperview()
                           let cancelled = transitionContext.transitionWasCancelled
                           if cancelled {
                               toView.removeFromSuperview()
                           }
                           transitionContext.completeTransition(!cancelled)
                       })
    }
}
