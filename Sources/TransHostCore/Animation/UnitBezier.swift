/// A cubic Bezier timing curve from (0, 0) to (1, 1) with control points P1 and P2 — the
/// CAMediaTimingFunction model (after WebKit's UnitBezier).
///
/// Solving: x(t) is inverted by Newton's method (8 steps) and, if that does not converge, by
/// bisection, to within 1/(200 x duration) in x as Core Animation allows (in fact to 1e-12, so
/// that progress is monotonic in time).
public struct UnitBezier: Equatable, Hashable, Sendable {
    public let p1x, p1y, p2x, p2y: Double
    private let ax, bx, cx, ay, by, cy: Double

    public init(_ p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double) {
        self.p1x = p1x; self.p1y = p1y; self.p2x = p2x; self.p2y = p2y
        cx = 3 * p1x; bx = 3 * (p2x - p1x) - cx; ax = 1 - cx - bx
        cy = 3 * p1y; by = 3 * (p2y - p1y) - cy; ay = 1 - cy - by
    }

    public static let linear = UnitBezier(0, 0, 1, 1)
    public static let easeIn = UnitBezier(0.42, 0, 1, 1)
    public static let easeOut = UnitBezier(0, 0, 0.58, 1)
    public static let easeInEaseOut = UnitBezier(0.42, 0, 0.58, 1)
    /// kCAMediaTimingFunctionDefault.
    public static let caDefault = UnitBezier(0.25, 0.1, 0.25, 1)

    static let newtonIterations = 8
    static let bisectionIterations = 64

    public func sampleX(_ t: Double) -> Double { ((ax * t + bx) * t + cx) * t }
    public func sampleY(_ t: Double) -> Double { ((ay * t + by) * t + cy) * t }
    public func sampleDerivativeX(_ t: Double) -> Double { (3 * ax * t + 2 * bx) * t + cx }

    /// The curve parameter t whose x(t) is within epsilon of x.
    public func solveCurveX(_ x: Double, epsilon: Double) -> Double {
        var t = x
        for _ in 0..<Self.newtonIterations {
            let x2 = sampleX(t) - x
            if abs(x2) < epsilon { return t }
            let d = sampleDerivativeX(t)
            if abs(d) < 1e-6 { break }
            t -= x2 / d
        }
        var lo = 0.0, hi = 1.0
        t = min(max(x, 0), 1)
        for _ in 0..<Self.bisectionIterations {
            let x2 = sampleX(t)
            if abs(x2 - x) < epsilon { return t }
            if x > x2 { lo = t } else { hi = t }
            t = (lo + hi) / 2
        }
        return t
    }

    /// Progress (y) at time fraction x in [0, 1], for an animation of `duration` seconds.
    public func solve(_ x: Double, duration: Double = 1) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        // 1/(200 x duration) is the tolerance Core Animation allows; solving only that far lets
        // progress step backwards between nearby x (Newton stops at different errors) and makes
        // even the linear curve off by up to the tolerance. Solving tighter stays within it.
        let epsilon = min(1.0 / (200.0 * max(duration, 1e-3)), 1e-12)
        return sampleY(solveCurveX(x, epsilon: epsilon))
    }
}
