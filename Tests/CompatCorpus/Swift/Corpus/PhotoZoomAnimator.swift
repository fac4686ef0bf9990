import UIKit

/// Zooms a photo from its thumbnail in the grid to full screen: an image view with the same
/// image flies from the thumbnail's frame to the detail screen's image frame while the detail
/// screen fades in behind it.
final class PhotoZoomAnimator: NSObject, UIViewControllerAnimatedTransitioning {

    private let duration: TimeInterval = 0.45

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return duration
    }

    private func firstImageView(in view: UIView) -> UIImageView? {
        if let imageView = view as? UIImageView { return imageView }
        for subview in view.subviews {
            if let found = firstImageView(in: subview) { return found }
        }
        return nil
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        let containerView = transitionContext.containerView
        guard let fromVC = transitionContext.viewController(forKey: .from),
              let toVC = transitionContext.viewController(forKey: .to),
              let toView = transitionContext.view(forKey: .to),
              let thumbnail = firstImageView(in: fromVC.view),
              let target = firstImageView(in: toVC.view) else {
            transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
            return
        }

        toView.frame = transitionContext.finalFrame(for: toVC)
        toView.alpha = 0
        containerView.addSubview(toView)
        toView.layoutIfNeeded()

        let zoomingImageView = UIImageView(image: thumbnail.image)
        zoomingImageView.contentMode = .scaleAspectFill
        zoomingImageView.clipsToBounds = true
        zoomingImageView.frame = thumbnail.convert(thumbnail.bounds, to: containerView)
        containerView.addSubview(zoomingImageView)

        thumbnail.isHidden = true
        target.isHidden = true
        let finalFrame = target.convert(target.bounds, to: containerView)

        UIView.animate(withDuration: duration, delay: 0, usingSpringWithDamping: 0.85, initialSpringVelocity: 0, options: [], animations: {
            zoomingImageView.frame = finalFrame
            toView.alpha = 1
        }, completion: { _ in
            thumbnail.isHidden = false
            target.isHidden = false
            zoomingImageView.removeFromSuperview()
            transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        })
    }
}
