import CTransHost
import TransHostCore
import TransHostCoordinators

extension HostBridge {
    /// ABI 1.3 (presentation): the transition coordinator of a context, and the controllers'
    /// transitionCoordinator.
    static func addPresentation(_ t: inout th_host_api) {
        t.coordinator_animate_alongside = { c, animation, completion, user in
            guard let b = bridge(), let ctx = b.context(c, "coordinator_animate_alongside") else { return 0 }
            let plugin = b.currentPlugin
            return ctx.coordinator.animate(alongsideTransition: animation.map { fn in
                { b.calling(plugin, "its alongside animation") { fn(c, user) } }
            }, completion: completion.map { fn in
                { _ in b.calling(plugin, "its alongside completion") { fn(c, user) } }
            }) ? 1 : 0
        }
        t.coordinator_notify_interaction_changes = { c, handler, user in
            guard let b = bridge(), let ctx = b.context(c, "coordinator_notify_interaction_changes") else { return }
            guard let handler else {
                b.breach("invalid-value", "coordinator_notify_interaction_changes got a NULL handler; the call was ignored")
                return
            }
            let plugin = b.currentPlugin
            ctx.coordinator.notifyWhenInteractionChanges { _ in b.calling(plugin, "its interaction-change handler") { handler(c, user) } }
        }
        t.coordinator_is_interactive = { c in bridge()?.context(c, "coordinator_is_interactive")?.coordinator.isInteractive == true ? 1 : 0 }
        t.coordinator_percent_complete = { c in bridge()?.context(c, "coordinator_percent_complete")?.coordinator.percentComplete ?? 0 }
        t.coordinator_transition_duration = { c in bridge()?.context(c, "coordinator_transition_duration")?.coordinator.transitionDuration ?? 0 }
        t.coordinator_completion_velocity = { c in bridge()?.context(c, "coordinator_completion_velocity")?.coordinator.completionVelocity ?? 1 }
        t.coordinator_completion_curve = { c in
            guard let curve = bridge()?.context(c, "coordinator_completion_curve")?.coordinator.completionCurve else { return 0 }
            switch curve {
            case .easeIn: return TH_ANIM_CURVE_EASE_IN
            case .easeOut: return TH_ANIM_CURVE_EASE_OUT
            case .linear: return TH_ANIM_CURVE_LINEAR
            default: return TH_ANIM_CURVE_EASE_IN_OUT
            }
        }
        t.controller_transition_context = { c in
            guard let b = bridge(), let vc = b.controller(c, "controller_transition_context"),
                  let ctx = b.app?.runningTransition(involving: vc) else { return nil }
            return b.handles.handle(for: ctx)
        }
    }
}

/// A plugin's presentation controller (ABI 1.3 th_presentation_controller) for one presentation
/// and its dismissal: every call goes through the crash guard, named after the plugin.
public final class PluginPresentation {
    let plugin: String
    let table: UnsafePointer<th_presentation_controller>
    let bridge: HostBridge

    init(plugin: String, table: UnsafePointer<th_presentation_controller>, bridge: HostBridge) {
        self.plugin = plugin; self.table = table; self.bridge = bridge
    }

    /// Whether the plugin's struct reaches the field at `offset` of `size` bytes.
    private func has(_ key: PartialKeyPath<th_presentation_controller>, _ size: Int = MemoryLayout<UnsafeRawPointer>.size) -> Bool {
        guard let offset = MemoryLayout<th_presentation_controller>.offset(of: key) else { return false }
        return Int(table.pointee.struct_size) >= offset + size
    }

    /// frameOfPresentedViewInContainerView, or nil for the default (the container's bounds).
    /// A non-finite or negative-size frame is a breach and the default is used.
    public func frameOfPresentedView(in container: View) -> Rect? {
        guard has(\.frame_of_presented_view), let f = table.pointee.frame_of_presented_view else { return nil }
        let c = bridge.handles.handle(for: container)
        let r = bridge.calling(plugin, "its presentation controller's frame_of_presented_view") { f(table, c) }
        guard [r.x, r.y, r.width, r.height].allSatisfy({ $0.isFinite }), r.width >= 0, r.height >= 0 else {
            bridge.breachHandler(ContractBreach(plugin: plugin, kind: "invalid-value",
                message: "frame_of_presented_view returned (\(r.x), \(r.y), \(r.width), \(r.height)), not a finite frame with a non-negative size; the container's bounds were used"))
            return nil
        }
        return rect(r)
    }

    /// shouldRemovePresentersView, or nil for the default.
    public var shouldRemovePresentersView: Bool? {
        guard has(\.should_remove_presenters_view), let f = table.pointee.should_remove_presenters_view else { return nil }
        return bridge.calling(plugin, "its presentation controller's should_remove_presenters_view") { f(table) } != 0
    }

    public func willBegin(_ ctx: TransitionContext, container: View, presenting: Bool) {
        let fn = presenting ? (has(\.presentation_will_begin) ? table.pointee.presentation_will_begin : nil)
                            : (has(\.dismissal_will_begin) ? table.pointee.dismissal_will_begin : nil)
        guard let fn else { return }
        let c = bridge.handles.handle(for: ctx), v = bridge.handles.handle(for: container)
        bridge.calling(plugin, presenting ? "its presentation_will_begin" : "its dismissal_will_begin") { fn(table, c, v) }
    }

    public func didEnd(_ ctx: TransitionContext, presenting: Bool, completed: Bool) {
        let fn = presenting ? (has(\.presentation_did_end) ? table.pointee.presentation_did_end : nil)
                            : (has(\.dismissal_did_end) ? table.pointee.dismissal_did_end : nil)
        guard let fn else { return }
        let c = bridge.handles.handle(for: ctx)
        bridge.calling(plugin, presenting ? "its presentation_did_end" : "its dismissal_did_end") { fn(table, c, completed ? 1 : 0) }
    }

    /// presentedView, or nil for the presented controller's own view.
    public func presentedView() -> View? {
        guard has(\.presented_view), let fn = table.pointee.presented_view else { return nil }
        guard let h = bridge.calling(plugin, "its presentation controller's presented_view", { fn(table) }) else { return nil }
        guard let v = bridge.handles.object(h, as: View.self) else {
            bridge.breachHandler(ContractBreach(plugin: plugin, kind: "invalid-handle",
                message: "presented_view returned \(h), which is not a view handle; the presented controller's own view was used"))
            return nil
        }
        return v
    }

    public func containerWillLayout(_ container: View) {
        guard has(\.container_will_layout), let fn = table.pointee.container_will_layout else { return }
        let v = bridge.handles.handle(for: container)
        bridge.calling(plugin, "its container_will_layout") { fn(table, v) }
    }
}
