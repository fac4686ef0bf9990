import CTransHost

extension UIView {
    /// UIViewAnimationOptions (the bits the host honours; same values as UIKit).
    public struct AnimationOptions: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let beginFromCurrentState = AnimationOptions(rawValue: 1 << 2)
        public static let overrideInheritedDuration = AnimationOptions(rawValue: 1 << 5)
        public static let overrideInheritedCurve = AnimationOptions(rawValue: 1 << 6)
        public static let curveEaseInOut = AnimationOptions(rawValue: 0 << 16)
        public static let curveEaseIn = AnimationOptions(rawValue: 1 << 16)
        public static let curveEaseOut = AnimationOptions(rawValue: 2 << 16)
        public static let curveLinear = AnimationOptions(rawValue: 3 << 16)
    }

    /// UIViewKeyframeAnimationOptions.
    public struct KeyframeAnimationOptions: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let calculationModeLinear = KeyframeAnimationOptions(rawValue: 0 << 10)
        public static let calculationModeDiscrete = KeyframeAnimationOptions(rawValue: 1 << 10)
        public static let calculationModePaced = KeyframeAnimationOptions(rawValue: 2 << 10)
        public static let calculationModeCubic = KeyframeAnimationOptions(rawValue: 3 << 10)
        public static let calculationModeCubicPaced = KeyframeAnimationOptions(rawValue: 4 << 10)
    }

    static func params(_ duration: TimeInterval, _ delay: TimeInterval, _ options: UInt32) -> th_animation_params {
        th_animation_params(struct_size: UInt32(MemoryLayout<th_animation_params>.size), duration: duration, delay: delay, options: options)
    }

    /// Submits a block: `submit` gets the params, the trampolines and the retained box.
    static func submit(_ animations: @escaping () -> Void, _ completion: ((Bool) -> Void)?,
                       _ call: (th_animations_fn, th_completion_fn, UnsafeMutableRawPointer) -> Void) {
        let box = Unmanaged.passRetained(ClosureBox(animations: animations, completion: completion)).toOpaque()
        call(animationsTrampoline, completionTrampoline, box)
    }

    public class func animate(withDuration duration: TimeInterval, delay: TimeInterval = 0, options: AnimationOptions = [],
                              animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil) {
        var p = params(duration, delay, options.rawValue)
        submit(animations, completion) { a, c, user in host.animate(&p, a, c, user) }
    }

    public class func animate(withDuration duration: TimeInterval, animations: @escaping () -> Void) {
        animate(withDuration: duration, delay: 0, options: [], animations: animations, completion: nil)
    }

    /// The spring variant, with UIKit's solver on the host side.
    public class func animate(withDuration duration: TimeInterval, delay: TimeInterval, usingSpringWithDamping damping: CGFloat,
                              initialSpringVelocity velocity: CGFloat, options: AnimationOptions = [],
                              animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil) {
        var p = params(duration, delay, options.rawValue)
        submit(animations, completion) { a, c, user in host.animate_spring(&p, damping, velocity, a, c, user) }
    }

    public class func animateKeyframes(withDuration duration: TimeInterval, delay: TimeInterval = 0,
                                       options: KeyframeAnimationOptions = [], animations: @escaping () -> Void,
                                       completion: ((Bool) -> Void)? = nil) {
        var p = params(duration, delay, options.rawValue)
        submit(animations, completion) { a, c, user in host.animate_keyframes(&p, a, c, user) }
    }

    /// Inside animateKeyframes: the changes made in `animations` land at relativeStartTime +
    /// relativeDuration of the whole animation.
    public class func addKeyframe(withRelativeStartTime start: Double, relativeDuration: Double, animations: @escaping () -> Void) {
        let box = Unmanaged.passRetained(ClosureBox(animations: animations, completion: nil))
        host.add_keyframe(start, relativeDuration, animationsTrampoline, box.toOpaque())
        box.release()
    }
}
