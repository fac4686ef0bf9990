import CTransHost

/// UIViewController: a scenario's controller, seen through its handle. Like views, each host
/// controller has one object in the plugin. The controllers are the scenario's: their classes
/// are names (`typeName`), not Swift classes, so `as? MyViewController` casts fail; compare
/// `typeName` instead.
open class UIViewController: NSObject {
    /// The host's handle, or nil for a controller the plugin made itself.
    public let handle: OpaquePointer?

    nonisolated(unsafe) static var registry: [OpaquePointer: UIViewController] = [:]

    init(transhostHandle h: OpaquePointer) {
        handle = h
        super.init()
        UIViewController.registry[h] = self
    }

    /// A controller of the plugin's own (not part of the scenario; it cannot be presented).
    public override init() { handle = nil; super.init() }
    public init(nibName: String?, bundle: Bundle?) { handle = nil; super.init() }
    /// How the kit makes the plugin's own classes for scenario controllers (see
    /// `TransHostExport(controllers:)`), as a storyboard does: through `init?(coder:)`, with a
    /// coder that carries the host's controller.
    public required init?(coder: NSCoder) {
        handle = (coder as? TransHostCoder)?.handle
        super.init()
        if let handle { UIViewController.registry[handle] = self }
    }

    static func wrap(_ h: OpaquePointer?) -> UIViewController? {
        guard let h else { return nil }
        if let c = registry[h] { return c }
        let type = host.controller_type(h).map { String(cString: $0) } ?? ""
        if let cls = KitPlugin.current?.controllerClasses[type] {
            if let vc = cls.init(coder: TransHostCoder(handle: h)), vc.handle == h {
                vc.viewDidLoad()
                return vc
            }
            kitWarning("\(type)'s init?(coder:) returned nil or did not call super.init(coder:); the controller is seen as a plain UIViewController")
        }
        switch type {
        case "UINavigationController": return UINavigationController(transhostHandle: h)
        case "UITabBarController": return UITabBarController(transhostHandle: h)
        default: return UIViewController(transhostHandle: h)
        }
    }

    private var ownView: UIView?
    /// The root view (UIKit's implicitly unwrapped `view`).
    open var view: UIView! {
        get {
            if let ownView { return ownView }
            if let handle, let v = UIView.wrap(host.controller_view(handle)) { return v }
            let v = UIView(frame: UIScreen.main.bounds)
            ownView = v
            return v
        }
        set { ownView = newValue }
    }
    open var viewIfLoaded: UIView? { view }
    open var isViewLoaded: Bool { true }

    /// The controller's class name, as the scenario declares it.
    public var typeName: String { handle.flatMap { host.controller_type($0) }.map { String(cString: $0) } ?? String(describing: type(of: self)) }
    open var title: String?

    func related(_ r: th_controller_relation) -> UIViewController? {
        guard let handle else { return nil }
        return UIViewController.wrap(host.controller_related(handle, r))
    }
    open var presentingViewController: UIViewController? { related(TH_RELATION_PRESENTING) }
    open var presentedViewController: UIViewController? { related(TH_RELATION_PRESENTED) }
    open var navigationController: UINavigationController? { related(TH_RELATION_NAVIGATION) as? UINavigationController }
    open var tabBarController: UITabBarController? { related(TH_RELATION_TAB) as? UITabBarController }
    open var parent: UIViewController? { related(TH_RELATION_PARENT) }
    open var children: [UIViewController] {
        guard let handle else { return [] }
        return (0..<host.controller_child_count(handle)).compactMap { UIViewController.wrap(host.controller_child_at(handle, $0)) }
    }

    private var ownStyle: UIModalPresentationStyle?
    open var modalPresentationStyle: UIModalPresentationStyle {
        get {
            if let ownStyle { return ownStyle }
            guard let handle else { return .fullScreen }
            return UIModalPresentationStyle(rawValue: Int(host.controller_presentation_style(handle))) ?? .fullScreen
        }
        set { ownStyle = newValue }
    }
    open var modalTransitionStyle: UIModalTransitionStyle = .coverVertical
    private var ownPreferredSize: CGSize?
    open var preferredContentSize: CGSize {
        get { ownPreferredSize ?? handle.map { CGSize(host.controller_preferred_content_size($0)) } ?? .zero }
        set { ownPreferredSize = newValue }
    }
    /// Kept for the plugin's own use: the host asks the delegates the manifest names.
    open weak var transitioningDelegate: UIViewControllerTransitioningDelegate?
    open var definesPresentationContext = false
    open var providesPresentationContextTransitionStyle = false

    /// The running transition's coordinator while this controller takes part in it (its from-
    /// or to-controller, the presenting one, or a container of one of them), else nil.
    open var transitionCoordinator: UIViewControllerTransitionCoordinator? {
        if let pending = TransHostTransitionCoordinator.pending { return pending }
        guard let handle, let ctx = TransHostTransitionContext.running(for: handle), !ctx.hasEnded else { return nil }
        return ctx.coordinator
    }

    /// Whether this controller is being presented / dismissed / pushed or popped by the running
    /// transition (UIKit's isBeingPresented, isBeingDismissed, isMovingToParent, isMovingFromParent).
    open var isBeingPresented: Bool { inRunningTransition(TH_OP_PRESENT, as: TH_KEY_TO) }
    open var isBeingDismissed: Bool { inRunningTransition(TH_OP_DISMISS, as: TH_KEY_FROM) }
    open var isMovingToParent: Bool { inRunningTransition(TH_OP_PUSH, as: TH_KEY_TO) }
    open var isMovingFromParent: Bool { inRunningTransition(TH_OP_POP, as: TH_KEY_FROM) }

    private func inRunningTransition(_ op: th_operation, as key: th_context_key) -> Bool {
        guard let handle, let ctx = TransHostTransitionContext.current, !ctx.hasEnded else { return false }
        return host.context_operation(ctx.handle) == op && host.context_controller(ctx.handle, key) == handle
    }

    /// dismiss(animated:completion:): dismisses the controller this one presented, or this one.
    /// The completion runs when the dismissal was started or queued (the host plays it on
    /// virtual time).
    open func dismiss(animated flag: Bool, completion: (() -> Void)? = nil) {
        guard let handle else { kitWarning("dismiss(animated:) on a controller the plugin made itself; it has nothing to dismiss"); return }
        if host.controller_dismiss(handle, flag ? 1 : 0) != 0 { completion?() }
    }

    /// present(_:animated:completion:) is not available: plugins cannot add controllers to the
    /// scenario; the scenario's script presents them.
    open func present(_ viewController: UIViewController, animated flag: Bool, completion: (() -> Void)? = nil) {
        kitWarning("present(_:animated:) from a plugin is not supported; the scenario's script presents controllers")
    }

    // Appearance callbacks are the host's (it records them in the trace); these exist so
    // subclasses compile.
    open func viewDidLoad() {}
    open func viewWillAppear(_ animated: Bool) {}
    open func viewDidAppear(_ animated: Bool) {}
    open func viewWillDisappear(_ animated: Bool) {}
    open func viewDidDisappear(_ animated: Bool) {}
    open func viewWillLayoutSubviews() {}
    open func viewDidLayoutSubviews() {}
}

/// The coder the kit hands to `init?(coder:)` of a plugin's controller class: it decodes
/// nothing and carries the host's controller.
public final class TransHostCoder: NSCoder {
    let handle: OpaquePointer
    init(handle: OpaquePointer) { self.handle = handle; super.init() }
    public override var allowsKeyedCoding: Bool { true }
    public override func containsValue(forKey key: String) -> Bool { false }
    public override func decodeObject(forKey key: String) -> Any? { nil }
}

/// UINavigationController: the scenario's navigation container.
open class UINavigationController: UIViewController {
    /// UINavigationController.Operation.
    public enum Operation: Int, Sendable { case none = 0, push = 1, pop = 2 }

    open weak var delegate: UINavigationControllerDelegate?
    open var viewControllers: [UIViewController] {
        get { children }
        set { kitWarning("setting viewControllers from a plugin is not supported; the scenario's script changes the stack") }
    }
    open var topViewController: UIViewController? { children.last }
    open var visibleViewController: UIViewController? { presentedViewController ?? topViewController }
    open var interactivePopGestureRecognizer: UIGestureRecognizer? { nil }
    open var isNavigationBarHidden = false

    @discardableResult
    open func popViewController(animated: Bool) -> UIViewController? {
        guard let handle else { return nil }
        let top = topViewController
        return host.controller_pop(handle, animated ? 1 : 0) != 0 ? top : nil
    }
    open func pushViewController(_ viewController: UIViewController, animated: Bool) {
        guard let handle, let other = viewController.handle else {
            kitWarning("pushViewController: only the scenario's controllers can be pushed")
            return
        }
        _ = host.controller_push(handle, other, animated ? 1 : 0)
    }
    @discardableResult
    open func popToRootViewController(animated: Bool) -> [UIViewController]? {
        kitWarning("popToRootViewController(animated:) from a plugin is not supported; it pops one controller")
        return popViewController(animated: animated).map { [$0] }
    }
}

/// UITabBarController: the scenario's tab container.
open class UITabBarController: UIViewController {
    open weak var delegate: UITabBarControllerDelegate?
    open var viewControllers: [UIViewController]? { children }
    open var selectedIndex: Int {
        get {
            children.firstIndex { $0 === selectedViewController } ?? 0
        }
        set {
            guard let handle else { return }
            _ = host.controller_select(handle, Int64(newValue), 1)
        }
    }
    open var selectedViewController: UIViewController? {
        get { children.first { $0.view.superview != nil && $0.view.isDescendant(of: view) } }
        set { if let i = children.firstIndex(where: { $0 === newValue }) { selectedIndex = i } }
    }
}

/// UIModalPresentationStyle (UIKit's values).
public enum UIModalPresentationStyle: Int, Sendable {
    case fullScreen = 0, pageSheet = 1, formSheet = 2, currentContext = 3, custom = 4, overFullScreen = 5
    case overCurrentContext = 6, popover = 7, none = -1, automatic = -2
}

/// UIModalTransitionStyle.
public enum UIModalTransitionStyle: Int, Sendable { case coverVertical = 0, flipHorizontal, crossDissolve, partialCurl }

/// UIScreen: `UIScreen.main` is the scenario's device.
open class UIScreen: NSObject {
    public static var main: UIScreen { UIScreen() }
    open var bounds: CGRect { CGRect(host.screen_bounds()) }
    open var nativeBounds: CGRect { CGRect(x: 0, y: 0, width: bounds.width * scale, height: bounds.height * scale) }
    open var scale: CGFloat { CGFloat(host.screen_scale()) }
    open var nativeScale: CGFloat { scale }
}
