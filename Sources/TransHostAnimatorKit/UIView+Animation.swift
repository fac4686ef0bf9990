import CTransHost

extension UIView {
    /// UIView.AnimationOptions (UIKit's values). The host honours beginFromCurrentState, the
    /// override flags, the curves and (in `transition`) the transition styles; the others are
    /// accepted and have no effect (no touches, no repeat here).
    public struct AnimationOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let layoutSubviews = AnimationOptions(rawValue: 1 << 0)
        public static let allowUserInteraction = AnimationOptions(rawValue: 1 << 1)
        public static let beginFromCurrentState = AnimationOptions(rawValue: 1 << 2)
        public static let `repeat` = AnimationOptions(rawValue: 1 << 3)
        public static let autoreverse = AnimationOptions(rawValue: 1 << 4)
        public static let overrideInheritedDuration = AnimationOptions(rawValue: 1 << 5)
        public static let overrideInheritedCurve = AnimationOptions(rawValue: 1 << 6)
        public static let allowAnimatedContent = AnimationOptions(rawValue: 1 << 7)
        public static let showHideTransitionViews = AnimationOptions(rawValue: 1 << 8)
        public static let overrideInheritedOptions = AnimationOptions(rawValue: 1 << 9)
        public static let curveEaseInOut = AnimationOptions(rawValue: 0 << 16)
        public static let curveEaseIn = AnimationOptions(rawValue: 1 << 16)
        public static let curveEaseOut = AnimationOptions(rawValue: 2 << 16)
        public static let curveLinear = AnimationOptions(rawValue: 3 << 16)
        public static let transitionFlipFromLeft = AnimationOptions(rawValue: 1 << 20)
        public static let transitionFlipFromRight = AnimationOptions(rawValue: 2 << 20)
        public static let transitionCurlUp = AnimationOptions(rawValue: 3 << 20)
        public static let transitionCurlDown = AnimationOptions(rawValue: 4 << 20)
        public static let transitionCrossDissolve = AnimationOptions(rawValue: 5 << 20)
        public static let transitionFlipFromTop = AnimationOptions(rawValue: 6 << 20)
        public static let transitionFlipFromBottom = AnimationOptions(rawValue: 7 << 20)
        public static let preferredFramesPerSecondDefault = AnimationOptions(rawValue: 0 << 24)
        public static let preferredFramesPerSecond60 = AnimationOptions(rawValue: 3 << 24)
        public static let preferredFramesPerSecond30 = AnimationOptions(rawValue: 7 << 24)

        /// The bits the host reads (the others are dropped before the call).
        var hostBits: UInt32 { UInt32(truncatingIfNeeded: rawValue & (0b110_0100 | (3 << 16))) }
        var transitionBits: UInt32 { UInt32(truncatingIfNeeded: rawValue & (7 << 20)) }
    }

    /// UIView.KeyframeAnimationOptions.
    public struct KeyframeAnimationOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let layoutSubviews = KeyframeAnimationOptions(rawValue: 1 << 0)
        public static let allowUserInteraction = KeyframeAnimationOptions(rawValue: 1 << 1)
        public static let beginFromCurrentState = KeyframeAnimationOptions(rawValue: 1 << 2)
        public static let `repeat` = KeyframeAnimationOptions(rawValue: 1 << 3)
        public static let autoreverse = KeyframeAnimationOptions(rawValue: 1 << 4)
        public static let overrideInheritedDuration = KeyframeAnimationOptions(rawValue: 1 << 5)
        public static let overrideInheritedOptions = KeyframeAnimationOptions(rawValue: 1 << 9)
        public static let calculationModeLinear = KeyframeAnimationOptions(rawValue: 0 << 10)
        public static let calculationModeDiscrete = KeyframeAnimationOptions(rawValue: 1 << 10)
        public static let calculationModePaced = KeyframeAnimationOptions(rawValue: 2 << 10)
        public static let calculationModeCubic = KeyframeAnimationOptions(rawValue: 3 << 10)
        public static let calculationModeCubicPaced = KeyframeAnimationOptions(rawValue: 4 << 10)

        var hostBits: UInt32 { UInt32(truncatingIfNeeded: rawValue & (0b10_0100 | (7 << 10) | (3 << 16))) }
    }

    /// UIView.AnimationCurve.
    public enum AnimationCurve: Int, Sendable {
        case easeInOut = 0, easeIn = 1, easeOut = 2, linear = 3
        var optionBits: UInt32 { UInt32(rawValue) << 16 }
    }

    static func params(_ duration: TimeInterval, _ delay: TimeInterval, _ options: UInt32) -> th_animation_params {
        th_animation_params(struct_size: UInt32(MemoryLayout<th_animation_params>.size), duration: duration, delay: delay, options: options)
    }

    /// Submits a block: `call` gets the trampolines and the retained box.
    static func submit(_ animations: @escaping () -> Void, _ completion: ((Bool) -> Void)?,
                       _ call: (th_animations_fn, th_completion_fn, UnsafeMutableRawPointer) -> Void) {
        let box = Unmanaged.passRetained(ClosureBox(animations: animations, completion: completion)).toOpaque()
        call(animationsTrampoline, completionTrampoline, box)
    }

    public class func animate(withDuration duration: TimeInterval, delay: TimeInterval, options: AnimationOptions = [],
                            animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil) {
        var p = params(duration, delay, options.hostBits)
        submit(animations, completion) { a, c, user in host.animate(&p, a, c, user) }
    }

    public class func animate(withDuration duration: TimeInterval, animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil) {
        animate(withDuration: duration, delay: 0, options: [], animations: animations, completion: completion)
    }

    /// The spring variant, with UIKit's solver on the host side.
    public class func animate(withDuration duration: TimeInterval, delay: TimeInterval, usingSpringWithDamping damping: CGFloat,
                            initialSpringVelocity velocity: CGFloat, options: AnimationOptions = [],
                            animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil) {
        var p = params(duration, delay, options.hostBits)
        submit(animations, completion) { a, c, user in host.animate_spring(&p, Double(damping), Double(velocity), a, c, user) }
    }

    public class func animateKeyframes(withDuration duration: TimeInterval, delay: TimeInterval,
                                     options: KeyframeAnimationOptions = [], animations: @escaping () -> Void,
                                     completion: ((Bool) -> Void)? = nil) {
        var p = params(duration, delay, options.hostBits)
        submit(animations, completion) { a, c, user in host.animate_keyframes(&p, a, c, user) }
    }

    /// Inside animateKeyframes: the changes made in `animations` land at relativeStartTime +
    /// relativeDuration of the whole animation.
    public class func addKeyframe(withRelativeStartTime start: Double, relativeDuration: Double, animations: @escaping () -> Void) {
        let box = Unmanaged.passRetained(ClosureBox(animations: animations, completion: nil))
        host.add_keyframe(start, relativeDuration, animationsTrampoline, box.toOpaque())
        box.release()
    }

    /// Changes made in `actionsWithoutAnimation` apply at once, even inside an animation block.
    public class func performWithoutAnimation(_ actionsWithoutAnimation: () -> Void) {
        withoutActuallyEscaping(actionsWithoutAnimation) { body in
            var p = params(0, 0, 0)
            submit(body, nil) { a, c, user in host.animate(&p, a, c, user) }
        }
    }

    /// transition(with:duration:options:animations:completion:): the changes `animations` makes
    /// to `view` (and its subviews) apply at once and the host plays the transition style in
    /// `options` (flip, curl, cross-dissolve) from the view's old picture to its new one.
    public class func transition(with view: UIView, duration: TimeInterval, options: AnimationOptions = [],
                               animations: (() -> Void)?, completion: ((Bool) -> Void)? = nil) {
        var p = params(duration, 0, options.hostBits | options.transitionBits)
        submit(animations ?? {}, completion) { a, c, user in host.view_transition(view.handle, &p, a, c, user) }
    }

    /// transition(from:to:duration:options:completion:): `toView` replaces `fromView` in its
    /// superview (or, with .showHideTransitionViews, `fromView` is hidden and `toView` shown)
    /// through the transition style in `options`.
    public class func transition(from fromView: UIView, to toView: UIView, duration: TimeInterval,
                               options: AnimationOptions = [], completion: ((Bool) -> Void)? = nil) {
        guard let parent = fromView.superview else {
            kitWarning("transition(from:to:): the from-view is in no superview; nothing was animated")
            completion?(true)
            return
        }
        let showHide = options.contains(.showHideTransitionViews)
        transition(with: parent, duration: duration, options: options, animations: {
            if showHide {
                fromView.isHidden = true
                toView.isHidden = false
            } else {
                if toView.superview !== parent { parent.insertSubview(toView, aboveSubview: fromView) }
                fromView.removeFromSuperview()
            }
        }, completion: completion)
    }
}
