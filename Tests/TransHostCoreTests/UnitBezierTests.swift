import XCTest
@testable import TransHostCore

/// Reference values: the control points of docs/animation.md; y at given x solved
/// independently (bisection to machine precision, outside this code base).
final class UnitBezierTests: XCTestCase {
    func testNamedControlPoints() {
        func cps(_ b: UnitBezier) -> [Double] { [b.p1x, b.p1y, b.p2x, b.p2y] }
        XCTAssertEqual(cps(.linear), [0, 0, 1, 1])
        XCTAssertEqual(cps(.easeIn), [0.42, 0, 1, 1])
        XCTAssertEqual(cps(.easeOut), [0, 0, 0.58, 1])
        XCTAssertEqual(cps(.easeInEaseOut), [0.42, 0, 0.58, 1])
        XCTAssertEqual(cps(.caDefault), [0.25, 0.1, 0.25, 1])
    }

    func testTimingCurveOptionBitsPickTheUIKitCurves() {
        XCTAssertEqual(TimingCurve(optionBits: 0), .bezier(.easeInEaseOut))   // the UIView default
        XCTAssertEqual(TimingCurve(optionBits: 1 << 16), .bezier(.easeIn))
        XCTAssertEqual(TimingCurve(optionBits: 2 << 16), .bezier(.easeOut))
        XCTAssertEqual(TimingCurve(optionBits: 3 << 16), .bezier(.linear))
    }

    func testSampledCurveMatchesBernsteinForm() {
        // x(t) = 3(1-t)^2 t p1x + 3(1-t) t^2 p2x + t^3, likewise y.
        let b = UnitBezier(0.3, 0.2, 0.7, 0.9)
        for t in stride(from: 0.0, through: 1.0, by: 0.125) {
            let x = 3 * (1 - t) * (1 - t) * t * 0.3 + 3 * (1 - t) * t * t * 0.7 + t * t * t
            let y = 3 * (1 - t) * (1 - t) * t * 0.2 + 3 * (1 - t) * t * t * 0.9 + t * t * t
            XCTAssertEqual(b.sampleX(t), x, accuracy: 1e-15)
            XCTAssertEqual(b.sampleY(t), y, accuracy: 1e-15)
        }
    }

    func testSolvedValuesAgainstReference() {
        // y at x = 0.25, 0.5, 0.75 (bisection to 1e-16 on the Bernstein form).
        let reference: [(UnitBezier, [Double])] = [
            (.easeInEaseOut, [0.1291619310473198, 0.5, 0.8708380689526802]),
            (.easeIn, [0.09346465071882484, 0.31535681257253945, 0.62186186917489]),
            (.easeOut, [0.37813813082510966, 0.6846431874274606, 0.9065353492811752]),
            (.caDefault, [0.40851059135539586, 0.802403387584857, 0.9604589783489741]),
        ]
        for (curve, ys) in reference {
            for (x, y) in zip([0.25, 0.5, 0.75], ys) {
                // The solve is far tighter than the 1/(200 x duration) tolerance, at any duration.
                XCTAssertEqual(curve.solve(x, duration: 10), y, accuracy: 1e-9, "\(curve) at \(x)")
                XCTAssertEqual(curve.solve(x, duration: 0.25), y, accuracy: 1e-9, "\(curve) at \(x)")
            }
        }
        // The linear curve is the identity (y(t) = x(t) for control points (0,0), (1,1)).
        for x in [0.1, 0.3, 0.5, 0.77] { XCTAssertEqual(UnitBezier.linear.solve(x), x, accuracy: 1e-9) }
    }

    func testSolverAccuracyInX() {
        for curve in [UnitBezier.easeIn, .easeOut, .easeInEaseOut, .caDefault, UnitBezier(0.9, 0.1, 0.1, 0.9), UnitBezier(0, 1, 1, 0)] {
            for duration in [0.1, 0.35, 1, 5] {
                let epsilon = 1 / (200 * duration)
                for i in 0...400 {
                    let x = Double(i) / 400
                    let t = curve.solveCurveX(x, epsilon: epsilon)
                    XCTAssertLessThan(abs(curve.sampleX(t) - x), epsilon, "\(curve) x \(x) duration \(duration)")
                    XCTAssertGreaterThanOrEqual(t, -1e-9)
                    XCTAssertLessThanOrEqual(t, 1 + 1e-9)
                }
            }
        }
    }

    func testSolveIsMonotonic() {
        for curve in [UnitBezier.easeIn, .easeOut, .easeInEaseOut, .caDefault, UnitBezier(0.9, 0.1, 0.1, 0.9)] {
            var last = -Double.infinity
            for i in 0...1000 {
                let y = curve.solve(Double(i) / 1000, duration: 1)
                XCTAssertGreaterThanOrEqual(y, last - 1e-12, "\(curve) at \(Double(i) / 1000)")
                last = y
            }
        }
    }

    func testEndpoints() {
        for curve in [UnitBezier.linear, .easeIn, .easeOut, .easeInEaseOut, .caDefault] {
            XCTAssertEqual(curve.solve(0), 0)
            XCTAssertEqual(curve.solve(1), 1)
            XCTAssertEqual(curve.solve(-0.5), 0)
            XCTAssertEqual(curve.solve(1.5), 1)
            XCTAssertEqual(curve.sampleX(0), 0)
            XCTAssertEqual(curve.sampleX(1), 1, accuracy: 1e-15)
            XCTAssertEqual(curve.sampleY(1), 1, accuracy: 1e-15)
        }
    }

    func testEaseInOutIsSymmetric() {
        for x in [0.1, 0.2, 0.3, 0.45] {
            XCTAssertEqual(UnitBezier.easeInEaseOut.solve(x, duration: 10) + UnitBezier.easeInEaseOut.solve(1 - x, duration: 10),
                           1, accuracy: 1e-3)
        }
    }
}
