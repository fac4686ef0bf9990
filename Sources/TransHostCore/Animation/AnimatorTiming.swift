#if canImport(Glibc)
import Glibc
#endif

/// The timing of a property animator (UITimingCurveProvider): a cubic Bezier
/// (UICubicTimingParameters) or a spring (UISpringTimingParameters).
public enum AnimatorTiming: Equatable, Sendable {
    case cubic(UnitBezier)
    /// UIKit's spring solved for the animator's duration (docs/animation.md, "Springs");
    /// initialVelocity in fractions of the remaining distance per second.
    case spring(dampingRatio: Double, initialVelocity: Double)
    /// A spring given by its physics; its duration is the time it takes to settle (see
    /// `settlingDuration`), whatever duration the animator was made with, as in UIKit.
    case physicalSpring(mass: Double, stiffness: Double, damping: Double, initialVelocity: Double)

    public static let easeInOut = AnimatorTiming.cubic(.easeInEaseOut)

    /// The initial velocity a spring carries (0 for a cubic curve).
    public var initialVelocity: Double {
        switch self {
        case .cubic: return 0
        case .spring(_, let v), .physicalSpring(_, _, _, let v): return v
        }
    }

    /// The same timing with another initial velocity (a cubic curve has none).
    func with(initialVelocity v: Double) -> AnimatorTiming {
        switch self {
        case .cubic: return self
        case .spring(let z, _): return .spring(dampingRatio: z, initialVelocity: v)
        case .physicalSpring(let m, let k, let c, _): return .physicalSpring(mass: m, stiffness: k, damping: c, initialVelocity: v)
        }
    }

    /// The spring's remaining distance must stay under this fraction from the settling time on.
    public static let settlingEpsilon = 0.001
    /// The longest a physical spring may take to settle (a nearly undamped spring is cut here).
    public static let maximumSettlingDuration = 60.0

    /// The time a spring of stiffness k, damping c (unit mass) and initial velocity v takes until
    /// its remaining distance stays within `settlingEpsilon`: the last instant, on a 1 ms grid up
    /// to `maximumSettlingDuration`, at which it was outside, plus 1 ms (at least 10 ms).
    public static func settlingDuration(stiffness k: Double, damping c: Double, initialVelocity v: Double) -> Double {
        let solver = SpringSolver(stiffness: k, damping: c, initialVelocity: v)
        let step = 0.001
        var last = 0.0
        var t = 0.0
        while t <= maximumSettlingDuration {
            if abs(1 - solver.progress(at: t)) >= settlingEpsilon { last = t }
            t += step
        }
        return min(max(last + step, 0.01), maximumSettlingDuration)
    }

    /// A mass-spring-damper given by mass m > 0, stiffness k > 0 and damping c >= 0 as the unit-mass
    /// spring the solver evaluates (k / m, c / m).
    static func unitMass(mass m: Double, stiffness k: Double, damping c: Double) -> (k: Double, c: Double) {
        let m = m > 0 && m.isFinite ? m : 1
        return (max(k, 1e-9) / m, max(c, 0) / m)
    }
}

/// One stretch of a property animator's run: its progress (fractionComplete in value terms)
/// goes from `from` at global time `start` to `to` at `start + seconds`, shaped by `shape`.
/// At `start + seconds` it is exactly `to`; before `start` (a delay) it is `from`.
struct AnimatorSegment {
    enum Shape {
        /// The Bezier between curve parameters ua and ub (its time fractions): resuming or
        /// reversing along the animator's own curve keeps position continuous.
        case curve(UnitBezier, ua: Double, ub: Double)
        /// A spring from rest (or from its initial velocity) that settles at `to`.
        case spring(SpringSolver)
    }
    var start: Double
    var seconds: Double
    var from: Double
    var to: Double
    var shape: Shape

    /// Shape progress (0 at the start, 1 at the end; a spring overshoots) after tau seconds.
    func shapeValue(_ tau: Double) -> Double {
        if tau <= 0 { return 0 }
        if tau >= seconds { return 1 }
        switch shape {
        case .curve(let b, let ua, let ub):
            let ya = b.solve(ua), yb = b.solve(ub)
            let u = ua + (ub - ua) * tau / seconds
            guard abs(yb - ya) > 1e-15 else { return tau / seconds }
            return (b.solve(u) - ya) / (yb - ya)
        case .spring(let s):
            return s.progress(at: tau)
        }
    }

    /// The progress at global time g.
    func fraction(at g: Double) -> Double {
        // Compared on absolute time: (start + seconds) - start can round below seconds, and the
        // instant the segment ends must show exactly its end.
        if g >= end { return to }
        let tau = g - start
        return from + (to - from) * shapeValue(tau)
    }

    /// The curve parameter (the animator's time fraction) at global time g, for a segment
    /// along the animator's own curve; nil for a spring.
    func curveParameter(at g: Double) -> Double? {
        guard case .curve(_, let ua, let ub) = shape else { return nil }
        let f = min(max((g - start) / max(seconds, 1e-12), 0), 1)
        return ua + (ub - ua) * f
    }

    var end: Double { start + seconds }
}

extension UnitBezier {
    /// The curve parameter x in [0, 1] whose progress is y (bisection: the named curves and any
    /// with control-point ys in [0, 1] are monotone).
    func inverse(_ y: Double) -> Double {
        if y <= 0 { return 0 }
        if y >= 1 { return 1 }
        var lo = 0.0, hi = 1.0
        for _ in 0..<64 {
            let mid = (lo + hi) / 2
            if solve(mid) < y { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }
}
