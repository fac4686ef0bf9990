import CTransHost

/// UIViewController, seen through its handle.
public final class UIViewController: Equatable {
    public let handle: OpaquePointer
    init(handle: OpaquePointer) { self.handle = handle }
    public static func == (a: UIViewController, b: UIViewController) -> Bool { a.handle == b.handle }
    public var view: UIView { UIView(handle: host.controller_view(handle)!) }
    /// The controller's class name, as the scenario declares it.
    public var typeName: String { host.controller_type(handle).map { String(cString: $0) } ?? "" }
}

/// UITransitionContextViewControllerKey / ViewKey.
public enum UITransitionContextKey { case from, to
    var c: th_context_key { self == .from ? TH_KEY_FROM : TH_KEY_TO }
}

/// UIViewControllerContextTransitioning.
public final class UIViewControllerContextTransitioning {
    public let handle: OpaquePointer
    init(handle: OpaquePointer) { self.handle = handle }

    public enum Operation { case push, pop, select, present, dismiss }
    public enum Container { case navigation, tab, modal }

    public func viewController(forKey key: UITransitionContextKey) -> UIViewController {
        UIViewController(handle: host.context_controller(handle, key.c)!)
    }
    public func view(forKey key: UITransitionContextKey) -> UIView { UIView(handle: host.context_view(handle, key.c)!) }
    public var containerView: UIView { UIView(handle: host.context_container(handle)!) }
    public var isAnimated: Bool { host.context_is_animated(handle) != 0 }
    public var isInteractive: Bool { host.context_is_interactive(handle) != 0 }
    public var transitionWasCancelled: Bool { host.context_transition_was_cancelled(handle) != 0 }
    public func initialFrame(for vc: UIViewController) -> CGRect { CGRect(host.context_initial_frame(handle, vc.handle)) }
    public func finalFrame(for vc: UIViewController) -> CGRect { CGRect(host.context_final_frame(handle, vc.handle)) }
    public func completeTransition(_ didComplete: Bool) { host.context_complete_transition(handle, didComplete ? 1 : 0) }

    public var operation: Operation {
        switch host.context_operation(handle) {
        case TH_OP_PUSH: return .push
        case TH_OP_POP: return .pop
        case TH_OP_SELECT: return .select
        case TH_OP_PRESENT: return .present
        default: return .dismiss
        }
    }
    public var container: Container {
        switch host.context_container_kind(handle) {
        case TH_CONTAINER_NAVIGATION: return .navigation
        case TH_CONTAINER_TAB: return .tab
        default: return .modal
        }
    }
    /// Whether this is a forward transition (push, present, select) — the seeds' isPresenting.
    public var isPresenting: Bool { [.push, .present, .select].contains(operation) }
}

/// UIViewControllerAnimatedTransitioning.
public protocol UIViewControllerAnimatedTransitioning: AnyObject {
    /// The animator id the manifest routes to.
    var identifier: String { get }
    func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval
    func animateTransition(using transitionContext: UIViewControllerContextTransitioning)
    func animationEnded(_ transitionCompleted: Bool)
}

extension UIViewControllerAnimatedTransitioning {
    public func animationEnded(_ transitionCompleted: Bool) {}
}
