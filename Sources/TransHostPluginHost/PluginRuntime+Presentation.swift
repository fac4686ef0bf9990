import CTransHost
import TransHostCore
import TransHostCoordinators
import TransHostManifest
import TransHostRouting

/// ABI 1.3 presentation controllers: the delegate a present's route names is asked for one
/// (presentationController(forPresented:presenting:source:)), as UIKit asks the presented
/// controller's transitioning delegate for a `.custom` presentation.
extension PluginRuntime {
    /// The plugin presentation controller for presenting `presented` from `presenting`, or nil
    /// (no delegate route wins, the delegate predates ABI 1.3 or answers NULL, or the plugin
    /// cannot be loaded: the host's own controller then serves the presentation).
    public func pluginPresentation(forPresented presented: ViewController, presenting: ViewController,
                                   source: ViewController) -> PluginPresentation? {
        let query = RouteQuery(container: .modal, operation: .present, from: presenting.typeName, to: presented.typeName)
        guard let winner = router.resolve(query).winner, winner.rule.isDelegate else { return nil }
        do {
            let p = try plugin(named: winner.rule.plugin)
            let d = try p.delegate(winner.rule.animator, bridge: bridge)
            guard let offset = MemoryLayout<th_delegate>.offset(of: \.presentation_controller_for),
                  Int(d.pointee.struct_size) >= offset + MemoryLayout<UnsafeRawPointer>.size,
                  let ask = d.pointee.presentation_controller_for else { return nil }
            var r = transitionRequest(TransitionRequest(container: .modal, operation: .present, from: presenting, to: presented))
            r.source = bridge.handles.handle(for: source)
            guard let table = bridge.calling(p.name, "its delegate's presentation_controller_for", { ask(d, &r) }) else { return nil }
            guard table.pointee.struct_size >= UInt32(MemoryLayout<UInt32>.size) else {
                warningHandler("plugin \(p.name): its delegate returned a th_presentation_controller with struct_size \(table.pointee.struct_size); the host's presentation controller was used for \(query.summary)")
                return nil
            }
            return PluginPresentation(plugin: p.name, table: table, bridge: bridge)
        } catch {
            warningHandler("\(error); the host's presentation controller was used for \(query.summary)")
            return nil
        }
    }
}

/// UIKit consults the transitioning delegate for a `.custom` presentation only; the other styles
/// keep the host's presentation controller.
extension PluginRuntime: PresentationControllerProvider {
    public func presentationController(forPresented presented: ViewController, presenting: ViewController,
                                       source: ViewController, style: ModalPresentationStyle) -> PresentationController? {
        guard style == .custom, let p = pluginPresentation(forPresented: presented, presenting: presenting, source: source) else { return nil }
        return PluginPresentationController(plugin: p, presented: presented, presenting: presenting, source: source,
                                            context: { [weak self] in self?.runningContext() })
    }
}

/// The host's PresentationController backed by a plugin's th_presentation_controller: what the
/// plugin leaves NULL keeps the host's default for the custom style.
final class PluginPresentationController: PresentationController {
    let plugin: PluginPresentation
    let context: () -> TransitionContext?

    init(plugin: PluginPresentation, presented: ViewController, presenting: ViewController, source: ViewController,
         context: @escaping () -> TransitionContext?) {
        self.plugin = plugin
        self.context = context
        super.init(presentedViewController: presented, presenting: presenting, source: source, style: .custom)
    }

    override var frameOfPresentedViewInContainerView: Rect {
        guard let containerView, let f = plugin.frameOfPresentedView(in: containerView) else { return super.frameOfPresentedViewInContainerView }
        return f
    }

    override var shouldRemovePresentersView: Bool { plugin.shouldRemovePresentersView ?? super.shouldRemovePresentersView }

    /// Asked of the plugin once and kept: the host reads it at every step of the presentation.
    private var wrapper: View??
    override var presentedView: View? {
        if wrapper == nil { wrapper = .some(plugin.presentedView()) }
        return wrapper! ?? super.presentedView
    }

    override func presentationTransitionWillBegin() { willBegin(presenting: true) }
    override func dismissalTransitionWillBegin() { willBegin(presenting: false) }
    override func presentationTransitionDidEnd(_ completed: Bool) { didEnd(presenting: true, completed) }
    override func dismissalTransitionDidEnd(_ completed: Bool) { didEnd(presenting: false, completed) }

    override func containerViewWillLayoutSubviews() {
        if let containerView { plugin.containerWillLayout(containerView) }
    }

    private func willBegin(presenting: Bool) {
        guard let ctx = context(), let containerView else { return }
        plugin.willBegin(ctx, container: containerView, presenting: presenting)
    }

    private func didEnd(presenting: Bool, _ completed: Bool) {
        guard let ctx = context() else { return }
        plugin.didEnd(ctx, presenting: presenting, completed: completed)
    }
}
