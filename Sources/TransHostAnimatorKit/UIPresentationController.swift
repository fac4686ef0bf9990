import CTransHost

/// UIPresentationController (ABI 1.3). A transitioning delegate vends one from
/// `presentationController(forPresented:presenting:source:)` for a presentation whose style is
/// `.custom`; the host then asks it where the presented view goes
/// (`frameOfPresentedViewInContainerView`), whether the presenter's view leaves
/// (`shouldRemovePresentersView`, default false: it stays and shows through), and calls the
/// transition hooks in UIKit's order: presentationTransitionWillBegin,
/// containerViewWillLayoutSubviews, the animator's animateTransition, ...,
/// presentationTransitionDidEnd(completed), the coordinator's completions, the animator's
/// animationEnded. The
/// same with the dismissal hooks for the dismissal. Inside the hooks
/// `presentedViewController.transitionCoordinator` is the running transition's.
///
/// `presentedView` may return a wrapper (a view of the plugin's holding the controller's view):
/// the host then animates and shows the wrapper, and the context's view for the presented
/// controller is the wrapper, as in UIKit. The host asks for it once, when the presentation
/// begins. What Linux does not match: trait collections and adaptivity are not modelled
/// (`adaptivePresentationStyle` is the style itself).
open class UIPresentationController: NSObject {
    open private(set) var presentedViewController: UIViewController
    private let presenting: UIViewController?
    open var presentingViewController: UIViewController { presenting ?? presentedViewController.presentingViewController ?? presentedViewController }
    public init(presentedViewController: UIViewController, presenting presentingViewController: UIViewController?) {
        self.presentedViewController = presentedViewController
        self.presenting = presentingViewController
        super.init()
    }
    /// The view the presentation happens in; nil until the host starts the presentation.
    open internal(set) var containerView: UIView?
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

    // MARK: The C table the host sees

    lazy var table: UnsafeMutablePointer<th_presentation_controller> = {
        let t = UnsafeMutablePointer<th_presentation_controller>.allocate(capacity: 1)
        t.initialize(to: th_presentation_controller(
            struct_size: UInt32(MemoryLayout<th_presentation_controller>.size),
            frame_of_presented_view: { me, container in
                guard let p = UIPresentationController.object(me) else { return th_rect() }
                p.containerView = UIView.wrap(container) ?? p.containerView
                return p.frameOfPresentedViewInContainerView.th
            },
            should_remove_presenters_view: { me in UIPresentationController.object(me)?.shouldRemovePresentersView == true ? 1 : 0 },
            presentation_will_begin: { me, ctx, container in
                guard let p = UIPresentationController.object(me) else { return }
                p.begin(ctx, container)
                p.presentationTransitionWillBegin()
            },
            presentation_did_end: { me, ctx, completed in
                guard let p = UIPresentationController.object(me) else { return }
                p.presentationTransitionDidEnd(completed != 0)
                if completed == 0 { p.release() }
            },
            dismissal_will_begin: { me, ctx, container in
                guard let p = UIPresentationController.object(me) else { return }
                p.begin(ctx, container)
                p.dismissalTransitionWillBegin()
            },
            dismissal_did_end: { me, ctx, completed in
                guard let p = UIPresentationController.object(me) else { return }
                p.dismissalTransitionDidEnd(completed != 0)
                if completed != 0 { p.release() }
            },
            container_will_layout: { me, container in
                guard let p = UIPresentationController.object(me) else { return }
                p.containerView = UIView.wrap(container) ?? p.containerView
                p.containerViewWillLayoutSubviews()
                p.containerViewDidLayoutSubviews()
            },
            presented_view: { me in UIPresentationController.object(me)?.presentedView?.handle },
            user: Unmanaged.passRetained(self).toOpaque()))
        return t
    }()

    private func begin(_ ctx: OpaquePointer?, _ container: OpaquePointer?) {
        containerView = UIView.wrap(container) ?? containerView
        if let ctx { _ = TransHostTransitionContext.wrap(ctx) }
    }

    /// The host is done with this controller (its dismissal completed, or its presentation was
    /// cancelled): the retain the table held goes.
    private func release() {
        guard let user = table.pointee.user else { return }
        table.pointee.user = nil
        Unmanaged<UIPresentationController>.fromOpaque(user).release()
    }

    static func object(_ t: UnsafePointer<th_presentation_controller>?) -> UIPresentationController? {
        guard let user = t?.pointee.user else { return nil }
        return Unmanaged<UIPresentationController>.fromOpaque(user).takeUnretainedValue()
    }
}
