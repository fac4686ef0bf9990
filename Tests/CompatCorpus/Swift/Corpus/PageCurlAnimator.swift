import UIKit

/// Presents with a page curl: the current screen curls up and away to show the presented one.
/// Dismissing curls it back down.
final class PageCurlAnimator: NSObject, UIViewControllerAnimatedTransitioning {

    private let isPresentation: Bool

    init(isPresentation: Bool) {
        self.isPresentation = isPresentation
        super.init()
    }

    override convenience init() {
        self.init(isPresentation: true)
    }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return 0.8
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        let containerView = transitionContext.containerView
        guard let fromVC = transitionContext.viewController(forKey: .from),
              let toVC = transitionContext.viewController(forKey: .to) else {
            return
        }

        let options: UIView.AnimationOptions = isPresentation ? .transitionCurlUp : .transitionCurlDown
        toVC.view.frame = transitionContext.finalFrame(for: toVC)

        UIView.transition(with: containerView,
                          duration: transitionDuration(using: transitionContext),
                          options: options,
                          animations: {
                              containerView.addSubview(toVC.view)
                              fromVC.view.removeFromSuperview()
                          },
                          completion: { _ in
                              transitionContext.completeTransition(true)
                          })
    }
}
