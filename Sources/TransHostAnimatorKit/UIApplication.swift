/// UIWindow: the root of the scenario's hierarchy (the screen).
open class UIWindow: UIView {
    open var rootViewController: UIViewController?
    open var isKeyWindow: Bool { true }
    open func makeKeyAndVisible() {}
    public override init(frame: CGRect) { super.init(frame: frame) }
    public required init?(coder: NSCoder) { super.init(coder: coder) }
    override init(transhostHandle h: OpaquePointer) { super.init(transhostHandle: h) }
}

/// UIApplication: `UIApplication.shared.keyWindow` (and `windows`) is the scenario's window.
/// Touch handling does not exist here, so ignoring interaction events does nothing.
open class UIApplication: NSObject {
    public static let shared = UIApplication()
    open var keyWindow: UIWindow? {
        if let ctx = TransHostTransitionContext.current { return ctx.containerView.window }
        return UIView.registry.values.lazy.compactMap(\.window).first
    }
    open var windows: [UIWindow] { keyWindow.map { [$0] } ?? [] }
    open var isIgnoringInteractionEvents: Bool { false }
    open func beginIgnoringInteractionEvents() {}
    open func endIgnoringInteractionEvents() {}
    open var statusBarFrame: CGRect { CGRect(x: 0, y: 0, width: UIScreen.main.bounds.width, height: 20) }
}
