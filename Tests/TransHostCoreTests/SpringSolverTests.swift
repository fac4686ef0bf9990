import Foundation
import XCTest
@testable import TransHostCore

/// Reference values: docs/animation.md (the three vectors) and its closed forms, written out
/// here independently of SpringSolver.
final class SpringSolverTests: XCTestCase {
    private func assertRelative(_ actual: Double, _ expected: Double, _ tol: Double, _ msg: String,
                                file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertLessThanOrEqual(abs(actual - expected), tol * abs(expected),
                                 "\(msg): \(actual) vs \(expected)", file: file, line: line)
    }

    func testDesignVectorUnderdampedLong() {
        let s = SpringSolver(dampingRatio: 0.25, duration: 3, initialVelocity: 0)
        assertRelative(s.stiffness, 54.83363359078326, 1e-4, "k")
        assertRelative(s.damping, 3.702486785620688, 1e-4, "c")
    }

    func testDesignVectorUnderdampedShort() {
        let s = SpringSolver(dampingRatio: 0.7, duration: 0.5, initialVelocity: 0)
        assertRelative(s.stiffness, 387.27458, 1e-4, "k")
        assertRelative(s.damping, 27.55101, 1e-4, "c")
    }

    func testDesignVectorCriticallyDamped() {
        let s = SpringSolver(dampingRatio: 1.0, duration: 0.5, initialVelocity: 0)
        assertRelative(s.stiffness, 341.02370, 1e-4, "k")
        assertRelative(s.damping, 36.93365, 1e-4, "c")
    }

    /// A critically damped solved spring is exactly 0.001 from its target at T (that is the
    /// equation the Newton steps solve).
    func testCriticallyDampedSolvedSpringIsEpsilonAwayAtDuration() {
        let c = SpringSolver(dampingRatio: 1, duration: 0.5, initialVelocity: 0)
        XCTAssertEqual(1 - c.progress(at: 0.5), 0.001, accuracy: 1e-9)
    }

    func testUnderdampedProgressMatchesClosedForm() {
        // k 100, c 10: w0 = 10, zeta = 0.5, wd = 10 sqrt(0.75); v = 2.
        let s = SpringSolver(stiffness: 100, damping: 10, initialVelocity: 2)
        let w0 = 10.0, zeta = 0.5, v = 2.0, wd = 10 * 0.75.squareRoot()
        for t in [0.0, 0.01, 0.1, 0.25, 0.5, 1, 2.5] {
            let x = exp(-zeta * w0 * t) * (cos(wd * t) + ((zeta * w0 - v) / wd) * sin(wd * t))
            XCTAssertEqual(s.progress(at: t), 1 - x, accuracy: 1e-9, "t \(t)")
        }
        XCTAssertEqual(s.progress(at: 0), 0, accuracy: 1e-12)
    }

    func testUnderdampedOvershoots() {
        // zeta 0.25 goes past the target: the first peak of x is at wd t = pi, x = -e^(-zeta w0 t).
        let s = SpringSolver(stiffness: 100, damping: 5, initialVelocity: 0)   // zeta 0.25
        let wd = 10 * (1 - 0.0625).squareRoot()
        let tPeak = Double.pi / wd
        // At the peak (v = 0): x = e^(-zeta w0 t) (cos(pi) + 0) = -e^(-2.5 tPeak).
        XCTAssertEqual(s.progress(at: tPeak), 1 + exp(-2.5 * tPeak), accuracy: 1e-9)
        XCTAssertGreaterThan(s.progress(at: tPeak), 1)
    }

    func testCriticallyDampedProgressMatchesClosedForm() {
        // k 100, c 20: w0 = 10, zeta exactly 1.
        let s = SpringSolver(stiffness: 100, damping: 20, initialVelocity: 0)
        for t in [0.0, 0.05, 0.1, 0.3, 1] {
            let x = (1 + 10 * t) * exp(-10 * t)
            XCTAssertEqual(s.progress(at: t), 1 - x, accuracy: 1e-9, "t \(t)")
        }
        // By hand: t = 0.1 -> x = 2 e^-1.
        XCTAssertEqual(s.progress(at: 0.1), 1 - 2 / M_E, accuracy: 1e-12)
        // With an initial velocity v = 4: x = (1 + (10 - 4) t) e^(-10 t).
        let sv = SpringSolver(stiffness: 100, damping: 20, initialVelocity: 4)
        XCTAssertEqual(sv.progress(at: 0.2), 1 - (1 + 6 * 0.2) * exp(-2), accuracy: 1e-9)
    }

    func testOverdampedProgressMatchesClosedForm() {
        // k 100, c 30: w0 = 10, zeta = 1.5, b = 15, g = 10 sqrt(1.25).
        for v in [0.0, 3.0] {
            let s = SpringSolver(stiffness: 100, damping: 30, initialVelocity: v)
            let b = 15.0, g = 10 * 1.25.squareRoot()
            for t in [0.0, 0.02, 0.1, 0.4, 1.5] {
                let x = ((b + g - v) / (2 * g)) * exp((g - b) * t) + ((g - b + v) / (2 * g)) * exp(-(b + g) * t)
                XCTAssertEqual(s.progress(at: t), 1 - x, accuracy: 1e-9, "v \(v) t \(t)")
            }
            XCTAssertEqual(s.progress(at: 0), 0, accuracy: 1e-12)
        }
        // Over-damped never overshoots and approaches 1 from below.
        let s = SpringSolver(stiffness: 100, damping: 30, initialVelocity: 0)
        var last = 0.0
        for i in 1...100 {
            let p = s.progress(at: Double(i) * 0.02)
            XCTAssertGreaterThanOrEqual(p, last)
            XCTAssertLessThan(p, 1)
            last = p
        }
    }

    func testDampingRatioIsClampedToOne() {
        let clamped = SpringSolver(dampingRatio: 1, duration: 0.5, initialVelocity: 0)
        for zeta in [1.5, 4.0, 100.0] {
            XCTAssertEqual(SpringSolver(dampingRatio: zeta, duration: 0.5, initialVelocity: 0), clamped, "zeta \(zeta)")
        }
        // The solved spring is critically damped, never over-damped.
        XCTAssertEqual(clamped.damping / (2 * clamped.stiffness.squareRoot()), 1, accuracy: 1e-12)
    }

    func testDampingRatioIsClampedAboveZero() {
        let smallest = SpringSolver(dampingRatio: 1.1920929e-7, duration: 1, initialVelocity: 0)
        for zeta in [0.0, -1.0, 1e-12] {
            let s = SpringSolver(dampingRatio: zeta, duration: 1, initialVelocity: 0)
            XCTAssertEqual(s, smallest, "zeta \(zeta)")
            XCTAssertGreaterThan(s.damping, 0)
            XCTAssertTrue(s.stiffness.isFinite && s.damping.isFinite)
        }
    }

    /// Below zeta ~0.001 the envelope equation has no positive root; the spring must still be
    /// a stable, finite one (positive stiffness and damping), not one that grows without bound.
    func testTinyDampingRatioGivesAStableSpring() {
        for zeta in [1.1920929e-7, 0.0005, 0.001] {
            for duration in [0.3, 1, 4] {
                let s = SpringSolver(dampingRatio: zeta, duration: duration, initialVelocity: 0)
                XCTAssertGreaterThan(s.stiffness, 0, "zeta \(zeta) T \(duration)")
                XCTAssertGreaterThan(s.damping, 0, "zeta \(zeta) T \(duration)")
                for i in 0...50 {
                    let p = s.progress(at: Double(i) / 50 * duration)
                    XCTAssertTrue(p.isFinite)
                    XCTAssertLessThanOrEqual(abs(p - 1), 1 + 1e-9, "an undamped spring stays within its amplitude")
                }
            }
        }
    }

    func testDurationIsClamped() {
        let short = SpringSolver(dampingRatio: 0.5, duration: 0.01, initialVelocity: 0)
        XCTAssertEqual(SpringSolver(dampingRatio: 0.5, duration: 0.001, initialVelocity: 0), short)
        XCTAssertEqual(SpringSolver(dampingRatio: 0.5, duration: 0, initialVelocity: 0), short)
        XCTAssertEqual(SpringSolver(dampingRatio: 0.5, duration: -3, initialVelocity: 0), short)
        let long = SpringSolver(dampingRatio: 0.5, duration: 10, initialVelocity: 0)
        XCTAssertEqual(SpringSolver(dampingRatio: 0.5, duration: 25, initialVelocity: 0), long)
        XCTAssertNotEqual(short, long)
        // Within the range nothing is clamped: 3 s differs from both ends.
        let mid = SpringSolver(dampingRatio: 0.5, duration: 3, initialVelocity: 0)
        XCTAssertNotEqual(mid, short)
        XCTAssertNotEqual(mid, long)
    }

    /// The timing curve of a spring animation is the spring's progress at u x duration (linear time).
    func testSpringTimingCurveUsesLinearTime() {
        let curve = TimingCurve.spring(dampingRatio: 0.7, initialVelocity: 0)
        // The solved spring for (0.7, 0.5) is k 387.27458, c 27.55101 (docs/animation.md).
        let w0 = 387.27458.squareRoot(), zeta = 27.55101 / (2 * w0), wd = w0 * (1 - zeta * zeta).squareRoot()
        for u in [0.1, 0.3, 0.6] {
            let t = u * 0.5
            let x = exp(-zeta * w0 * t) * (cos(wd * t) + (zeta * w0 / wd) * sin(wd * t))
            XCTAssertEqual(curve.progress(u, duration: 0.5), 1 - x, accuracy: 1e-4, "u \(u)")
        }
        XCTAssertEqual(curve.progress(1, duration: 0.5), 1)
        XCTAssertEqual(curve.progress(0, duration: 0.5), 0, accuracy: 1e-12)
    }

    /// Seed 000's spring (damping 0.8, initial velocity 6, 1 s): zeta w0 < v at the root, where
    /// The literal f' (without the sign factor) has the wrong sign for |.|. The solver must still land on a root of f and
    /// settle by the duration, instead of walking to w = 0 (progress = v t, a 600% overshoot).
    func testStrongInitialVelocityStillSettles() {
        let s = SpringSolver(dampingRatio: 0.8, duration: 1.0, initialVelocity: 6.0)
        let w = s.stiffness.squareRoot()
        let f = 0.001 - abs((0.8 * w - 6.0) / (w * (1 - 0.64).squareRoot())) * exp(-0.8 * w * 1.0)
        XCTAssertEqual(f, 0, accuracy: 1e-9, "w0 = \(w) is not a root of f")
        XCTAssertGreaterThan(w, 1)
        XCTAssertEqual(s.progress(at: 1.0), 1, accuracy: 0.01)
        let peak = stride(from: 0.0, through: 1.0, by: 0.01).map { s.progress(at: $0) }.max()!
        XCTAssertLessThan(peak, 1.2, "a damping ratio of 0.8 overshoots a little, not several times")
    }
}
