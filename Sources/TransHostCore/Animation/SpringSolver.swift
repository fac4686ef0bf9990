#if canImport(Glibc)
import Glibc
#endif

/// UIKit's spring (docs/animation.md, "Springs"): stiffness and damping chosen so that a unit mass
/// settles within 0.001 of its target after `duration`, solved by Newton's method.
public struct SpringSolver: Equatable, Sendable {
    public let stiffness: Double
    public let damping: Double
    public let initialVelocity: Double

    public init(dampingRatio: Double, duration: Double, initialVelocity: Double) {
        let zeta = min(max(dampingRatio, 1.1920929e-7), 1)
        let t = min(max(duration, 0.01), 10)
        let v = initialVelocity
        let epsilon = 0.001
        var w = 5 / t
        for _ in 0..<12 {
            let f: Double, df: Double
            if zeta < 1 {
                let s = (1 - zeta * zeta).squareRoot()
                let e = exp(-zeta * w * t)
                f = epsilon - abs((zeta * w - v) / (w * s)) * e
                // The literal f' is the derivative for zeta w > v; the |.| flips its sign when
                // zeta w < v (a strong initial velocity, e.g. seed 000's 6.0), without which
                // Newton walks to w = 0. For v = 0 (the reference vectors) nothing changes.
                let sign: Double = zeta * w - v < 0 ? -1 : 1
                df = -sign * (v + zeta * w * t * v - zeta * zeta * w * w * t) * e / (w * w * s)
            } else {
                let e = exp(-w * t)
                f = e * ((w - v) * t + 1) - epsilon
                df = (v - w) * t * t * e
            }
            guard df != 0, df.isFinite else { break }
            // With a tiny damping ratio (below about 0.001) f has no positive root and Newton runs
            // to a negative or infinite w, i.e. a spring that grows without bound; keep the last
            // positive w instead (the spring then rings through the duration and snaps at its end).
            let next = w - f / df
            guard next > 0, next.isFinite else { break }
            w = next
        }
        stiffness = w * w
        damping = 2 * zeta * w
        self.initialVelocity = v
    }

    public init(stiffness: Double, damping: Double, initialVelocity: Double) {
        self.stiffness = stiffness; self.damping = damping; self.initialVelocity = initialVelocity
    }

    /// Progress 1 - x(t) at time t seconds (closed forms for under-, critically and over-damped).
    public func progress(at t: Double) -> Double {
        let w0 = stiffness.squareRoot()
        let zeta = damping / (2 * w0)
        let v = initialVelocity
        let x: Double
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            x = exp(-zeta * w0 * t) * (cos(wd * t) + ((zeta * w0 - v) / wd) * sin(wd * t))
        } else if zeta == 1 {
            x = (1 + (w0 - v) * t) * exp(-w0 * t)
        } else {
            let b = zeta * w0, g = w0 * (zeta * zeta - 1).squareRoot()
            x = ((b + g - v) / (2 * g)) * exp((g - b) * t) + ((g - b + v) / (2 * g)) * exp(-(b + g) * t)
        }
        return 1 - x
    }
}
