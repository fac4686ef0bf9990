import UIKit
import QuartzCore

/// A transitioning delegate that vends a card animator for presentations and nil (the
/// default) for dismissals.
final class ModalDelegate: NSObject, UIViewControllerTransitioningDelegate {
    func animationController(forPresented presented: UIViewController, presenting: UIViewController,
                             source: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        presented.typeName == "PullController" ? PullAnimator() : CardAnimator()
    }

    func interactionControllerForPresentation(using animator: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning? {
        animator is PullAnimator ? PullAnimator.interaction : nil
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
        let cardView = UIView(frame: screen.insetBy(dx: 40, dy: 80))
        cardView.backgroundColor = toView.backgroundColor
        cardView.layer.cornerRadius = toView.layer.cornerRadius + 12
        cardView.clipsToBounds = toView.clipsToBounds
        cardView.transform = CGAffineTransform(scaleX: 0.1, y: 0.1)
        let photo = UIImageView(image: UIImage(named: "photo"))
        photo.frame = cardView.bounds.insetBy(dx: 20, dy: 20)
        photo.contentMode = .scaleAspectFill
        cardView.addSubview(photo)
        cardView.addSubview(UIImageView(image: UIImage(named: "missing")))
        container.addSubview(cardView)
        var r: CGFloat = 0, g: CGFloat = 0, b: CGFloat = 0, a: CGFloat = 0
        _ = cardView.backgroundColor?.getRed(&r, green: &g, blue: &b, alpha: &a)
        TransHostLog("card colour \(Int(r * 255)) \(Int(g * 255)) \(Int(b * 255)) radius \(cardView.layer.cornerRadius) clips \(cardView.clipsToBounds) screen \(Int(screen.width))x\(Int(screen.height))@\(Int(UIScreen.main.scale)) presenting \(toVC.presentingViewController?.typeName ?? "nil") nav \(toVC.navigationController == nil ? "none" : "some")")
        let card = toVC as? CardController
        TransHostLog("key window is the container \(UIApplication.shared.keyWindow === container) toView.window nil \(toView.window == nil)")
        let pictures = toView.subviews.compactMap { $0 as? UIImageView }
        TransHostLog("scenario image views \(pictures.count) showing \(pictures.first?.image?.name.hasSuffix("photo.png") == true)")
        TransHostLog("being presented \(toVC.isBeingPresented) subclass \(card?.loaded ?? false) badge \(card?.badge?.accessibilityIdentifier ?? "none")")
        UIView.animate(withDuration: transitionDuration(using: transitionContext), animations: {
            cardView.transform = .identity
        }, completion: { _ in
            toView.frame = transitionContext.finalFrame(for: toVC)
            container.addSubview(toView)
            cardView.removeFromSuperview()
            transitionContext.completeTransition(!transitionContext.transitionWasCancelled)
        })
    }
}

/// The app's own class for the scenario's CardController (exported with
/// `controllers:`): the kit makes it with init(coder:) and calls viewDidLoad, as a storyboard would.
final class CardController: UIViewController {
    var loaded = false
    var badge: UIView?
    override func viewDidLoad() {
        super.viewDidLoad()
        loaded = true
        badge = view.subviews.first
    }
}
