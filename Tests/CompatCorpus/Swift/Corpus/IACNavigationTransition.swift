import UIKit

// Seed 000 (es), transliterated line by line from Objective-C: IACNavigationTransition. Kept as
// the seed wrote it: the 160 pt position of an iPhone 5 and completeTransition(true).

class IACNavigationTransition: NSObject, IACAnimationControllerDelegate {

    var isPresenting: Bool = false
    var presentationDuration: TimeInterval = 0
    var dismissalDuration: TimeInterval = 0
    var transitionContext: UIViewControllerContextTransitioning?



    override init() {
        super.init()
        self.presentationDuration = 1.0
        self.dismissalDuration = 1.0
    }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        // how long the animation lasts
        return self.isPresenting ? self.presentationDuration : self.dismissalDuration
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {

        self.transitionContext = transitionContext
        if self.isPresenting {
            self.animatePresenting(self.transitionContext!)
        } else {
            self.animateDissMiss(self.transitionContext!)
        }
    }

    func animatePresenting(_ transitionContext: UIViewControllerContextTransitioning) {


        let fromViewController = transitionContext.viewController(forKey: .from)!

        let toViewController = transitionContext.viewController(forKey: .to)!

        let container = transitionContext.containerView


        fromViewController.view.frame = container.frame
        toViewController.view.frame = container.frame

        // the to-controller goes at the top, upside down
        toViewController.view.transform = CGAffineTransform(rotationAngle: -.pi)
        toViewController.view.layer.anchorPoint = CGPoint(x: 0.5, y: 0.0)
        toViewController.view.layer.position = CGPoint(x: 160.0, y: 0)

        // the controllers into the container
        container.insertSubview(toViewController.view, belowSubview: fromViewController.view)

        UIView.animate(withDuration: 1.0,
                       delay: 0.0,
                       usingSpringWithDamping: 0.8,
                       initialSpringVelocity: 6.0,
                       options: .curveEaseIn,

                       animations: {

                           toViewController.view.layer.transform = CATransform3DIdentity

                           fromViewController.view.center = CGPoint(x: -container.frame.size.width, y: container.frame.size.height / 2)
                           fromViewController.view.transform = CGAffineTransform(rotationAngle: .pi / 2)

                       }, completion: { finished in

                           transitionContext.completeTransition(true)

                       })
    }

    func animateDissMiss(_ transitionContext: UIViewControllerContextTransitioning) {

        let fromViewController = transitionContext.viewController(forKey: .from)!

        let toViewController = transitionContext.viewController(forKey: .to)!

        let initialRect = transitionContext.initialFrame(for: fromViewController)

        // the from-controller in the middle, with its anchor point and the position it turns about
        var rotation: CGAffineTransform
        rotation = CGAffineTransform(rotationAngle: .pi)
        fromViewController.view.frame = initialRect
        fromViewController.view.layer.anchorPoint = CGPoint(x: 0.5, y: 0.0)
        fromViewController.view.layer.position = CGPoint(x: 160.0, y: 0)

        // the controllers into the container
        let container = transitionContext.containerView
        container.insertSubview(toViewController.view, belowSubview: fromViewController.view)

        // the to-controller upside down, on the left
        toViewController.view.center = CGPoint(x: -initialRect.size.width, y: initialRect.size.height)
        toViewController.view.transform = rotation


        UIView.animate(withDuration: 1.0,
                       delay: 0.0,
                       usingSpringWithDamping: 0.8,
                       initialSpringVelocity: 6.0,
                       options: .curveEaseIn,

                       animations: {
                           // turn the from-controller up and centre the to-controller
                           fromViewController.view.transform = rotation
                           toViewController.view.frame = initialRect
                           toViewController.view.transform = CGAffineTransform(rotationAngle: 0)
                       }, completion: { finished in

                           transitionContext.completeTransition(true)

                       })
    }
}
