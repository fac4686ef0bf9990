/// How an animation's progress follows its normalized time u in [0, 1].
public enum TimingCurve: Equatable, Hashable, Sendable {
    /// A cubic Bezier (UIView's curve options, CAMediaTimingFunction).
    case bezier(UnitBezier)
    /// UIKit's spring: damping ratio and initial velocity as given to
    /// animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:). Its time is
    /// linear: progress at u is the spring's progress at u x duration.
    case spring(dampingRatio: Double, initialVelocity: Double)

    public static let linear = TimingCurve.bezier(.linear)
    public static let easeIn = TimingCurve.bezier(.easeIn)
    public static let easeOut = TimingCurve.bezier(.easeOut)
    public static let easeInOut = TimingCurve.bezier(.easeInEaseOut)

    /// The curve for UIViewAnimationOptions curve bits (bits 16-17).
    public init(optionBits options: UInt32) {
        switch (options >> 16) & 3 {
        case 1: self = .easeIn
        case 2: self = .easeOut
        case 3: self = .linear
        default: self = .easeInOut
        }
    }

    /// Progress at normalized time u (clamped to [0, 1]) for an animation of `duration` seconds.
    /// Springs may overshoot 1.
    public func progress(_ u: Double, duration: Double) -> Double {
        let u = min(max(u, 0), 1)
        switch self {
        case .bezier(let b):
            return b.solve(u, duration: duration)
        case .spring(let zeta, let v):
            if u >= 1 { return 1 }
            return SpringSolver(dampingRatio: zeta, duration: duration, initialVelocity: v).progress(at: u * duration)
        }
    }
}
