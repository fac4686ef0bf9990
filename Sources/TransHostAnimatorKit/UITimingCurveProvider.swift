import CTransHost

/// UIViewAnimatingState.
public enum UIViewAnimatingState: Int, Sendable { case inactive = 0, active = 1, stopped = 2 }

/// UIViewAnimatingPosition: where an animator's properties ended.
public enum UIViewAnimatingPosition: Int, Sendable { case end = 0, start = 1, current = 2 }

/// UITimingCurveType.
public enum UITimingCurveType: Int, Sendable { case builtin = 0, cubic = 1, spring = 2, composed = 3 }

/// CGVector (CoreGraphics; Foundation on Linux has none): a spring's initial velocity.
public struct CGVector: Equatable, Sendable {
    public var dx: CGFloat
    public var dy: CGFloat
    public init(dx: CGFloat, dy: CGFloat) { self.dx = dx; self.dy = dy }
    public static let zero = CGVector(dx: 0, dy: 0)
}

/// UITimingCurveProvider: a property animator's timing.
public protocol UITimingCurveProvider: AnyObject {
    var timingCurveType: UITimingCurveType { get }
    var cubicTimingParameters: UICubicTimingParameters? { get }
    var springTimingParameters: UISpringTimingParameters? { get }
}

/// UICubicTimingParameters: a built-in curve or a cubic Bezier through two control points.
open class UICubicTimingParameters: NSObject, UITimingCurveProvider {
    public let animationCurve: UIView.AnimationCurve
    public let controlPoint1: CGPoint
    public let controlPoint2: CGPoint

    /// Ease-in-out, UIKit's default.
    public override convenience init() { self.init(animationCurve: .easeInOut) }

    public init(animationCurve curve: UIView.AnimationCurve) {
        animationCurve = curve
        switch curve {
        case .easeInOut: controlPoint1 = CGPoint(x: 0.42, y: 0); controlPoint2 = CGPoint(x: 0.58, y: 1)
        case .easeIn: controlPoint1 = CGPoint(x: 0.42, y: 0); controlPoint2 = CGPoint(x: 1, y: 1)
        case .easeOut: controlPoint1 = CGPoint(x: 0, y: 0); controlPoint2 = CGPoint(x: 0.58, y: 1)
        case .linear: controlPoint1 = CGPoint(x: 0, y: 0); controlPoint2 = CGPoint(x: 1, y: 1)
        }
        super.init()
    }

    public init(controlPoint1 point1: CGPoint, controlPoint2 point2: CGPoint) {
        animationCurve = .easeInOut
        controlPoint1 = point1; controlPoint2 = point2
        super.init()
    }

    open var timingCurveType: UITimingCurveType { .cubic }
    open var cubicTimingParameters: UICubicTimingParameters? { self }
    open var springTimingParameters: UISpringTimingParameters? { nil }
}

/// UISpringTimingParameters: UIKit's spring by damping ratio (over the animator's duration) or
/// by mass, stiffness and damping (then the animator lasts until the spring settles).
open class UISpringTimingParameters: NSObject, UITimingCurveProvider {
    public let initialVelocity: CGVector
    let dampingRatio: CGFloat?
    let physics: (mass: CGFloat, stiffness: CGFloat, damping: CGFloat)?

    /// UIKit's default spring: mass 1, stiffness 100, damping 10 (its documented 4.56 is a
    /// settling-time figure of that spring).
    public override convenience init() { self.init(mass: 1, stiffness: 100, damping: 10, initialVelocity: .zero) }

    public convenience init(dampingRatio ratio: CGFloat) { self.init(dampingRatio: ratio, initialVelocity: .zero) }

    public init(dampingRatio ratio: CGFloat, initialVelocity velocity: CGVector) {
        dampingRatio = ratio; physics = nil; initialVelocity = velocity
        super.init()
    }

    public init(mass: CGFloat, stiffness: CGFloat, damping: CGFloat, initialVelocity velocity: CGVector) {
        dampingRatio = nil; physics = (mass, stiffness, damping); initialVelocity = velocity
        super.init()
    }

    open var timingCurveType: UITimingCurveType { .spring }
    open var cubicTimingParameters: UICubicTimingParameters? { nil }
    open var springTimingParameters: UISpringTimingParameters? { self }
}

extension UITimingCurveProvider {
    /// The host's form of this timing (a composed provider uses its spring, else its cubic part).
    var hostParameters: th_timing_parameters {
        var t = th_timing_parameters()
        t.struct_size = UInt32(MemoryLayout<th_timing_parameters>.size)
        if let s = springTimingParameters, timingCurveType != .cubic {
            t.initial_velocity = th_point(x: Double(s.initialVelocity.dx), y: Double(s.initialVelocity.dy))
            if let p = s.physics {
                t.kind = TH_TIMING_SPRING_PHYSICAL
                t.mass = Double(p.mass); t.stiffness = Double(p.stiffness); t.damping = Double(p.damping)
            } else {
                t.kind = TH_TIMING_SPRING
                t.damping_ratio = Double(s.dampingRatio ?? 1)
            }
            return t
        }
        let c = cubicTimingParameters ?? UICubicTimingParameters()
        t.kind = TH_TIMING_CUBIC
        t.control_point1 = th_point(x: Double(c.controlPoint1.x), y: Double(c.controlPoint1.y))
        t.control_point2 = th_point(x: Double(c.controlPoint2.x), y: Double(c.controlPoint2.y))
        return t
    }
}
