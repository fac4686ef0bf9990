import CTransHost
import TransHostCore
import TransHostCoordinators

extension HostBridge {
    /// ABI 1.3: property animators (UIViewPropertyAnimator) and pauseInteractiveTransition.
    static func addPropertyAnimators(_ t: inout th_host_api) {
        t.property_animator_create = { duration, timing in
            guard let b = bridge() else { return nil }
            var d = duration
            if !d.isFinite || d < 0 { b.breach("invalid-value", "property_animator_create got duration \(duration); 0 was used"); d = 0 }
            let parsed = timing.map { b.timing($0, "property_animator_create") } ?? .some(.easeInOut)
            let animator = PropertyAnimator(engine: b.engine, duration: d, timing: parsed ?? .easeInOut)
            let plugin = b.currentPlugin
            animator.warningHandler = { [weak b] m in b?.breachHandler(ContractBreach(plugin: plugin, kind: "invalid-call", message: m)) }
            return b.handles.handle(for: animator)
        }
        t.property_animator_add_animations = { a, animations, user, delay in
            guard let b = bridge(), let animator = b.propertyAnimator(a, "property_animator_add_animations") else { return }
            guard let animations else { b.breach("invalid-value", "property_animator_add_animations got a NULL animations block; the call was ignored"); return }
            let plugin = b.currentPlugin
            animator.addAnimations({ b.calling(plugin, "its property animator's animations block") { animations(user) } },
                                   delayFactor: delay.isFinite ? delay : 0)
        }
        t.property_animator_add_completion = { a, completion, user in
            guard let b = bridge(), let animator = b.propertyAnimator(a, "property_animator_add_completion") else { return }
            guard let completion else { b.breach("invalid-value", "property_animator_add_completion got a NULL completion; the call was ignored"); return }
            let plugin = b.currentPlugin
            animator.addCompletion { position in
                b.calling(plugin, "its property animator's completion") { completion(th_animating_position(rawValue: UInt32(position.rawValue)), user) }
            }
        }
        t.property_animator_start = { a, delay in
            guard let b = bridge(), let animator = b.propertyAnimator(a, "property_animator_start") else { return }
            animator.startAnimation(afterDelay: delay.isFinite ? delay : 0)
        }
        t.property_animator_pause = { a in bridge()?.propertyAnimator(a, "property_animator_pause")?.pauseAnimation() }
        t.property_animator_stop = { a, without in bridge()?.propertyAnimator(a, "property_animator_stop")?.stopAnimation(without != 0) }
        t.property_animator_finish = { a, position in
            guard let b = bridge(), let animator = b.propertyAnimator(a, "property_animator_finish") else { return }
            guard let p = PropertyAnimator.Position(rawValue: Int(position.rawValue)) else {
                b.breach("invalid-value", "property_animator_finish: \(position.rawValue) is not a TH_POSITION_* value; the call was ignored")
                return
            }
            animator.finishAnimation(at: p)
        }
        t.property_animator_continue = { a, timing, factor in
            guard let b = bridge(), let animator = b.propertyAnimator(a, "property_animator_continue") else { return }
            var parsed: AnimatorTiming?
            if let timing {
                guard let t = b.timing(timing, "property_animator_continue") else { return }
                parsed = t
            }
            animator.continueAnimation(timing: parsed, durationFactor: factor)
        }
        t.property_animator_fraction = { a in bridge()?.propertyAnimator(a, "property_animator_fraction")?.fractionComplete ?? 0 }
        t.property_animator_set_fraction = { a, f in bridge()?.propertyAnimator(a, "property_animator_set_fraction")?.fractionComplete = f }
        t.property_animator_state = { a in
            th_animating_state(rawValue: UInt32(bridge()?.propertyAnimator(a, "property_animator_state")?.state.rawValue ?? 0))
        }
        t.property_animator_duration = { a in bridge()?.propertyAnimator(a, "property_animator_duration")?.duration ?? 0 }
        t.property_animator_flag = { a, flag in
            guard let b = bridge(), let animator = b.propertyAnimator(a, "property_animator_flag") else { return 0 }
            switch flag {
            case TH_ANIMATOR_REVERSED: return animator.isReversed ? 1 : 0
            case TH_ANIMATOR_INTERRUPTIBLE: return animator.isInterruptible ? 1 : 0
            case TH_ANIMATOR_SCRUBS_LINEARLY: return animator.scrubsLinearly ? 1 : 0
            case TH_ANIMATOR_PAUSES_ON_COMPLETION: return animator.pausesOnCompletion ? 1 : 0
            case TH_ANIMATOR_RUNNING: return animator.isRunning ? 1 : 0
            default:
                b.breach("invalid-value", "property_animator_flag: \(flag) is not a TH_ANIMATOR_* flag; 0 was returned")
                return 0
            }
        }
        t.property_animator_set_flag = { a, flag, value in
            guard let b = bridge(), let animator = b.propertyAnimator(a, "property_animator_set_flag") else { return }
            let on = value != 0
            switch flag {
            case TH_ANIMATOR_REVERSED: animator.isReversed = on
            case TH_ANIMATOR_INTERRUPTIBLE:
                if animator.state != .inactive {
                    b.breach("invalid-call", "isInterruptible was changed on a property animator that already started (UIKit raises); it was ignored")
                } else { animator.isInterruptible = on }
            case TH_ANIMATOR_SCRUBS_LINEARLY: animator.scrubsLinearly = on
            case TH_ANIMATOR_PAUSES_ON_COMPLETION: animator.pausesOnCompletion = on
            default:
                b.breach("invalid-value", "property_animator_set_flag: \(flag) is not a flag that can be set (TH_ANIMATOR_REVERSED ... PAUSES_ON_COMPLETION); the call was ignored")
            }
        }
        t.context_pause_interactive = { c, hostDrives in
            guard let b = bridge(), let ctx = b.context(c, "context_pause_interactive") else { return }
            let interaction = b.pluginInteractions.last(where: { $0.context === ctx }) ?? {
                let i = InteractionController()
                i.warningHandler = { [weak b] m in b?.logHandler("[\(b?.currentPlugin ?? "plugin")] warning: \(m)") }
                b.pluginInteractions.append(i)
                return i
            }()
            if let refusal = ctx.pauseInteractiveTransition(reportingTo: interaction, hostDrives: hostDrives != 0) {
                b.logHandler("[\(b.currentPlugin)] warning: pauseInteractiveTransition: \(refusal)")
            }
        }
    }

    func propertyAnimator(_ h: OpaquePointer?, _ call: String) -> PropertyAnimator? {
        if let a = handles.object(h, as: PropertyAnimator.self) { return a }
        breach("invalid-handle", "\(call): \(h.map { "\($0)" } ?? "NULL") is not a property animator handle; the call was ignored")
        return nil
    }

    /// Reads timing parameters from a plugin: a struct too small, an unknown kind or bad numbers
    /// are reported (nil: the call is ignored).
    func timing(_ p: UnsafePointer<th_timing_parameters>, _ call: String) -> AnimatorTiming? {
        let size = p.pointee.struct_size
        guard size >= UInt32(MemoryLayout<th_timing_parameters>.size) else {
            breach("invalid-value", "\(call) got timing parameters with struct_size \(size), smaller than th_timing_parameters of ABI 1.3 (\(MemoryLayout<th_timing_parameters>.size)); the call was ignored")
            return nil
        }
        let t = p.pointee
        let v = Self.scalarVelocity(t.initial_velocity)
        let numbers = [t.control_point1.x, t.control_point1.y, t.control_point2.x, t.control_point2.y, t.damping_ratio, t.mass, t.stiffness, t.damping, v]
        switch t.kind {
        case TH_TIMING_CUBIC:
            guard finite(Array(numbers[0..<4]), call) else { return nil }
            let x1 = min(max(t.control_point1.x, 0), 1), x2 = min(max(t.control_point2.x, 0), 1)
            if x1 != t.control_point1.x || x2 != t.control_point2.x {
                breach("invalid-value", "\(call): control point x values must lie in [0, 1] (got \(t.control_point1.x), \(t.control_point2.x)); they were clamped")
            }
            return .cubic(UnitBezier(x1, t.control_point1.y, x2, t.control_point2.y))
        case TH_TIMING_SPRING:
            guard finite([t.damping_ratio, v], call) else { return nil }
            var z = t.damping_ratio
            if z <= 0 || z > 1 { breach("invalid-value", "\(call) got damping ratio \(z), outside (0, 1]; it was clamped"); z = min(max(z, 1.1920929e-7), 1) }
            return .spring(dampingRatio: z, initialVelocity: v)
        case TH_TIMING_SPRING_PHYSICAL:
            guard finite([t.mass, t.stiffness, t.damping, v], call) else { return nil }
            guard t.mass > 0, t.stiffness > 0, t.damping >= 0 else {
                breach("invalid-value", "\(call) got mass \(t.mass), stiffness \(t.stiffness), damping \(t.damping); mass and stiffness must be > 0 and damping >= 0; the call was ignored")
                return nil
            }
            return .physicalSpring(mass: t.mass, stiffness: t.stiffness, damping: t.damping, initialVelocity: v)
        default:
            breach("invalid-value", "\(call): timing kind \(t.kind) is not TH_TIMING_CUBIC, _SPRING or _SPRING_PHYSICAL; the call was ignored")
            return nil
        }
    }

    /// The one velocity the host applies to every property (see th_timing_parameters).
    static func scalarVelocity(_ v: th_point) -> Double {
        if v.y == 0 { return v.x }
        if v.x == 0 { return v.y }
        let length = (v.x * v.x + v.y * v.y).squareRoot()
        return abs(v.x) >= abs(v.y) ? (v.x < 0 ? -length : length) : (v.y < 0 ? -length : length)
    }
}
