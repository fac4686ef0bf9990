import UIKit
import QuartzCore

/// A transitioning delegate that vends a card animator for presentations and nil (the
/// default) for dismissals.
final class ModalDelegate: NSObject, UIViewControllerTransitioningDelegate {
    func animationController(forPresented presented: UIViewController, presenting: UIViewController,
                             source: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        CardAnimator()
    }
}

/// Grows a card that copies the presented view's look (colour, corner radius, clipping: read
/// back from the host), then shows the presented view. It logs what it read so a test can
/// check the getters.
final class CardAnimator: NSObject, UIViewControllerAnimatedTransitioning {
    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { 0.3 }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        guard let toVC = transitionContext.viewController(forKey: .to), let toView = transitionContext.view(forKey: .to) else {
            transitionContext.completeTransition(false)
            return
        }
        let container = transitionContext.containerView
        let screen = UIScreen.main.bounds
        let card = UIView(frame: screen.insetBy(dx: 40, dy: 80))
        card.backgroundColor = toView.backgroundColor
        card.layer.cornerRadius = toView.layer.cornerRadius + 12
        card.clipsToBounds = toView.clipsToBounds
        card.transform = CGAffineTransform(scaleX: 0.1, y: 0.1)
        container.addSubview(card)
        var r: CGFloat = 0, g: CGFloat = 0, b: CGFloat = 0, a: CGFloat = 0
        _ = card.backgroundColor?.getRed(&r, green: &g, blue: &b, alpha: &a)
        TransHostLog("card colour \(Int(r * 255)) \(Int(g * 255)) \(Int(b * 255)) radius \(card.layer.cornerRadius) clips \(card.clipsToBounds) screen \(Int(screen.width))x\(Int(screen.height))@\(Int(UIScreen.main.scale)) presenting \(toVC.presentingViewController?.typeName ?? "nil") nav \(toVC.navigationController == nil ? "none" : "some")")
        UIView.animate(withDuration: transitionDuration(using: transitionContext), animations: {
            card.transform = .identity
        }, completion: { _ in
            toView.frame = transitionContext.finalFrame(for: toVC)
            container.addSubview(toView)
            card.removeFromSuperview()
            transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        })
    }
}
