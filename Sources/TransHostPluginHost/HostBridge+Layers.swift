import CTransHost
#if canImport(Glibc)
import Glibc
#endif
import TransHostCore
import TransHostCoordinators

/// Storage for values the host hands back through layer_value and layer_animation_key_at:
/// valid until the next such call, as the header says.
final class LayerScratch {
    var numbers: UnsafeMutablePointer<Double>?
    var elements: UnsafeMutablePointer<th_path_element>?
    var string: UnsafeMutablePointer<CChar>?
    var key: UnsafeMutablePointer<CChar>?

    func reset() {
        numbers?.deallocate(); elements?.deallocate(); free(string)
        numbers = nil; elements = nil; string = nil
    }
    deinit { reset(); free(key) }
}

/// The keys a layer takes besides the animatable LayerProperty ones.
enum LayerFlagKey: String { case hidden, masksToBounds, doubleSided, fillRule, lineCap, lineJoin, lineDashPattern, name }

extension HostBridge {
    /// ABI 1.3 (layers and Core Animation): standalone layers, a view's layer by key, explicit
    /// animations with delegates, CATransaction and the media clock. A view's layer handle is
    /// the view's own handle; a standalone layer has its own.
    static func addVersion1_3(_ t: inout th_host_api) {
        t.layer_create = { kind in
            guard let b = bridge() else { return nil }
            let k: LayerKind
            switch kind {
            case TH_LAYER_PLAIN: k = .plain
            case TH_LAYER_SHAPE: k = .shape
            case TH_LAYER_GRADIENT: k = .gradient
            default:
                b.breach("invalid-value", "layer_create: \(kind) is not a TH_LAYER_* kind; a plain layer was made")
                k = .plain
            }
            return b.handles.handle(for: Layer(engine: b.engine, kind: k))
        }
        t.view_layer = { v in
            guard let b = bridge(), let view = b.view(v, "view_layer") else { return nil }
            return b.handles.handle(for: view)
        }
        t.layer_set_value = { h, key, value in
            guard let b = bridge(), let target = b.layerTarget(h, "layer_set_value") else { return 0 }
            guard let key, let value else { b.breach("invalid-value", "layer_set_value got a NULL key or value; the call was ignored"); return 0 }
            return b.setLayerValue(target, String(cString: key), value) ? 1 : 0
        }
        t.layer_value = { h, key, presentation, out in
            guard let b = bridge(), let target = b.layerTarget(h, "layer_value"), let key, let out else { return 0 }
            return b.layerValue(target, String(cString: key), presentation: presentation != 0, out) ? 1 : 0
        }
        t.layer_add_sublayer = { p, c in
            guard let b = bridge(), let parent = b.layerTarget(p, "layer_add_sublayer"), let child = b.standaloneLayer(c, "layer_add_sublayer") else { return }
            switch parent {
            case .view(let v): v.addSublayer(child)
            case .layer(let l): l.addSublayer(child)
            }
        }
        t.layer_insert_sublayer_at = { p, c, i in
            guard let b = bridge(), let parent = b.layerTarget(p, "layer_insert_sublayer_at"),
                  let child = b.standaloneLayer(c, "layer_insert_sublayer_at") else { return }
            let index = Int(clamping: i)
            switch parent {
            case .view(let v): v.insertSublayer(child, at: index)
            case .layer(let l): l.insertSublayer(child, at: index)
            }
        }
        t.layer_remove_from_superlayer = { h in
            guard let b = bridge(), let target = b.layerTarget(h, "layer_remove_from_superlayer") else { return }
            switch target {
            case .view(let v): v.removeFromSuperview()
            case .layer(let l): l.removeFromSuperlayer()
            }
        }
        t.layer_sublayer_count = { h in
            guard let b = bridge(), let target = b.layerTarget(h, "layer_sublayer_count") else { return 0 }
            return Int64(b.sublayers(of: target).count)
        }
        t.layer_sublayer_at = { h, i in
            guard let b = bridge(), let target = b.layerTarget(h, "layer_sublayer_at") else { return nil }
            let subs = b.sublayers(of: target)
            guard i >= 0, i < Int64(subs.count) else {
                b.breach("invalid-value", "layer_sublayer_at: index \(i) is outside 0..<\(subs.count); NULL was returned")
                return nil
            }
            return b.handles.handle(for: subs[Int(i)])
        }
        t.layer_set_mask = { h, m in
            guard let b = bridge(), let target = b.layerTarget(h, "layer_set_mask") else { return }
            let mask = m == nil ? nil : b.standaloneLayer(m, "layer_set_mask")
            if m != nil && mask == nil { return }
            switch target {
            case .view(let v): v.mask = mask
            case .layer(let l): l.mask = mask
            }
        }

        t.layer_add_animation = { h, anim, key, delegate, user in
            guard let b = bridge(), let target = b.layerTarget(h, "layer_add_animation") else { return 0 }
            guard let anim else { b.breach("invalid-value", "layer_add_animation got a NULL animation; the call was ignored"); return 0 }
            let plugin = b.currentPlugin
            var problem: String?
            guard let a = LayerAnimationReader.read(anim, depth: 0, problem: &problem) else {
                b.breach("invalid-value", "layer_add_animation: \(problem ?? "the animation is malformed"); it was not added")
                return 0
            }
            if case .group = a.kind {} else if let path = a.keyPath, LayerKeyPath(path) == nil {
                b.breach("invalid-value", "layer_add_animation: key path \"\(path)\" is not one transhost animates (docs/animation.md lists them); it was added but shows nothing")
            }
            let onStart: (() -> Void)? = delegate.map { d in { b.calling(plugin, "its animationDidStart") { d(0, 0, user) } } }
            let onStop: ((Bool) -> Void)? = delegate.map { d in { f in b.calling(plugin, "its animationDidStop") { d(1, f ? 1 : 0, user) } } }
            b.engine.coreAnimation.add(a, forKey: key.map { String(cString: $0) }, to: target, onStart: onStart, onStop: onStop)
            return 1
        }
        t.layer_remove_animation = { h, key in
            guard let b = bridge(), let target = b.layerTarget(h, "layer_remove_animation"), let key else { return }
            b.engine.coreAnimation.remove(key: String(cString: key), from: target)
        }
        t.layer_remove_all_animations = { h in
            guard let b = bridge(), let target = b.layerTarget(h, "layer_remove_all_animations") else { return }
            b.engine.coreAnimation.removeAll(from: target)
            if case .view(let v) = target { b.engine.removeAllAnimations(of: v) }
        }
        t.layer_animation_count = { h in
            guard let b = bridge(), let target = b.layerTarget(h, "layer_animation_count") else { return 0 }
            return Int64(b.engine.coreAnimation.keys(of: target).count)
        }
        t.layer_animation_key_at = { h, i in
            guard let b = bridge(), let target = b.layerTarget(h, "layer_animation_key_at") else { return nil }
            let keys = b.engine.coreAnimation.keys(of: target)
            guard i >= 0, i < Int64(keys.count) else { return nil }
            free(b.layerScratch.key)
            b.layerScratch.key = strdup(keys[Int(i)])
            return UnsafePointer(b.layerScratch.key)
        }

        t.transaction_begin = { bridge()?.engine.coreAnimation.beginTransaction() }
        t.transaction_commit = { bridge()?.engine.coreAnimation.commitTransaction() }
        t.transaction_set_duration = { d in
            guard let b = bridge() else { return }
            guard d.isFinite, d >= 0 else { b.breach("invalid-value", "transaction_set_duration got \(d); the call was ignored"); return }
            b.engine.coreAnimation.animationDuration = d
        }
        t.transaction_duration = { bridge()?.engine.coreAnimation.animationDuration ?? LayerAnimation.defaultDuration }
        t.transaction_set_timing_function = { c in
            guard let b = bridge() else { return }
            guard let c else { b.engine.coreAnimation.animationTimingFunction = nil; return }
            let v = [c[0], c[1], c[2], c[3]]
            guard b.finite(v, "transaction_set_timing_function") else { return }
            b.engine.coreAnimation.animationTimingFunction = UnitBezier(v[0], v[1], v[2], v[3])
        }
        t.transaction_set_disable_actions = { d in bridge()?.engine.coreAnimation.disableActions = d != 0 }
        t.transaction_disable_actions = { bridge()?.engine.coreAnimation.disableActions == true ? 1 : 0 }
        t.transaction_set_completion = { fn, user in
            guard let b = bridge() else { return }
            let plugin = b.currentPlugin
            b.engine.coreAnimation.setCompletionBlock(fn.map { f in { b.calling(plugin, "its CATransaction completion block") { f(user) } } })
        }
        t.media_time = { bridge()?.engine.now ?? 0 }
    }
}

extension HostBridge {
    func layerTarget(_ h: OpaquePointer?, _ call: String) -> LayerTarget? {
        if let l = handles.object(h, as: Layer.self) { return .layer(l) }
        if let v = handles.object(h, as: View.self) { return .view(v) }
        breach("invalid-handle", "\(call): \(h.map { "\($0)" } ?? "NULL") is not a layer handle; the call was ignored")
        return nil
    }

    func standaloneLayer(_ h: OpaquePointer?, _ call: String) -> Layer? {
        if let l = handles.object(h, as: Layer.self) { return l }
        if handles.object(h, as: View.self) != nil {
            breach("invalid-value", "\(call): a view's own layer cannot be a sublayer or a mask (add the view as a subview instead); the call was ignored")
        } else {
            breach("invalid-handle", "\(call): \(h.map { "\($0)" } ?? "NULL") is not a layer handle; the call was ignored")
        }
        return nil
    }

    func sublayers(of t: LayerTarget) -> [Layer] {
        switch t { case .view(let v): return v.sublayers; case .layer(let l): return l.sublayers }
    }
}
