import CTransHost

/// UIViewAnimating. The Objective-C protocol's optional members have default implementations
/// in the extension below (Swift has no optional protocol members without the Objective-C
/// runtime).
public protocol UIViewAnimating: AnyObject {
    var state: UIViewAnimatingState { get }
    var isRunning: Bool { get }
    var isReversed: Bool { get set }
    var fractionComplete: CGFloat { get set }
    func startAnimation()
    func startAnimation(afterDelay delay: TimeInterval)
    func pauseAnimation()
    func stopAnimation(_ withoutFinishing: Bool)
    func finishAnimation(at finalPosition: UIViewAnimatingPosition)
}

/// UIViewImplicitlyAnimating: an animator that takes animation blocks and new timing.
public protocol UIViewImplicitlyAnimating: UIViewAnimating {
    func addAnimations(_ animation: @escaping () -> Void)
    func addAnimations(_ animation: @escaping () -> Void, delayFactor: CGFloat)
    func addCompletion(_ completion: @escaping (UIViewAnimatingPosition) -> Void)
    func continueAnimation(withTimingParameters parameters: UITimingCurveProvider?, durationFactor: CGFloat)
}

extension UIViewImplicitlyAnimating {
    public func addAnimations(_ animation: @escaping () -> Void) {}
    public func addAnimations(_ animation: @escaping () -> Void, delayFactor: CGFloat) {}
    public func addCompletion(_ completion: @escaping (UIViewAnimatingPosition) -> Void) {}
    public func continueAnimation(withTimingParameters parameters: UITimingCurveProvider?, durationFactor: CGFloat) {}
}

/// UIViewPropertyAnimator, played by the host on its virtual clock (docs/animation.md,
/// "Property animators"): pausing, scrubbing, reversing and continuing keep what is on screen
/// continuous; a stopped animator leaves its views where they are.
open class UIViewPropertyAnimator: NSObject, UIViewImplicitlyAnimating {
    /// The host's animator.
    public let handle: OpaquePointer
    open private(set) var timingParameters: UITimingCurveProvider?
    open private(set) var delay: TimeInterval = 0
    /// Accepted for UIKit compatibility; there are no touches to route.
    open var isUserInteractionEnabled = true
    open var isManualHitTestingEnabled = false

    public init(duration: TimeInterval, timingParameters parameters: UITimingCurveProvider) {
        var t = parameters.hostParameters
        handle = host.property_animator_create(duration, &t)!
        timingParameters = parameters
        super.init()
    }

    public convenience init(duration: TimeInterval, curve: UIView.AnimationCurve, animations: (() -> Void)? = nil) {
        self.init(duration: duration, timingParameters: UICubicTimingParameters(animationCurve: curve))
        if let animations { addAnimations(animations) }
    }

    public convenience init(duration: TimeInterval, controlPoint1 point1: CGPoint, controlPoint2 point2: CGPoint,
                            animations: (() -> Void)? = nil) {
        self.init(duration: duration, timingParameters: UICubicTimingParameters(controlPoint1: point1, controlPoint2: point2))
        if let animations { addAnimations(animations) }
    }

    public convenience init(duration: TimeInterval, dampingRatio ratio: CGFloat, animations: (() -> Void)? = nil) {
        self.init(duration: duration, timingParameters: UISpringTimingParameters(dampingRatio: ratio))
        if let animations { addAnimations(animations) }
    }

    /// runningPropertyAnimator(withDuration:delay:options:animations:completion:): an animator
    /// with the options' curve, already started.
    @discardableResult
    open class func runningPropertyAnimator(withDuration duration: TimeInterval, delay: TimeInterval,
                                            options: UIView.AnimationOptions = [], animations: @escaping () -> Void,
                                            completion: ((UIViewAnimatingPosition) -> Void)? = nil) -> UIViewPropertyAnimator {
        let curve = UIView.AnimationCurve(rawValue: Int((options.rawValue >> 16) & 3)) ?? .easeInOut
        let a = UIViewPropertyAnimator(duration: duration, curve: curve, animations: animations)
        if let completion { a.addCompletion(completion) }
        a.startAnimation(afterDelay: delay)
        return a
    }

    open var duration: TimeInterval { host.property_animator_duration(handle) }
    open var state: UIViewAnimatingState { UIViewAnimatingState(rawValue: Int(host.property_animator_state(handle).rawValue)) ?? .inactive }
    open var isRunning: Bool { flag(TH_ANIMATOR_RUNNING) }
    open var isReversed: Bool {
        get { flag(TH_ANIMATOR_REVERSED) }
        set { setFlag(TH_ANIMATOR_REVERSED, newValue) }
    }
    open var isInterruptible: Bool {
        get { flag(TH_ANIMATOR_INTERRUPTIBLE) }
        set { setFlag(TH_ANIMATOR_INTERRUPTIBLE, newValue) }
    }
    open var scrubsLinearly: Bool {
        get { flag(TH_ANIMATOR_SCRUBS_LINEARLY) }
        set { setFlag(TH_ANIMATOR_SCRUBS_LINEARLY, newValue) }
    }
    open var pausesOnCompletion: Bool {
        get { flag(TH_ANIMATOR_PAUSES_ON_COMPLETION) }
        set { setFlag(TH_ANIMATOR_PAUSES_ON_COMPLETION, newValue) }
    }
    open var fractionComplete: CGFloat {
        get { CGFloat(host.property_animator_fraction(handle)) }
        set { host.property_animator_set_fraction(handle, Double(newValue)) }
    }

    private func flag(_ f: UInt32) -> Bool { host.property_animator_flag(handle, f) != 0 }
    private func setFlag(_ f: UInt32, _ on: Bool) { host.property_animator_set_flag(handle, f, on ? 1 : 0) }

    open func addAnimations(_ animation: @escaping () -> Void) { addAnimations(animation, delayFactor: 0) }

    open func addAnimations(_ animation: @escaping () -> Void, delayFactor: CGFloat) {
        let box = Unmanaged.passRetained(ClosureBox(animations: animation, completion: nil)).toOpaque()
        host.property_animator_add_animations(handle, oneShotAnimationsTrampoline, box, Double(delayFactor))
    }

    open func addCompletion(_ completion: @escaping (UIViewAnimatingPosition) -> Void) {
        let box = Unmanaged.passRetained(PositionBox(completion)).toOpaque()
        host.property_animator_add_completion(handle, positionCompletionTrampoline, box)
    }

    open func startAnimation() { startAnimation(afterDelay: 0) }
    open func startAnimation(afterDelay delay: TimeInterval) {
        self.delay = delay
        host.property_animator_start(handle, delay)
    }
    open func pauseAnimation() { host.property_animator_pause(handle) }
    open func stopAnimation(_ withoutFinishing: Bool) { host.property_animator_stop(handle, withoutFinishing ? 1 : 0) }
    open func finishAnimation(at finalPosition: UIViewAnimatingPosition) {
        host.property_animator_finish(handle, th_animating_position(rawValue: UInt32(finalPosition.rawValue)))
    }

    open func continueAnimation(withTimingParameters parameters: UITimingCurveProvider?, durationFactor: CGFloat) {
        if var t = parameters?.hostParameters {
            host.property_animator_continue(handle, &t, Double(durationFactor))
        } else {
            host.property_animator_continue(handle, nil, Double(durationFactor))
        }
    }
}

final class PositionBox {
    let completion: (UIViewAnimatingPosition) -> Void
    init(_ completion: @escaping (UIViewAnimatingPosition) -> Void) { self.completion = completion }
}

/// Runs an animations block the host calls exactly once, then releases its box.
let oneShotAnimationsTrampoline: th_animations_fn = { user in
    guard let user else { return }
    Unmanaged<ClosureBox>.fromOpaque(user).takeRetainedValue().animations?()
}

let positionCompletionTrampoline: th_animator_completion_fn = { position, user in
    guard let user else { return }
    let box = Unmanaged<PositionBox>.fromOpaque(user).takeRetainedValue()
    box.completion(UIViewAnimatingPosition(rawValue: Int(position.rawValue)) ?? .current)
}

/// What `interruptibleAnimator(using:)` answers by default: "not implemented" (UIKit's optional
/// method). The kit tells the host there is none.
final class NoInterruptibleAnimator: UIViewImplicitlyAnimating {
    nonisolated(unsafe) static let shared = NoInterruptibleAnimator()
    var state: UIViewAnimatingState { .inactive }
    var isRunning: Bool { false }
    var isReversed: Bool { get { false } set {} }
    var fractionComplete: CGFloat { get { 0 } set {} }
    func startAnimation() {}
    func startAnimation(afterDelay delay: TimeInterval) {}
    func pauseAnimation() {}
    func stopAnimation(_ withoutFinishing: Bool) {}
    func finishAnimation(at finalPosition: UIViewAnimatingPosition) {}
}
