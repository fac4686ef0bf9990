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
            guard let b = bridge(), let ctx = b.context(c, "context_controller"), b.validKey(key, "context_controller") else { return nil }
            return b.handles.handle(for: key == TH_KEY_FROM ? ctx.fromViewController : ctx.toViewController)
        }
        t.context_view = { c, key in
            guard let b = bridge(), let ctx = b.context(c, "context_view"), b.validKey(key, "context_view") else { return nil }
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
            if let problem = parent.subviewProblem(child) { b.breach("invalid-call", "view_add_subview: \(problem); the call was ignored"); return }
            parent.addSubview(child)
        }
        t.view_insert_subview_at = { p, c, i in
            guard let b = bridge(), let parent = b.view(p, "view_insert_subview_at"), let child = b.view(c, "view_insert_subview_at") else { return }
            if let problem = parent.subviewProblem(child) { b.breach("invalid-call", "view_insert_subview_at: \(problem); the call was ignored"); return }
            parent.insertSubview(child, at: Int(clamping: i))
        }
        t.view_insert_subview_above = { p, c, s in
            guard let b = bridge(), let parent = b.view(p, "view_insert_subview_above"), let child = b.view(c, "view_insert_subview_above"),
                  let sib = b.view(s, "view_insert_subview_above") else { return }
            if let problem = parent.subviewProblem(child) { b.breach("invalid-call", "view_insert_subview_above: \(problem); the call was ignored"); return }
            parent.insertSubview(child, aboveSubview: sib)
        }
        t.view_insert_subview_below = { p, c, s in
            guard let b = bridge(), let parent = b.view(p, "view_insert_subview_below"), let child = b.view(c, "view_insert_subview_below"),
                  let sib = b.view(s, "view_insert_subview_below") else { return }
            if let problem = parent.subviewProblem(child) { b.breach("invalid-call", "view_insert_subview_below: \(problem); the call was ignored"); return }
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
            guard let b = bridge(), let p = b.checkedParams(params, "animate") else { return }
            b.run(p, keyframes: nil, animations, completion, user)
        }
        addVersion1_1(&t)
        return t
    }

    /// ABI 1.1: layer geometry, view creation and lookup, snapshots, springs and keyframes.
    static func addVersion1_1(_ t: inout th_host_api) {
        t.view_anchor_point = { v in bridge()?.view(v, "view_anchor_point").map { th_point(x: $0.anchorPoint.x, y: $0.anchorPoint.y) } ?? th_point() }
        t.view_set_anchor_point = { v, p in
            guard let b = bridge(), let view = b.view(v, "view_set_anchor_point"), b.finite([p.x, p.y], "view_set_anchor_point") else { return }
            view.anchorPoint = Point(x: p.x, y: p.y)
        }
        t.view_transform3d = { v in
            let m = bridge()?.view(v, "view_transform3d")?.transform3D ?? .identity
            return th_transform3d(m11: m.m11, m12: m.m12, m13: m.m13, m14: m.m14, m21: m.m21, m22: m.m22, m23: m.m23, m24: m.m24,
                                  m31: m.m31, m32: m.m32, m33: m.m33, m34: m.m34, m41: m.m41, m42: m.m42, m43: m.m43, m44: m.m44)
        }
        t.view_set_transform3d = { v, m in
            let values = [m.m11, m.m12, m.m13, m.m14, m.m21, m.m22, m.m23, m.m24, m.m31, m.m32, m.m33, m.m34, m.m41, m.m42, m.m43, m.m44]
            guard let b = bridge(), let view = b.view(v, "view_set_transform3d"), b.finite(values, "view_set_transform3d") else { return }
            view.transform3D = Transform3D(values)
        }
        t.view_hidden = { v in bridge()?.view(v, "view_hidden")?.isHidden == true ? 1 : 0 }
        t.view_set_hidden = { v, h in bridge()?.view(v, "view_set_hidden")?.isHidden = h != 0 }
        t.view_set_background_color = { v, c in
            guard let b = bridge(), let view = b.view(v, "view_set_background_color"),
                  b.finite([c.red, c.green, c.blue, c.alpha], "view_set_background_color") else { return }
            func unit(_ x: Double) -> Double { min(max(x, 0), 1) }
            view.backgroundColor = Color(red: unit(c.red), green: unit(c.green), blue: unit(c.blue), alpha: unit(c.alpha))
        }
        t.view_set_corner_radius = { v, r in
            guard let b = bridge(), let view = b.view(v, "view_set_corner_radius"), b.finite([r], "view_set_corner_radius") else { return }
            if r < 0 { b.breach("invalid-value", "view_set_corner_radius got \(r); it was clamped to 0") }
            view.cornerRadius = max(r, 0)
        }
        t.view_set_clips_to_bounds = { v, c in bridge()?.view(v, "view_set_clips_to_bounds")?.clipsToBounds = c != 0 }

        t.view_create = { r in
            guard let b = bridge(), b.finite([r.x, r.y, r.width, r.height], "view_create") else { return nil }
            let view = View(engine: b.engine, frame: Rect(x: r.x, y: r.y, width: max(r.width, 0), height: max(r.height, 0)),
                            name: "\(b.currentPlugin) view")
            return b.handles.handle(for: view)
        }
        t.view_snapshot = { v, after in
            guard let b = bridge(), let view = b.view(v, "view_snapshot") else { return nil }
            return b.handles.handle(for: view.snapshotView(afterScreenUpdates: after != 0))
        }
        t.view_resizable_snapshot = { v, r, after, insets in
            guard let b = bridge(), let view = b.view(v, "view_resizable_snapshot"),
                  b.finite([r.x, r.y, r.width, r.height, insets.top, insets.left, insets.bottom, insets.right], "view_resizable_snapshot") else { return nil }
            let snap = view.resizableSnapshotView(from: Rect(x: r.x, y: r.y, width: max(r.width, 0), height: max(r.height, 0)),
                                                  afterScreenUpdates: after != 0,
                                                  withCapInsets: EdgeInsets(top: insets.top, left: insets.left, bottom: insets.bottom, right: insets.right))
            return b.handles.handle(for: snap)
        }
        t.view_find_named = { v, name in
            guard let b = bridge(), let root = b.view(v, "view_find_named") else { return nil }
            guard let name else { b.breach("invalid-value", "view_find_named got a NULL name; NULL was returned"); return nil }
            let wanted = String(cString: name)
            func find(_ view: View) -> View? {
                if view.name == wanted { return view }
                for s in view.subviews { if let f = find(s) { return f } }
                return nil
            }
            return find(root).map { b.handles.handle(for: $0) }
        }
        t.view_convert_rect = { f, r, to in
            guard let b = bridge(), let from = b.view(f, "view_convert_rect") else { return r }
            let target: View? = to == nil ? nil : b.view(to, "view_convert_rect")
            if to != nil && target == nil { return r }
            return rect(from.convert(rect(r), to: target))
        }
        t.view_subview_count = { v in Int64(bridge()?.view(v, "view_subview_count")?.subviews.count ?? 0) }
        t.view_subview_at = { v, i in
            guard let b = bridge(), let view = b.view(v, "view_subview_at") else { return nil }
            guard i >= 0, i < Int64(view.subviews.count) else {
                b.breach("invalid-value", "view_subview_at: index \(i) is outside 0..<\(view.subviews.count); NULL was returned")
                return nil
            }
            return b.handles.handle(for: view.subviews[Int(i)])
        }
        t.view_bring_to_front = { v in
            guard let view = bridge()?.view(v, "view_bring_to_front") else { return }
            view.superview?.bringSubviewToFront(view)
        }
        t.view_send_to_back = { v in
            guard let view = bridge()?.view(v, "view_send_to_back") else { return }
            view.superview?.sendSubviewToBack(view)
        }

        t.animate_spring = { params, damping, velocity, animations, completion, user in
            guard let b = bridge(), var p = b.checkedParams(params, "animate_spring") else { return }
            var zeta = damping, v = velocity
            if !zeta.isFinite || zeta <= 0 || zeta > 1 {
                b.breach("invalid-value", "animate_spring got damping ratio \(damping), outside (0, 1]; it was clamped")
                zeta = zeta.isFinite ? min(max(zeta, 1.1920929e-7), 1) : 1
            }
            if !v.isFinite { b.breach("invalid-value", "animate_spring got initial velocity \(velocity); 0 was used"); v = 0 }
            p.curve = .spring(dampingRatio: zeta, initialVelocity: v)
            b.run(p, keyframes: nil, animations, completion, user)
        }
        t.animate_keyframes = { params, animations, completion, user in
            guard let b = bridge(), let p = b.checkedParams(params, "animate_keyframes") else { return }
            b.run(p, keyframes: KeyframeCalculationMode(optionBits: p.options), animations, completion, user)
        }
        t.add_keyframe = { start, duration, animations, user in
            guard let b = bridge() else { return }
            guard b.finite([start, duration], "add_keyframe") else { return }
            let plugin = b.currentPlugin
            b.engine.addKeyframe(relativeStart: start, relativeDuration: duration) {
                if let animations { b.calling(plugin, "its add_keyframe animations block") { animations(user) } }
            }
        }
        t.view_remove_all_animations = { v in
            guard let b = bridge(), let view = b.view(v, "view_remove_all_animations") else { return }
            b.engine.removeAllAnimations(of: view)
        }
    }
}

extension HostBridge {
    /// Validates animation parameters from a plugin: NULL, a struct too small, a non-finite or
    /// negative duration or delay are reported (0 is used for the bad numbers).
    func checkedParams(_ params: UnsafePointer<th_animation_params>?, _ call: String) -> AnimationParameters? {
        guard let params else { breach("invalid-value", "\(call) got NULL params; the call was ignored"); return nil }
        let size = params.pointee.struct_size
        guard size >= HostABI.minimumAnimationParamsSize else {
            breach("invalid-value", "\(call) got params with struct_size \(size), smaller than th_animation_params of ABI 1.0 (\(HostABI.minimumAnimationParamsSize)); the call was ignored")
            return nil
        }
        // Only the bytes the plugin's struct_size covers are read; later fields keep defaults.
        var p = th_animation_params()
        withUnsafeMutableBytes(of: &p) { dst in
            dst.copyMemory(from: UnsafeRawBufferPointer(start: params, count: min(Int(size), dst.count)))
        }
        if !p.duration.isFinite || p.duration < 0 { breach("invalid-value", "\(call) got duration \(p.duration); 0 was used"); p.duration = 0 }
        if !p.delay.isFinite || p.delay < 0 { breach("invalid-value", "\(call) got delay \(p.delay); 0 was used"); p.delay = 0 }
        return AnimationParameters(duration: p.duration, delay: p.delay, options: p.options)
    }

    /// Runs an animation block for the current plugin; its callbacks are attributed to it.
    func run(_ p: AnimationParameters, keyframes: KeyframeCalculationMode?, _ animations: th_animations_fn?,
             _ completion: th_completion_fn?, _ user: UnsafeMutableRawPointer?) {
        let plugin = currentPlugin
        let body = { if let animations { self.calling(plugin, "its animations block") { animations(user) } } }
        let done: ((Bool) -> Void)? = completion.map { c in { finished in self.calling(plugin, "its completion block") { c(finished ? 1 : 0, user) } } }
        if let keyframes {
            engine.animateKeyframes(p, mode: keyframes, animations: body, completion: done)
        } else {
            engine.animate(p, animations: body, completion: done)
        }
    }
}
