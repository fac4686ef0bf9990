import CTransHost
import TransHostCore
import TransHostCoordinators
import TransHostManifest

extension HostBridge {
    /// Animation blocks: plain, spring and keyframe animations, and removing them.
    static func installAnimation(into t: inout th_host_api) {
        t.animate = { params, animations, completion, user in
            guard let b = bridge(), let p = b.checkedParams(params, "animate") else { return }
            b.run(p, keyframes: nil, animations, completion, user)
        }

        // ABI 1.1.
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
