import CTransHost

/// CAMediaTimingFunction: a cubic Bezier timing curve from (0, 0) to (1, 1).
open class CAMediaTimingFunction: NSObject {
    public let controlPoints: (Float, Float, Float, Float)
    public init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        controlPoints = (c1x, c1y, c2x, c2y); super.init()
    }
    public convenience init(name: CAMediaTimingFunctionName) {
        switch name {
        case .linear: self.init(controlPoints: 0, 0, 1, 1)
        case .easeIn: self.init(controlPoints: 0.42, 0, 1, 1)
        case .easeOut: self.init(controlPoints: 0, 0, 0.58, 1)
        case .easeInEaseOut: self.init(controlPoints: 0.42, 0, 0.58, 1)
        default: self.init(controlPoints: 0.25, 0.1, 0.25, 1)
        }
    }
    /// getControlPoint(at:values:): index 0 is (0, 0), 1 and 2 the control points, 3 is (1, 1).
    public func getControlPoint(at index: Int, values ptr: UnsafeMutablePointer<Float>) {
        let c = controlPoints
        let pts: [(Float, Float)] = [(0, 0), (c.0, c.1), (c.2, c.3), (1, 1)]
        let p = pts[min(max(index, 0), 3)]
        ptr[0] = p.0; ptr[1] = p.1
    }
    var numbers: [Double] { [Double(controlPoints.0), Double(controlPoints.1), Double(controlPoints.2), Double(controlPoints.3)] }
}

public struct CAMediaTimingFillMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let removed = CAMediaTimingFillMode(rawValue: "removed")
    public static let forwards = CAMediaTimingFillMode(rawValue: "forwards")
    public static let backwards = CAMediaTimingFillMode(rawValue: "backwards")
    public static let both = CAMediaTimingFillMode(rawValue: "both")
    var th: UInt32 {
        switch self {
        case .forwards: return TH_FILL_FORWARDS
        case .backwards: return TH_FILL_BACKWARDS
        case .both: return TH_FILL_BOTH
        default: return TH_FILL_REMOVED
        }
    }
}

public struct CAAnimationCalculationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let linear = CAAnimationCalculationMode(rawValue: "linear")
    public static let discrete = CAAnimationCalculationMode(rawValue: "discrete")
    public static let paced = CAAnimationCalculationMode(rawValue: "paced")
    public static let cubic = CAAnimationCalculationMode(rawValue: "cubic")
    public static let cubicPaced = CAAnimationCalculationMode(rawValue: "cubicPaced")
    var th: UInt32 {
        switch self {
        case .discrete: return TH_KEYFRAME_CALC_DISCRETE
        case .paced: return TH_KEYFRAME_CALC_PACED
        case .cubic: return TH_KEYFRAME_CALC_CUBIC
        case .cubicPaced: return TH_KEYFRAME_CALC_CUBIC_PACED
        default: return TH_KEYFRAME_CALC_LINEAR
        }
    }
}

public struct CAAnimationRotationMode: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let rotateAuto = CAAnimationRotationMode(rawValue: "auto")
    public static let rotateAutoReverse = CAAnimationRotationMode(rawValue: "autoReverse")
}

/// CAAnimationDelegate. Both methods are optional, as in UIKit (empty defaults).
public protocol CAAnimationDelegate: AnyObject {
    func animationDidStart(_ anim: CAAnimation)
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool)
}
extension CAAnimationDelegate {
    public func animationDidStart(_ anim: CAAnimation) {}
    public func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {}
}

/// CAAnimation: the timing every animation has (CAMediaTiming), on the host's virtual clock.
/// `beginTime` is in CACurrentMediaTime()'s seconds (0: when added); in a group, seconds after
/// the group's start.
open class CAAnimation: NSObject, NSCopying {
    open var duration: TimeInterval = 0
    open var beginTime: TimeInterval = 0
    open var timingFunction: CAMediaTimingFunction?
    open var fillMode: CAMediaTimingFillMode = .removed
    open var isRemovedOnCompletion = true
    open var autoreverses = false
    open var repeatCount: Float = 0
    open var repeatDuration: TimeInterval = 0
    open var speed: Float = 1
    open var timeOffset: TimeInterval = 0
    /// Retained, as Core Animation retains an animation's delegate.
    open var delegate: CAAnimationDelegate?

    public required override init() { super.init() }

    open func copy(with zone: NSZone? = nil) -> Any {
        let c = type(of: self).init()
        copyFields(to: c)
        return c
    }
    func copyFields(to c: CAAnimation) {
        c.duration = duration; c.beginTime = beginTime; c.timingFunction = timingFunction; c.fillMode = fillMode
        c.isRemovedOnCompletion = isRemovedOnCompletion; c.autoreverses = autoreverses; c.repeatCount = repeatCount
        c.repeatDuration = repeatDuration; c.speed = speed; c.timeOffset = timeOffset; c.delegate = delegate
    }

    /// The C description (nil with a warning when a value cannot cross the ABI).
    func th(_ arena: CArena) -> th_layer_animation? {
        var a = th_layer_animation()
        a.struct_size = UInt32(MemoryLayout<th_layer_animation>.size)
        a.duration = duration.isFinite ? max(duration, 0) : 0
        a.begin_time = beginTime
        a.speed = Double(speed)
        a.time_offset = timeOffset
        a.repeat_count = Double(repeatCount)
        a.repeat_duration = repeatDuration
        a.autoreverses = autoreverses ? 1 : 0
        a.removed_on_completion = isRemovedOnCompletion ? 1 : 0
        a.fill_mode = fillMode.th
        if let f = timingFunction {
            a.has_timing_function = 1
            let n = f.numbers
            a.timing_function = (n[0], n[1], n[2], n[3])
        }
        return a
    }
}

/// CAPropertyAnimation: an animation of one key path ("position", "transform.rotation.z", ...).
open class CAPropertyAnimation: CAAnimation {
    open var keyPath: String?
    open var isAdditive = false
    open var isCumulative = false
    public convenience init(keyPath path: String?) { self.init(); keyPath = path }
    override func copyFields(to c: CAAnimation) {
        super.copyFields(to: c)
        guard let p = c as? CAPropertyAnimation else { return }
        p.keyPath = keyPath; p.isAdditive = isAdditive; p.isCumulative = isCumulative
    }
    override func th(_ arena: CArena) -> th_layer_animation? {
        guard var a = super.th(arena) else { return nil }
        a.key_path = arena.cString(keyPath)
        a.additive = isAdditive ? 1 : 0
        return a
    }
    /// A boxed value as the ABI takes it; nil (with a warning) for a type it cannot carry.
    func value(_ any: Any?, _ name: String, _ arena: CArena) -> (ok: Bool, ptr: UnsafePointer<th_layer_value>?) {
        guard let any else { return (true, nil) }
        guard let v = CAValue(any) else {
            kitWarning("\(type(of: self)) \(keyPath ?? ""): \(name) of type \(type(of: any)) cannot be animated here (numbers, CGPoint, CGSize, CGRect, CATransform3D, CGColor, CGPath and arrays of them can); the animation was not added")
            return (false, nil)
        }
        return (true, arena.one(arena.value(v)))
    }
}

/// CABasicAnimation: from `fromValue` to `toValue` (or by `byValue`), as Core Animation pairs
/// them; a missing end is the layer's current value.
open class CABasicAnimation: CAPropertyAnimation {
    open var fromValue: Any?
    open var toValue: Any?
    open var byValue: Any?
    override func copyFields(to c: CAAnimation) {
        super.copyFields(to: c)
        guard let b = c as? CABasicAnimation else { return }
        b.fromValue = fromValue; b.toValue = toValue; b.byValue = byValue
    }
    override func th(_ arena: CArena) -> th_layer_animation? {
        guard var a = super.th(arena) else { return nil }
        a.kind = TH_CA_BASIC
        let f = value(fromValue, "fromValue", arena), t = value(toValue, "toValue", arena), b = value(byValue, "byValue", arena)
        guard f.ok, t.ok, b.ok else { return nil }
        a.from = f.ptr; a.to = t.ptr; a.by = b.ptr
        return a
    }
}

/// CASpringAnimation: a damped spring (mass, stiffness, damping, initialVelocity) from/to/by;
/// set `duration = settlingDuration` to see it settle, as in UIKit.
open class CASpringAnimation: CABasicAnimation {
    open var mass: CGFloat = 1
    open var stiffness: CGFloat = 100
    open var damping: CGFloat = 10
    open var initialVelocity: CGFloat = 0
    /// The time after which the spring stays within 0.001 of its target.
    open var settlingDuration: TimeInterval {
        let m = Double(mass > 0 ? mass : 1), k = Double(max(stiffness, 1e-9)) / m, c = Double(max(damping, 0)) / m
        let w0 = k.squareRoot(), zeta = c / (2 * w0), v = Double(initialVelocity)
        func x(_ t: Double) -> Double {
            if zeta < 1 {
                let wd = w0 * (1 - zeta * zeta).squareRoot()
                return exp(-zeta * w0 * t) * (cos(wd * t) + ((zeta * w0 - v) / wd) * sin(wd * t))
            } else if zeta == 1 {
                return (1 + (w0 - v) * t) * exp(-w0 * t)
            }
            let b = zeta * w0, g = w0 * (zeta * zeta - 1).squareRoot()
            return ((b + g - v) / (2 * g)) * exp((g - b) * t) + ((g - b + v) / (2 * g)) * exp(-(b + g) * t)
        }
        var last = 0.0, t = 0.0
        while t <= 60 { if abs(x(t)) >= 0.001 { last = t }; t += 0.001 }
        return ((last + 0.001) * 1000).rounded() / 1000
    }
    public convenience init(keyPath path: String?) { self.init(); keyPath = path }
    override func copyFields(to c: CAAnimation) {
        super.copyFields(to: c)
        guard let s = c as? CASpringAnimation else { return }
        s.mass = mass; s.stiffness = stiffness; s.damping = damping; s.initialVelocity = initialVelocity
    }
    override func th(_ arena: CArena) -> th_layer_animation? {
        guard var a = super.th(arena) else { return nil }
        a.kind = TH_CA_SPRING
        a.mass = Double(mass); a.stiffness = Double(stiffness); a.damping = Double(damping); a.initial_velocity = Double(initialVelocity)
        return a
    }
}

/// CAKeyframeAnimation: `values` at `keyTimes`, each segment shaped by its timing function; or
/// a point moving along `path` (for "position"), turned with it by `rotationMode`.
open class CAKeyframeAnimation: CAPropertyAnimation {
    open var values: [Any]?
    open var keyTimes: [NSNumber]?
    open var timingFunctions: [CAMediaTimingFunction]?
    open var calculationMode: CAAnimationCalculationMode = .linear
    open var path: CGPath?
    open var rotationMode: CAAnimationRotationMode?
    public convenience init(keyPath path: String?) { self.init(); keyPath = path }
    override func copyFields(to c: CAAnimation) {
        super.copyFields(to: c)
        guard let k = c as? CAKeyframeAnimation else { return }
        k.values = values; k.keyTimes = keyTimes; k.timingFunctions = timingFunctions
        k.calculationMode = calculationMode; k.path = path; k.rotationMode = rotationMode
    }
    override func th(_ arena: CArena) -> th_layer_animation? {
        guard var a = super.th(arena) else { return nil }
        a.kind = TH_CA_KEYFRAME
        var vs: [th_layer_value] = []
        for (i, v) in (values ?? []).enumerated() {
            guard let x = CAValue(v) else {
                kitWarning("CAKeyframeAnimation \(keyPath ?? ""): value \(i) of type \(type(of: v)) cannot be animated here; the animation was not added")
                return nil
            }
            vs.append(arena.value(x))
        }
        a.values = arena.array(vs); a.value_count = UInt64(vs.count)
        if let k = keyTimes { a.key_times = arena.array(k.map(\.doubleValue)); a.key_time_count = UInt64(k.count) }
        if let f = timingFunctions { a.timing_functions = arena.array(f.flatMap(\.numbers)); a.timing_function_count = UInt64(f.count) }
        a.calculation_mode = calculationMode.th
        if let r = rotationMode { a.rotation_mode = r == .rotateAutoReverse ? TH_ROTATION_AUTO_REVERSE : TH_ROTATION_AUTO }
        if let p = path { let e = p.th; a.path = arena.array(e); a.path_count = UInt64(e.count) }
        return a
    }
}

/// CAAnimationGroup: its animations run in the group's time (their beginTime is after the
/// group's start) and are cut at the group's duration. Their delegates are not called.
open class CAAnimationGroup: CAAnimation {
    open var animations: [CAAnimation]?
    override func copyFields(to c: CAAnimation) {
        super.copyFields(to: c)
        (c as? CAAnimationGroup)?.animations = animations?.map { $0.copy() as! CAAnimation }
    }
    override func th(_ arena: CArena) -> th_layer_animation? {
        guard var a = super.th(arena) else { return nil }
        a.kind = TH_CA_GROUP
        var members: [UnsafePointer<th_layer_animation>?] = []
        for m in animations ?? [] {
            guard let x = m.th(arena) else { return nil }
            members.append(arena.one(x))
        }
        a.animations = arena.array(members); a.animation_count = UInt64(members.count)
        return a
    }
}

/// Carries an added animation (and so its delegate) until its stop.
final class AnimationDelegateBox {
    let animation: CAAnimation
    var onStop: (() -> Void)?
    init(animation: CAAnimation) { self.animation = animation }
}

let caAnimationTrampoline: th_layer_animation_fn = { event, finished, user in
    guard let user else { return }
    let box = Unmanaged<AnimationDelegateBox>.fromOpaque(user)
    let b = box.takeUnretainedValue()
    if event == 0 {
        b.animation.delegate?.animationDidStart(b.animation)
    } else {
        b.animation.delegate?.animationDidStop(b.animation, finished: finished != 0)
        b.onStop?()
        box.release()
    }
}

/// CATransaction: groups layer changes; its duration and timing function apply to the implicit
/// animations of standalone layers, and its completion block runs once every animation added
/// while it was open has stopped.
open class CATransaction: NSObject {
    open class func begin() { host.transaction_begin() }
    open class func commit() { host.transaction_commit() }
    /// Does nothing: the host shows changes at once (there is no render server to flush to).
    open class func flush() {}
    open class func animationDuration() -> TimeInterval { host.transaction_duration() }
    open class func setAnimationDuration(_ d: TimeInterval) { host.transaction_set_duration(d) }
    open class func animationTimingFunction() -> CAMediaTimingFunction? { storedTiming }
    open class func setAnimationTimingFunction(_ f: CAMediaTimingFunction?) {
        storedTiming = f
        if let f { f.numbers.withUnsafeBufferPointer { host.transaction_set_timing_function($0.baseAddress) } }
        else { host.transaction_set_timing_function(nil) }
    }
    open class func disableActions() -> Bool { host.transaction_disable_actions() != 0 }
    open class func setDisableActions(_ flag: Bool) { host.transaction_set_disable_actions(flag ? 1 : 0) }
    open class func completionBlock() -> (() -> Void)? { storedCompletion }
    open class func setCompletionBlock(_ block: (() -> Void)?) {
        storedCompletion = block
        guard let block else { host.transaction_set_completion(nil, nil); return }
        let box = Unmanaged.passRetained(TransactionBlockBox(block)).toOpaque()
        host.transaction_set_completion(transactionTrampoline, box)
    }
    nonisolated(unsafe) private static var storedTiming: CAMediaTimingFunction?
    nonisolated(unsafe) private static var storedCompletion: (() -> Void)?
}

final class TransactionBlockBox {
    let block: () -> Void
    init(_ b: @escaping () -> Void) { block = b }
}

let transactionTrampoline: th_transaction_fn = { user in
    guard let user else { return }
    let box = Unmanaged<TransactionBlockBox>.fromOpaque(user)
    box.takeUnretainedValue().block()
    box.release()
}

/// CACurrentMediaTime(): the host's virtual clock, in seconds (never wall time).
public func CACurrentMediaTime() -> CFTimeInterval { host.media_time() }
public typealias CFTimeInterval = Double
