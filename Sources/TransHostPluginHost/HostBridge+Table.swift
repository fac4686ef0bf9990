import CTransHost
import TransHostCore
import TransHostCoordinators

/// C has no closures: every callback finds the session through HostBridge.current.
private func bridge() -> HostBridge? { HostBridge.current }

private func rect(_ r: Rect) -> th_rect { th_rect(x: r.minX, y: r.minY, width: r.width, height: r.height) }
private func rect(_ r: th_rect) -> Rect { Rect(x: r.x, y: r.y, width: r.width, height: r.height) }

extension HostBridge {
    static func makeTable() -> th_host_api {
        var t = th_host_api()
        t.struct_size = UInt32(MemoryLayout<th_host_api>.size)
        t.abi_major = UInt32(TH_ABI_MAJOR)
        t.abi_minor = UInt32(TH_ABI_MINOR)
        t.get_extension = { id in
            guard let id else { return nil }
            return HostBridge.extensionTable(String(cString: id))
        }
        t.log = { level, msg in
            guard let b = bridge(), let msg else { return }
            let names = ["debug", "info", "warning", "error"]
            let l = Int(level.rawValue)
            b.logHandler("[\(b.currentPlugin)] \(l < names.count ? names[l] : "log"): \(String(cString: msg))")
        }

        // Transition context.
        t.context_controller = { c, key in
            guard let b = bridge(), let ctx = b.context(c, "context_controller") else { return nil }
            return b.handles.handle(for: key == TH_KEY_FROM ? ctx.fromViewController : ctx.toViewController)
        }
        t.context_view = { c, key in
            guard let b = bridge(), let ctx = b.context(c, "context_view") else { return nil }
            return b.handles.handle(for: (key == TH_KEY_FROM ? ctx.fromViewController : ctx.toViewController).view)
        }
        t.context_container = { c in
            guard let b = bridge(), let ctx = b.context(c, "context_container") else { return nil }
            return b.handles.handle(for: ctx.containerView)
        }
        t.context_container_kind = { c in
            guard let b = bridge(), let ctx = b.context(c, "context_container_kind") else { return th_container(rawValue: 0) }
            switch ctx.container {
            case .navigation: return TH_CONTAINER_NAVIGATION
            case .tab: return TH_CONTAINER_TAB
            case .modal: return TH_CONTAINER_MODAL
            }
        }
        t.context_operation = { c in
            guard let b = bridge(), let ctx = b.context(c, "context_operation") else { return th_operation(rawValue: 0) }
            switch ctx.operation {
            case .push: return TH_OP_PUSH
            case .pop: return TH_OP_POP
            case .select: return TH_OP_SELECT
            case .present: return TH_OP_PRESENT
            case .dismiss: return TH_OP_DISMISS
            }
        }
        t.context_is_animated = { c in bridge()?.context(c, "context_is_animated")?.isAnimated == true ? 1 : 0 }
        t.context_is_interactive = { c in bridge()?.context(c, "context_is_interactive")?.isInteractive == true ? 1 : 0 }
        t.context_transition_was_cancelled = { c in
            bridge()?.context(c, "context_transition_was_cancelled")?.transitionWasCancelled == true ? 1 : 0
        }
        t.context_initial_frame = { c, vc in
            guard let b = bridge(), let ctx = b.context(c, "context_initial_frame"),
                  let v = b.controller(vc, "context_initial_frame") else { return th_rect() }
            return rect(ctx.initialFrame(for: v))
        }
        t.context_final_frame = { c, vc in
            guard let b = bridge(), let ctx = b.context(c, "context_final_frame"),
                  let v = b.controller(vc, "context_final_frame") else { return th_rect() }
            return rect(ctx.finalFrame(for: v))
        }
        t.context_complete_transition = { c, did in
            guard let b = bridge(), let ctx = b.context(c, "context_complete_transition") else { return }
            ctx.completeTransition(did != 0)
        }

        // Controllers.
        t.controller_view = { vc in
            guard let b = bridge(), let v = b.controller(vc, "controller_view") else { return nil }
            return b.handles.handle(for: v.view)
        }
        t.controller_type = { vc in
            guard let b = bridge(), let v = b.controller(vc, "controller_type") else { return nil }
            return b.typeName(v.typeName)
        }

        // Hierarchy.
        t.view_add_subview = { p, c in
            guard let b = bridge(), let parent = b.view(p, "view_add_subview"), let child = b.view(c, "view_add_subview") else { return }
            parent.addSubview(child)
        }
        t.view_insert_subview_at = { p, c, i in
            guard let b = bridge(), let parent = b.view(p, "view_insert_subview_at"), let child = b.view(c, "view_insert_subview_at") else { return }
            parent.insertSubview(child, at: Int(clamping: i))
        }
        t.view_insert_subview_above = { p, c, s in
            guard let b = bridge(), let parent = b.view(p, "view_insert_subview_above"), let child = b.view(c, "view_insert_subview_above"),
                  let sib = b.view(s, "view_insert_subview_above") else { return }
            parent.insertSubview(child, aboveSubview: sib)
        }
        t.view_insert_subview_below = { p, c, s in
            guard let b = bridge(), let parent = b.view(p, "view_insert_subview_below"), let child = b.view(c, "view_insert_subview_below"),
                  let sib = b.view(s, "view_insert_subview_below") else { return }
            parent.insertSubview(child, belowSubview: sib)
        }
        t.view_remove_from_superview = { v in bridge()?.view(v, "view_remove_from_superview")?.removeFromSuperview() }
        t.view_superview = { v in
            guard let b = bridge(), let view = b.view(v, "view_superview"), let s = view.superview else { return nil }
            return b.handles.handle(for: s)
        }

        // Geometry and appearance.
        t.view_frame = { v in bridge()?.view(v, "view_frame").map { rect($0.frame) } ?? th_rect() }
        t.view_set_frame = { v, r in
            guard let b = bridge(), let view = b.view(v, "view_set_frame"), b.finite([r.x, r.y, r.width, r.height], "view_set_frame") else { return }
            guard r.width >= 0, r.height >= 0 else {
                b.breach("invalid-value", "view_set_frame got a negative size \(r.width) x \(r.height); the call was ignored")
                return
            }
            view.frame = rect(r)
        }
        t.view_bounds = { v in bridge()?.view(v, "view_bounds").map { rect($0.bounds) } ?? th_rect() }
        t.view_set_bounds = { v, r in
            guard let b = bridge(), let view = b.view(v, "view_set_bounds"), b.finite([r.x, r.y, r.width, r.height], "view_set_bounds") else { return }
            guard r.width >= 0, r.height >= 0 else {
                b.breach("invalid-value", "view_set_bounds got a negative size \(r.width) x \(r.height); the call was ignored")
                return
            }
            view.bounds = rect(r)
        }
        t.view_center = { v in bridge()?.view(v, "view_center").map { th_point(x: $0.center.x, y: $0.center.y) } ?? th_point() }
        t.view_set_center = { v, p in
            guard let b = bridge(), let view = b.view(v, "view_set_center"), b.finite([p.x, p.y], "view_set_center") else { return }
            view.center = Point(x: p.x, y: p.y)
        }
        t.view_transform = { v in
            guard let t = bridge()?.view(v, "view_transform")?.transform else { return th_affine(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0) }
            return th_affine(a: t.a, b: t.b, c: t.c, d: t.d, tx: t.tx, ty: t.ty)
        }
        t.view_set_transform = { v, m in
            guard let b = bridge(), let view = b.view(v, "view_set_transform"), b.finite([m.a, m.b, m.c, m.d, m.tx, m.ty], "view_set_transform") else { return }
            view.transform = AffineTransform(a: m.a, b: m.b, c: m.c, d: m.d, tx: m.tx, ty: m.ty)
        }
        t.view_alpha = { v in bridge()?.view(v, "view_alpha")?.alpha ?? 0 }
        t.view_set_alpha = { v, a in
            guard let b = bridge(), let view = b.view(v, "view_set_alpha"), b.finite([a], "view_set_alpha") else { return }
            if a < 0 || a > 1 { b.breach("invalid-value", "view_set_alpha got \(a), outside [0, 1]; it was clamped") }
            view.alpha = min(max(a, 0), 1)
        }

        // Animation.
        t.animate = { params, animations, completion, user in
            guard let b = bridge() else { return }
            guard let params else { b.breach("invalid-value", "animate got NULL params; the call was ignored"); return }
            guard params.pointee.struct_size >= UInt32(MemoryLayout<th_animation_params>.size) else {
                b.breach("invalid-value", "animate got params with struct_size \(params.pointee.struct_size), smaller than th_animation_params (\(MemoryLayout<th_animation_params>.size)); the call was ignored")
                return
            }
            var p = params.pointee
            if !p.duration.isFinite || p.duration < 0 {
                b.breach("invalid-value", "animate got duration \(p.duration); 0 was used")
                p.duration = 0
            }
            if !p.delay.isFinite || p.delay < 0 {
                b.breach("invalid-value", "animate got delay \(p.delay); 0 was used")
                p.delay = 0
            }
            let plugin = b.currentPlugin
            b.engine.animate(AnimationParameters(duration: p.duration, delay: p.delay, options: p.options), animations: {
                if let animations { b.calling(plugin) { animations(user) } }
            }, completion: completion.map { done in { finished in b.calling(plugin) { done(finished ? 1 : 0, user) } } })
        }
        return t
    }
}
