/// UIViewControllerAnimatedTransitioning. Optional methods of the Objective-C protocol have
/// default implementations here: implement them in the class that declares the conformance
/// (a subclass's implementation of a method its superclass did not implement is not seen
/// through the protocol, a Swift rule without the Objective-C runtime).
public protocol UIViewControllerAnimatedTransitioning: NSObjectProtocol {
    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval
    func animateTransition(using transitionContext: UIViewControllerContextTransitioning)
    func animationEnded(_ transitionCompleted: Bool)
}

extension UIViewControllerAnimatedTransitioning {
    public func animationEnded(_ transitionCompleted: Bool) {}
}

/// UIViewControllerInteractiveTransitioning.
public protocol UIViewControllerInteractiveTransitioning: NSObjectProtocol {
    func startInteractiveTransition(_ transitionContext: UIViewControllerContextTransitioning)
    var completionSpeed: CGFloat { get }
    var completionCurve: UIView.AnimationCurve { get }
    var wantsInteractiveStart: Bool { get }
}

extension UIViewControllerInteractiveTransitioning {
    public var completionSpeed: CGFloat { 1 }
    public var completionCurve: UIView.AnimationCurve { .easeInOut }
    public var wantsInteractiveStart: Bool { true }
}

/// UIViewControllerTransitioningDelegate: asked for a present's or dismiss's animator and
/// interaction controller (nil: the default transition).
public protocol UIViewControllerTransitioningDelegate: NSObjectProtocol {
    func animationController(forPresented presented: UIViewController, presenting: UIViewController,
                             source: UIViewController) -> UIViewControllerAnimatedTransitioning?
    func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning?
    func interactionControllerForPresentation(using animator: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning?
    func interactionControllerForDismissal(using animator: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning?
    func presentationController(forPresented presented: UIViewController, presenting: UIViewController?,
                                source: UIViewController) -> UIPresentationController?
}

extension UIViewControllerTransitioningDelegate {
    public func animationController(forPresented presented: UIViewController, presenting: UIViewController,
                                    source: UIViewController) -> UIViewControllerAnimatedTransitioning? { nil }
    public func animationController(forDismissed dismissed: UIViewController) -> UIViewControllerAnimatedTransitioning? { nil }
    public func interactionControllerForPresentation(using animator: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning? { nil }
    public func interactionControllerForDismissal(using animator: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning? { nil }
    public func presentationController(forPresented presented: UIViewController, presenting: UIViewController?,
                                       source: UIViewController) -> UIPresentationController? { nil }
}

/// UINavigationControllerDelegate.
public protocol UINavigationControllerDelegate: NSObjectProtocol {
    func navigationController(_ navigationController: UINavigationController, animationControllerFor operation: UINavigationController.Operation,
                              from fromVC: UIViewController, to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning?
    func navigationController(_ navigationController: UINavigationController,
                              interactionControllerFor animationController: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning?
    func navigationController(_ navigationController: UINavigationController, willShow viewController: UIViewController, animated: Bool)
    func navigationController(_ navigationController: UINavigationController, didShow viewController: UIViewController, animated: Bool)
}

extension UINavigationControllerDelegate {
    public func navigationController(_ navigationController: UINavigationController, animationControllerFor operation: UINavigationController.Operation,
                                     from fromVC: UIViewController, to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning? { nil }
    public func navigationController(_ navigationController: UINavigationController,
                                     interactionControllerFor animationController: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning? { nil }
    public func navigationController(_ navigationController: UINavigationController, willShow viewController: UIViewController, animated: Bool) {}
    public func navigationController(_ navigationController: UINavigationController, didShow viewController: UIViewController, animated: Bool) {}
}

/// UITabBarControllerDelegate.
public protocol UITabBarControllerDelegate: NSObjectProtocol {
    func tabBarController(_ tabBarController: UITabBarController, animationControllerForTransitionFrom fromVC: UIViewController,
                          to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning?
    func tabBarController(_ tabBarController: UITabBarController,
                          interactionControllerFor animationController: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning?
    func tabBarController(_ tabBarController: UITabBarController, shouldSelect viewController: UIViewController) -> Bool
    func tabBarController(_ tabBarController: UITabBarController, didSelect viewController: UIViewController)
}

extension UITabBarControllerDelegate {
    public func tabBarController(_ tabBarController: UITabBarController, animationControllerForTransitionFrom fromVC: UIViewController,
                                 to toVC: UIViewController) -> UIViewControllerAnimatedTransitioning? { nil }
    public func tabBarController(_ tabBarController: UITabBarController,
                                 interactionControllerFor animationController: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning? { nil }
    public func tabBarController(_ tabBarController: UITabBarController, shouldSelect viewController: UIViewController) -> Bool { true }
    public func tabBarController(_ tabBarController: UITabBarController, didSelect viewController: UIViewController) {}
}

/// UIPresentationController: accepted so delegates that vend one, and subclasses of it,
/// compile; the host's modal presentations are full screen and do not consult it yet.
open class UIPresentationController: NSObject {
    open private(set) var presentedViewController: UIViewController
    private let presenting: UIViewController?
    open var presentingViewController: UIViewController { presenting ?? presentedViewController.presentingViewController ?? presentedViewController }
    public init(presentedViewController: UIViewController, presenting presentingViewController: UIViewController?) {
        self.presentedViewController = presentedViewController
        self.presenting = presentingViewController
        super.init()
    }
    open var containerView: UIView? { nil }
    open var presentedView: UIView? { presentedViewController.view }
    open var frameOfPresentedViewInContainerView: CGRect { containerView?.bounds ?? UIScreen.main.bounds }
    open var shouldRemovePresentersView: Bool { false }
    open var shouldPresentInFullscreen: Bool { true }
    open var presentationStyle: UIModalPresentationStyle { presentedViewController.modalPresentationStyle }
    open var adaptivePresentationStyle: UIModalPresentationStyle { presentationStyle }
    open var overrideTraitCollection: AnyObject?
    open func presentationTransitionWillBegin() {}
    open func presentationTransitionDidEnd(_ completed: Bool) {}
    open func dismissalTransitionWillBegin() {}
    open func dismissalTransitionDidEnd(_ completed: Bool) {}
    open func containerViewWillLayoutSubviews() {}
    open func containerViewDidLayoutSubviews() {}
    open func size(forChildContentContainer container: AnyObject, withParentContainerSize parentSize: CGSize) -> CGSize { parentSize }
    open func preferredContentSizeDidChange(forChildContentContainer container: AnyObject) {}
}

/// UIPercentDrivenInteractiveTransition: drives the animator's animations by a percentage.
/// `update`, `finish` and `cancel` may be called before the transition starts (from the
/// gesture handler that starts it); they are applied when it does.
open class UIPercentDrivenInteractiveTransition: NSObject, UIViewControllerInteractiveTransitioning {
    open var completionSpeed: CGFloat = 1
    open var completionCurve: UIView.AnimationCurve = .easeInOut
    open var wantsInteractiveStart = true
    open private(set) var percentComplete: CGFloat = 0
    /// The animator's transitionDuration for the running transition.
    open var duration: CGFloat { CGFloat(context?.coordinator.duration ?? 0) }

    private weak var context: TransHostTransitionContext?
    private var pendingEnd: Bool?
    private var endRequested = false
    /// Whether update() was called since the last transition ended (before this one started).
    private var updatedBeforeStart = false

    public override init() { super.init() }

    /// Called by the host through the kit: runs the animator, then applies what was asked before.
    open func startInteractiveTransition(_ transitionContext: UIViewControllerContextTransitioning) {
        guard let ctx = transitionContext as? TransHostTransitionContext else { return }
        context = ctx
        endRequested = false
        // Every interactive transition starts at 0, unless the gesture already moved it.
        if !updatedBeforeStart { percentComplete = 0 }
        updatedBeforeStart = false
        ctx.interactionAnimator?.animateTransition(using: ctx)
        ctx.updateInteractiveTransition(percentComplete)
        if let end = pendingEnd {
            pendingEnd = nil
            end ? finish() : cancel()
        }
    }

    open func update(_ percentComplete: CGFloat) {
        self.percentComplete = min(max(percentComplete, 0), 1)
        guard let context, !context.hasEnded, !endRequested else { updatedBeforeStart = true; return }
        context.updateInteractiveTransition(self.percentComplete)
    }
    open func finish() { end(true) }
    open func cancel() { end(false) }
    open func pause() {}

    private func end(_ finishing: Bool) {
        guard let ctx = context, !ctx.hasEnded else { pendingEnd = finishing; return }
        guard !endRequested else { return }
        endRequested = true
        ctx.completionSpeed = completionSpeed
        ctx.completionCurve = completionCurve
        finishing ? ctx.finishInteractiveTransition() : ctx.cancelInteractiveTransition()
    }
}
