import UIKit

// Seed 000 (es), transliterated line by line from Objective-C: AnimationDelegate.h's protocol and
// IACModalTransition. Kept as the seed wrote it: 320 pt halves of a 640 pt tall snapshot,
// CATransform3DRotate by 90 (radians), the dismissal animated for presentationDuration, and
// completeTransition(true) whatever happened.

protocol IACAnimationControllerDelegate: UIViewControllerAnimatedTransitioning {
    var presentationDuration: TimeInterval { get set }
    var dismissalDuration: TimeInterval { get set }
    var isPresenting: Bool { get set }
}

class IACModalTransition: NSObject, IACAnimationControllerDelegate {

    var isPresenting: Bool = false
    var presentationDuration: TimeInterval = 0
    var dismissalDuration: TimeInterval = 0
    var transitionContext: UIViewControllerContextTransitioning?

    override init() {
        super.init()

        self.presentationDuration = 1.0
        self.dismissalDuration = 0.5
    }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {

        return self.isPresenting ? self.presentationDuration : self.dismissalDuration
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {

        self.transitionContext = transitionContext

        if self.isPresenting {
            self.animatePresenting(transitionContext)
        } else {

            self.animateDissMiss(transitionContext)
        }

    }

    func animatePresenting(_ transitionContext: UIViewControllerContextTransitioning) {
        // The controllers, from the context
        let toViewController = transitionContext.viewController(forKey: .to)!
        let fromViewController = transitionContext.viewController(forKey: .from)!

        // A capture of the controller we come from, to animate a snapshot instead of a view
        let capture1 = fromViewController.view.snapshotView(afterScreenUpdates: true)!.resizableSnapshotView(from: CGRect(x: 0, y: 0, width: 160, height: 640), afterScreenUpdates: true, withCapInsets: UIEdgeInsets(top: 0, left: 0, bottom: 0, right: 0))!
        let capture2 = fromViewController.view.snapshotView(afterScreenUpdates: true)!.resizableSnapshotView(from: CGRect(x: 160, y: 0, width: 160, height: 640), afterScreenUpdates: true, withCapInsets: UIEdgeInsets(top: 0, left: 0, bottom: 0, right: 0))!
        capture2.center = CGPoint(x: capture1.center.x * 3, y: capture1.center.y)

        // The animation's container; the view of the controller we come from goes
        let containerView = transitionContext.containerView
        fromViewController.view.removeFromSuperview()

        // add the view
        containerView.addSubview(toViewController.view)
        // prepare the captures
        containerView.addSubview(capture1)
        containerView.addSubview(capture2)

        // the initial state of the controller we go to
        let scale = CATransform3DIdentity
        toViewController.view.layer.transform = CATransform3DScale(scale, 0.0, 0.0, 1)
        toViewController.view.alpha = 0.6

        // the transforms
        let t1 = self.firstTransform()
        let t2 = self.secondTransform()

        UIView.animateKeyframes(withDuration: self.presentationDuration,
                                delay: 0.0,
                                options: .calculationModeLinear,
                                animations: {

                                    UIView.addKeyframe(withRelativeStartTime: 0.0,
                                                       relativeDuration: 0.5,
                                                       animations: {
                                                           // the from-controller splits in two
                                                           capture1.layer.transform = t1
                                                           capture1.center = CGPoint(x: capture1.center.x - 120, y: capture1.center.y
                                                           )
                                                           capture2.layer.transform = t2
                                                           capture2.center = CGPoint(x: capture2.center.x + 120, y: capture1.center.y
                                                           )
                                                       })

                                    UIView.addKeyframe(withRelativeStartTime: 0.5,
                                                       relativeDuration: 0.5,
                                                       animations: {
                                                           // the to-controller comes closer
                                                           toViewController.view.layer.transform = CATransform3DIdentity
                                                           toViewController.view.alpha = 1.0
                                                       })

                                }, completion: { finished in

                                    self.transitionContext?.completeTransition(true)

                                })


    }

    func animateDissMiss(_ transitionContext: UIViewControllerContextTransitioning) {

        // The controllers, from the context
        let toViewController = transitionContext.viewController(forKey: .to)!
        let fromViewController = transitionContext.viewController(forKey: .from)!

        // a capture of the controller we go to, split in two AND ALREADY ROTATED.
        let capture1 = toViewController.view.snapshotView(afterScreenUpdates: true)!.resizableSnapshotView(from: CGRect(x: 0, y: 0, width: 160, height: 640), afterScreenUpdates: true, withCapInsets: UIEdgeInsets(top: 0, left: 0, bottom: 0, right: 0))!
        capture1.layer.transform = self.firstTransform()
        capture1.center = CGPoint(x: capture1.center.x - 120, y: capture1.center.y)
        let capture2 = toViewController.view.snapshotView(afterScreenUpdates: true)!.resizableSnapshotView(from: CGRect(x: 160, y: 0, width: 160, height: 640), afterScreenUpdates: true, withCapInsets: UIEdgeInsets(top: 0, left: 0, bottom: 0, right: 0))!
        capture2.center = CGPoint(x: capture2.center.x * 3 + 120, y: capture2.center.y)
        capture2.layer.transform = self.secondTransform()

        // a capture of the controller we come from
        let intermediateView = fromViewController.view.snapshotView(afterScreenUpdates: true)!

        // The animation's container; the view of the controller we come from goes
        let containerView = transitionContext.containerView
        fromViewController.view.removeFromSuperview()

        // add the captures
        containerView.addSubview(intermediateView)
        containerView.addSubview(capture1)
        containerView.addSubview(capture2)

        let scale = CATransform3DIdentity

        UIView.animateKeyframes(withDuration: self.presentationDuration,
                                delay: 0.0,
                                options: .calculationModeLinear,
                                animations: {

                                    UIView.addKeyframe(withRelativeStartTime: 0.0,
                                                       relativeDuration: 0.5,
                                                       animations: {

                                                           // the from-controller moves away
                                                           intermediateView.layer.transform = CATransform3DScale(scale, 0.0, 0.0, 1)
                                                           intermediateView.alpha = 0.6

                                                       })

                                    UIView.addKeyframe(withRelativeStartTime: 0.5,
                                                       relativeDuration: 0.5,
                                                       animations: {

                                                           // the to-controller's two halves join
                                                           capture1.layer.transform = CATransform3DIdentity
                                                           capture1.center = CGPoint(x: capture1.center.x + 120, y: capture1.center.y
                                                           )
                                                           capture2.layer.transform = CATransform3DIdentity
                                                           capture2.center = CGPoint(x: capture2.center.x - 120, y: capture1.center.y)

                                                       })

                                }, completion: { finished in

                                    self.transitionContext?.completeTransition(true)

                                })


    }

    func firstTransform() -> CATransform3D {

        var transform = CATransform3DIdentity
        transform.m34 = 1.0 / -900
        transform = CATransform3DRotate(transform, 90.0, 0, 1, 0)
        return transform

    }

    func secondTransform() -> CATransform3D {

        var transform = CATransform3DIdentity
        transform.m34 = 1.0 / -900
        transform = CATransform3DRotate(transform, -90.0, 0, 1, 0)
        return transform

    }

}
