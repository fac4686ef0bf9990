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
