import CTransHost
import TransHostCore
import TransHostCoordinators


extension HostBridge {
    /// ABI 1.2: getters, the screen, controller relatives and operations, interactive context
    /// calls, image views, view transitions and gesture recognizers.
    static func addVersion1_2(_ t: inout th_host_api) {
        t.view_background_color = { v, out in
            guard let view = bridge()?.view(v, "view_background_color"), let c = view.backgroundColor else { return 0 }
            out?.pointee = th_color(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha)
            return 1
        }
        t.view_clear_background_color = { v in bridge()?.view(v, "view_clear_background_color")?.backgroundColor = nil }
        t.view_corner_radius = { v in bridge()?.view(v, "view_corner_radius")?.cornerRadius ?? 0 }
        t.view_clips_to_bounds = { v in bridge()?.view(v, "view_clips_to_bounds")?.clipsToBounds == true ? 1 : 0 }

        t.screen_bounds = { rect(bridge()?.app?.screenBounds ?? Rect(x: 0, y: 0, width: 320, height: 568)) }
        t.screen_scale = { bridge()?.app?.screenScale ?? 2 }

        t.controller_related = { c, relation in
            guard let b = bridge(), let vc = b.controller(c, "controller_related"), let app = b.app else { return nil }
            let r: ControllerRelation
            switch relation {
            case TH_RELATION_PRESENTING: r = .presenting
            case TH_RELATION_PRESENTED: r = .presented
            case TH_RELATION_NAVIGATION: r = .navigation
            case TH_RELATION_TAB: r = .tab
            case TH_RELATION_PARENT: r = .parent
            default:
                b.breach("invalid-value", "controller_related: \(relation.rawValue) is not a TH_RELATION_* value; NULL was returned")
                return nil
            }
            return app.related(vc, r).map { b.handles.handle(for: $0) }
        }
        t.controller_child_count = { c in
            guard let b = bridge(), let vc = b.controller(c, "controller_child_count") else { return 0 }
            return Int64(b.app?.children(of: vc).count ?? 0)
        }
        t.controller_child_at = { c, i in
            guard let b = bridge(), let vc = b.controller(c, "controller_child_at") else { return nil }
            let children = b.app?.children(of: vc) ?? []
            guard i >= 0, i < Int64(children.count) else {
                b.breach("invalid-value", "controller_child_at: index \(i) is outside 0..<\(children.count); NULL was returned")
                return nil
            }
            return b.handles.handle(for: children[Int(i)])
        }
        t.controller_presentation_style = { c in
            guard let b = bridge(), let vc = b.controller(c, "controller_presentation_style") else { return 0 }
            return Int32(b.app?.presentationStyle(of: vc) ?? 0)
        }
        t.controller_preferred_content_size = { c in
            _ = bridge()?.controller(c, "controller_preferred_content_size")
            return th_size(width: 0, height: 0)
        }
        t.controller_pop = { c, animated in
            bridge()?.operation("controller_pop", c) { app, vc in app.pop(vc, animated: animated != 0) } ?? 0
        }
        t.controller_push = { c, other, animated in
            guard let b = bridge(), let pushed = b.controller(other, "controller_push") else { return 0 }
            return b.operation("controller_push", c) { app, nav in app.push(pushed, on: nav, animated: animated != 0) }
        }
        t.controller_dismiss = { c, animated in
            bridge()?.operation("controller_dismiss", c) { app, vc in app.dismiss(vc, animated: animated != 0) } ?? 0
        }
        t.controller_select = { c, index, animated in
            bridge()?.operation("controller_select", c) { app, tabs in app.select(Int(clamping: index), in: tabs, animated: animated != 0) } ?? 0
        }

        t.context_presentation_style = { c in
            guard let b = bridge(), let ctx = b.context(c, "context_presentation_style") else { return 0 }
            // The presentation's style, on its dismissal too (whose to-controller is the presenter).
            return ctx.container == .modal ? Int32(ctx.coordinator.presentationStyle.rawValue) : 0
        }
        t.context_target_transform = { c in
            _ = bridge()?.context(c, "context_target_transform")
            return th_affine(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        }
        t.context_update_interactive = { c, percent in
            guard let b = bridge(), let i = b.pluginInteraction(c, "context_update_interactive") else { return }
            i.update(percent)
        }
        t.context_finish_interactive = { c, speed, curve in
            guard let b = bridge(), let i = b.pluginInteraction(c, "context_finish_interactive") else { return }
            i.completionSpeed = speed
            i.completionCurve = TimingCurve(optionBits: curve)
            i.finish()
        }
        t.context_cancel_interactive = { c, speed, curve in
            guard let b = bridge(), let i = b.pluginInteraction(c, "context_cancel_interactive") else { return }
            i.completionSpeed = speed
            i.completionCurve = TimingCurve(optionBits: curve)
            i.cancel()
        }

        t.view_set_image = { v, name in
            guard let b = bridge(), let view = b.view(v, "view_set_image") else { return }
            var content = view.content
            content.imagePath = nil
            if let name {
                let n = String(cString: name)
                if let path = b.app?.imagePath(n) {
                    content.imagePath = path
                } else {
                    b.logHandler("[\(b.currentPlugin)] warning: UIImage(named: \"\(n)\"): no such image beside the scenario; the image view stays empty")
                }
            }
            view.content = content
        }
        t.view_name = { v in
            guard let b = bridge(), let view = b.view(v, "view_name") else { return nil }
            return b.typeName(view.name)
        }
        t.view_image = { v in
            guard let b = bridge(), let view = b.view(v, "view_image"), let path = view.content.imagePath else { return nil }
            return b.typeName(path)
        }
        t.view_transition = { v, params, animations, completion, user in
            guard let b = bridge(), let view = b.view(v, "view_transition"), let p = b.checkedParams(params, "view_transition") else { return }
            b.playViewTransition(view, p, animations, completion, user)
        }
        t.view_add_gesture = { v, kind, edges, handler, user in
            guard let b = bridge(), let view = b.view(v, "view_add_gesture") else { return }
            guard let handler else { b.breach("invalid-value", "view_add_gesture got a NULL handler; the call was ignored"); return }
            guard kind == TH_GESTURE_PAN || kind == TH_GESTURE_SCREEN_EDGE_PAN else {
                b.breach("invalid-value", "view_add_gesture: kind \(kind) is not TH_GESTURE_PAN or TH_GESTURE_SCREEN_EDGE_PAN; the call was ignored")
                return
            }
            let plugin = b.currentPlugin
            let recognizer = PluginGestureRecognizer(view: view, kind: kind == TH_GESTURE_PAN ? .pan : .screenEdgePan, edges: edges) { state, tr, vel, loc in
                var e = th_gesture_event(struct_size: UInt32(MemoryLayout<th_gesture_event>.size),
                                         state: th_gesture_state(rawValue: UInt32(state)),
                                         translation: th_point(x: tr.x, y: tr.y), velocity: th_point(x: vel.x, y: vel.y),
                                         location: th_point(x: loc.x, y: loc.y))
                b.calling(plugin, "its gesture handler") { handler(&e, user) }
            }
            b.app?.addGestureRecognizer(recognizer)
        }
    }

    /// Runs an operation a plugin asked for on a controller; 1 when started or queued.
    func operation(_ call: String, _ c: OpaquePointer?, _ body: (PluginAppServices, ViewController) -> String?) -> Int32 {
        guard let vc = controller(c, call) else { return 0 }
        guard let app else { logHandler("[\(currentPlugin)] warning: \(call): no app to act on"); return 0 }
        if let refusal = body(app, vc) {
            logHandler("[\(currentPlugin)] warning: \(call) refused: \(refusal)")
            return 0
        }
        return 1
    }

    /// The plugin interaction controller driving this context's transition, or a warning.
    func pluginInteraction(_ c: OpaquePointer?, _ call: String) -> InteractionController? {
        guard let ctx = context(c, call) else { return nil }
        if let i = pluginInteractions.last(where: { $0.context === ctx }) { return i }
        logHandler("[\(currentPlugin)] warning: \(call): the transition is not driven by the plugin's interaction controller; the call was ignored")
        return nil
    }
}
