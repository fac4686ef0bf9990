import UIKit

// Seed 002 (en), transliterated line by line from Objective-C: MainTransitioningDelegate.
//
// This class is designed to contain all of the transitioning logic for the main navigation
// controller of the application. By assigning the navigation controller delegate to this class
// and maintaining a reference to the class we are able to encapsulate all of our transitioning
// logic here and create custom animations for each view controller combination.
//
// Kept as the seed wrote it, including its bug: the Home -> Search animation calls
// completeTransition(true) before it adds the destination view to the container.

class MainTransitioningDelegate: NSObject, UIViewControllerTransitioningDelegate, UIViewControllerAnimatedTransitioning, UINavigationControllerDelegate {

    // MARK: animation methods

    // Report who is in charge of the animation.
    // To do this properly, we must return this class for all VC combinations that we will
    // support. For all others we must return nil to support the standard transition without
    // interfering.
    func navigationController(_ navigationController: UINavigationController,
                              animationControllerFor operation: UINavigationController.Operation,
                              from fromVC: UIViewController,
                              to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning? {
        if fromVC.isKind(of: HomeController.self) && toVC.isKind(of: CompanySearchController.self) {
            return self
        } else if fromVC.isKind(of: CompanySearchController.self) && toVC.isKind(of: HomeController.self) {
            return self
        } else {
            return nil
        }
    }

    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval {
        return 0.5
    }

    func animateTransition(using transitionContext: UIViewControllerContextTransitioning) {
        // get the view we are going to and take a snapshot of it and add it to the view as invisible
        let toVC = transitionContext.viewController(forKey: UITransitionContextViewControllerKey.to)!
        let fromVC = transitionContext.viewController(forKey: UITransitionContextViewControllerKey.from)!

        // perform the home to search animation
        if fromVC.isKind(of: HomeController.self) && toVC.isKind(of: CompanySearchController.self) {
            self.animationFromHome(fromVC as! HomeController, toSearch: toVC as! CompanySearchController, withContext: transitionContext)
        } else if fromVC.isKind(of: CompanySearchController.self) && toVC.isKind(of: HomeController.self) {
            self.animationFromSearch(fromVC as! CompanySearchController, toHome: toVC as! HomeController, withContext: transitionContext)
        }
    }

    /// This is the animation that will occur from the home to the company search controller.
    func animationFromHome(_ fromVC: HomeController, toSearch toVC: CompanySearchController, withContext transitionContext: UIViewControllerContextTransitioning) {
        // get the container view that will hold the transition
        let container = transitionContext.containerView
        let toView: UIView = toVC.view
        let snapshot = toView.snapshotView(afterScreenUpdates: true)!
        snapshot.alpha = 0.0
        container.backgroundColor = UIColor.white
        container.addSubview(snapshot)

        // add the text box we are going to animate
        let moveView = fromVC.searchView.snapshotView(afterScreenUpdates: false)!
        container.addSubview(moveView)
        moveView.frame = fromVC.searchView.frame

        // fade out the current view
        UIView.animate(withDuration: 0.2, animations: {
            fromVC.view.alpha = 0.0
        }, completion: { finished in
        })

        // move the search bar up to the top, fading it out and fade the new view in
        UIView.animate(withDuration: 0.5, animations: {
            moveView.frame = CGRect(x: moveView.frame.origin.x, y: 0, width: moveView.frame.size.width, height: moveView.frame.size.height)
            moveView.alpha = 0.0
        })

        // fade the next VCs view in and reset after completion.
        // add the transition view to our resulting container and complete the transition
        // also clear the nav delegate so we won't use this to transition any more.
        UIView.animate(withDuration: 0.25, delay: 0.25, options: [], animations: {
            snapshot.alpha = 1.0
        }, completion: { finished in
            snapshot.removeFromSuperview()
            // toVC.navigationController?.delegate = nil
            transitionContext.completeTransition(true)
            container.addSubview(toView)
            fromVC.view.alpha = 1.0
        })
    }

    /// This is the animation that will occur from the search to the home controller.
    func animationFromSearch(_ fromVC: CompanySearchController, toHome toVC: HomeController, withContext transitionContext: UIViewControllerContextTransitioning) {
        // get the container view that will hold the transition
        let container = transitionContext.containerView

        // the the views from both view controllers
        let toView: UIView = toVC.view
        let toSnapshot = toView.snapshotView(afterScreenUpdates: true)!
        let fromView: UIView = fromVC.view
        let fromSnapshot = fromView.snapshotView(afterScreenUpdates: false)!

        // add both of the views to the container view
        toSnapshot.alpha = 0.0
        container.addSubview(fromSnapshot)
        container.addSubview(toSnapshot)

        // add the text box we are going to animate
        let moveView = toVC.searchView.snapshotView(afterScreenUpdates: true)!
        container.addSubview(moveView)

        // start the move view up at the top of our window
        moveView.frame = CGRect(x: moveView.frame.origin.x, y: 0, width: moveView.frame.size.width, height: moveView.frame.size.height)
        moveView.alpha = 1.0

        // fade out the current view
        UIView.animate(withDuration: 0.2, animations: {
            fromView.alpha = 0.0
        }, completion: { finished in
        })

        // move the search bar from the top to its actual position
        UIView.animate(withDuration: 0.5, animations: {
            moveView.frame = toVC.searchView.frame
            moveView.alpha = 1.0
        })

        // fade the next VCs view in and reset after completion.
        // add the transition view to our resulting container and complete the transition
        UIView.animate(withDuration: 0.25, delay: 0.25, options: [], animations: {
            toSnapshot.alpha = 1.0
        }, completion: { finished in
            toSnapshot.removeFromSuperview()
            fromSnapshot.removeFromSuperview()
            moveView.removeFromSuperview()
            container.addSubview(toView)
            transitionContext.completeTransition(true)
        })
    }
}
