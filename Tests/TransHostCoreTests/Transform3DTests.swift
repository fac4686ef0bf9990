import Foundation
import XCTest
@testable import TransHostCore

/// Reference values are worked by hand from the CATransform3D definitions of docs/animation.md
/// section 8 (row vectors, p' = p M, translation in m41..m43, m34 = -1/d).
final class Transform3DTests: XCTestCase {
    private func assertClose(_ a: Transform3D, _ b: Transform3D, _ tol: Double = 1e-9, _ msg: String = "",
                             file: StaticString = #filePath, line: UInt = #line) {
        let d = zip(a.values, b.values).map { abs($0 - $1) }.max()!
        XCTAssertLessThanOrEqual(d, tol, "\(msg)\n\(a.values)\nvs\n\(b.values)", file: file, line: line)
    }

    /// p M for the homogeneous point (x, y, z, 1), without the divide.
    private func apply(_ m: Transform3D, _ x: Double, _ y: Double, _ z: Double) -> [Double] {
        [x * m.m11 + y * m.m21 + z * m.m31 + m.m41, x * m.m12 + y * m.m22 + z * m.m32 + m.m42,
         x * m.m13 + y * m.m23 + z * m.m33 + m.m43, x * m.m14 + y * m.m24 + z * m.m34 + m.m44]
    }

    private func withPerspective(_ d: Double) -> Transform3D {
        var t = Transform3D.identity
        t.m34 = -1 / d
        return t
    }

    // MARK: Construction and products

    func testRotationAboutZ() {
        let r = Transform3D.rotation(.pi / 2, 0, 0, 1)
        // c = 0, s = 1: m11 = c, m12 = s, m21 = -s, m22 = c.
        assertClose(r, Transform3D([0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]), 1e-15)
        // (1, 0) turns to (0, 1): counter-clockwise in y-up terms, clockwise on a y-down screen.
        let p = apply(r, 1, 0, 0)
        XCTAssertEqual(p[0], 0, accuracy: 1e-15)
        XCTAssertEqual(p[1], 1, accuracy: 1e-15)
        // The axis is normalized.
        assertClose(Transform3D.rotation(.pi / 2, 0, 0, 7), r, 1e-15)
        // A zero axis gives the identity.
        XCTAssertEqual(Transform3D.rotation(1, 0, 0, 0), .identity)
    }

    func testRotationAboutXAndY() {
        // About x by 90 degrees: (0, 1, 0) -> (0, 0, 1).
        let rx = Transform3D.rotation(.pi / 2, 1, 0, 0)
        let p = apply(rx, 0, 1, 0)
        XCTAssertEqual(p[0], 0, accuracy: 1e-15); XCTAssertEqual(p[1], 0, accuracy: 1e-15); XCTAssertEqual(p[2], 1, accuracy: 1e-15)
        // About y by 60 degrees: m11 = c, m13 = -s, m31 = s, m33 = c.
        let ry = Transform3D.rotation(.pi / 3, 0, 1, 0)
        let s = 3.0.squareRoot() / 2
        assertClose(ry, Transform3D([0.5, 0, -s, 0, 0, 1, 0, 0, s, 0, 0.5, 0, 0, 0, 0, 1]), 1e-15)
    }

    func testScaleAndTranslation() {
        XCTAssertEqual(Transform3D.scale(2, 3, 4).values, [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 0, 0, 0, 1])
        XCTAssertEqual(Transform3D.translation(5, 6, 7).values, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 6, 7, 1])
        // CATransform3DScale(t, ...) = S x t: the scale acts first, the translation is kept.
        XCTAssertEqual(Transform3D.translation(5, 6, 7).scaled(2, 3, 4).values, [2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 5, 6, 7, 1])
        // CATransform3DTranslate(t, ...) = T x t: the translation is scaled by t.
        XCTAssertEqual(Transform3D.scale(2, 2, 2).translated(1, 2, 3).values, [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 2, 4, 6, 1])
    }

    func testConcatIsSelfThenOther() {
        let t = Transform3D.translation(10, 0, 0), s = Transform3D.scale(2, 2, 1)
        // Translate then scale: (x + 10) * 2.
        XCTAssertEqual(t.concatenating(s).values, [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 20, 0, 0, 1])
        // Scale then translate: 2x + 10.
        XCTAssertEqual(s.concatenating(t).values, [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1, 0, 10, 0, 0, 1])
        XCTAssertEqual(Transform3D.identity.concatenating(s), s)
        XCTAssertEqual(s.concatenating(.identity), s)
    }

    func testRotateIsRotationTimesT() {
        // CATransform3DRotate(T, 90 deg, z) = R x T: rotate first, then translate by (100, 0).
        let m = Transform3D.translation(100, 0, 0).rotated(.pi / 2, 0, 0, 1)
        assertClose(m, Transform3D.rotation(.pi / 2, 0, 0, 1).concatenating(.translation(100, 0, 0)), 1e-15)
        let p = apply(m, 1, 0, 0)
        XCTAssertEqual(p[0], 100, accuracy: 1e-12)
        XCTAssertEqual(p[1], 1, accuracy: 1e-12)
        // The other order would give (0, 101): make sure it is not that.
        XCTAssertNotEqual(m, Transform3D.translation(100, 0, 0).concatenating(.rotation(.pi / 2, 0, 0, 1)))
    }

    func testPerspectiveProjectionWithYRotation() {
        // t = identity, m34 = -1/900; t = CATransform3DRotate(t, 60 deg, 0, 1, 0) = R x t.
        let m = withPerspective(900).rotated(.pi / 3, 0, 1, 0)
        let s = 3.0.squareRoot() / 2
        // Row i of R x P is (r_i1, r_i2, r_i3, r_i3 m34): m14 = -s (-1/900), m34 = c (-1/900).
        XCTAssertEqual(m.m14, s / 900, accuracy: 1e-15)
        XCTAssertEqual(m.m24, 0)
        XCTAssertEqual(m.m34, -0.5 / 900, accuracy: 1e-15)
        XCTAssertEqual(m.m44, 1)
        // (100, 40): W = 1 + s 100/900 = 1.0962250448649375; x' = c 100 / W, y' = 40 / W.
        let p = m.project(Point(x: 100, y: 40))!
        XCTAssertEqual(p.x, 45.61107250214334, accuracy: 1e-9)
        XCTAssertEqual(p.y, 36.48885800171467, accuracy: 1e-9)
        // The near side (x < 0 goes towards the eye) is magnified: (-100, 40), W = 1 - 0.0962...
        let q = m.project(Point(x: -100, y: 40))!
        XCTAssertEqual(q.x, -50 / (1 - s * 100 / 900), accuracy: 1e-9)
        XCTAssertEqual(q.y, 40 / (1 - s * 100 / 900), accuracy: 1e-9)
        // Behind the eye (W <= 0 when x <= -900 / s = -1039.23) the point is clipped.
        XCTAssertNil(m.project(Point(x: -1100, y: 0)))
        XCTAssertNotNil(m.project(Point(x: -1000, y: 0)))
    }

    func testAffineRoundTrip() {
        let a = AffineTransform(a: 0.8, b: 0.6, c: -1.2, d: 0.9, tx: 12.5, ty: -7)
        let t = Transform3D(a)
        XCTAssertTrue(t.isAffine)
        XCTAssertEqual(t.affine, a)
        XCTAssertEqual(t.values, [0.8, 0.6, 0, 0, -1.2, 0.9, 0, 0, 0, 0, 1, 0, 12.5, -7, 0, 1])
        // Products agree: CGAffineTransformConcat and CATransform3DConcat are the same order.
        let b = AffineTransform(rotationAngle: 0.4).concatenating(AffineTransform(translationX: 3, y: 4))
        assertClose(Transform3D(a.concatenating(b)), Transform3D(a).concatenating(Transform3D(b)), 1e-12)
        XCTAssertFalse(Transform3D.rotation(0.1, 0, 1, 0).isAffine)
        XCTAssertFalse(withPerspective(500).isAffine)
        XCTAssertTrue(Transform3D.rotation(0.1, 0, 0, 1).isAffine)
    }

    // MARK: Interpolation

    func testHalfTurnInterpolatesThroughAQuarterTurn() {
        let m = Transform3D.interpolate(.identity, .rotation(.pi, 0, 0, 1), 0.5)
        // A 90-degree rotation about z, not a collapse to zero scale.
        XCTAssertEqual(m.m11, 0, accuracy: 1e-12)
        XCTAssertEqual(m.m22, 0, accuracy: 1e-12)
        XCTAssertEqual(abs(m.m12), 1, accuracy: 1e-12)
        XCTAssertEqual(m.m21, -m.m12, accuracy: 1e-12)
        XCTAssertEqual(m.m33, 1, accuracy: 1e-12)
        XCTAssertTrue(m.isAffine)
    }

    func testRotationAngleInterpolatesLinearly() {
        assertClose(Transform3D.interpolate(.rotation(0.2, 0, 0, 1), .rotation(1.0, 0, 0, 1), 0.25), .rotation(0.4, 0, 0, 1))
        assertClose(Transform3D.interpolate(.rotation(0.3, 0, 1, 0), .rotation(-0.9, 0, 1, 0), 0.5), .rotation(-0.3, 0, 1, 0))
    }

    func testScaleInterpolatesLinearly() {
        assertClose(Transform3D.interpolate(.identity, .scale(0.1, 0.1, 0.1), 0.5), .scale(0.55, 0.55, 0.55))
        assertClose(Transform3D.interpolate(.identity, .scale(0.1, 0.1, 1), 0.25), .scale(0.775, 0.775, 1))
        assertClose(Transform3D.interpolate(.scale(2, 4, 1), .scale(1, 1, 1), 0.5), .scale(1.5, 2.5, 1))
    }

    func testTranslationInterpolatesLinearly() {
        let b = Transform3D.translation(100, -40, 8)
        for t in [0.1, 0.3, 0.5, 0.9] {
            assertClose(Transform3D.interpolate(.identity, b, t), .translation(100 * t, -40 * t, 8 * t), 1e-12)
        }
        // Spring overshoot extrapolates.
        assertClose(Transform3D.interpolate(.identity, b, 1.5), .translation(150, -60, 12), 1e-12)
        assertClose(Transform3D.interpolate(.identity, b, -0.25), .translation(-25, 10, -2), 1e-12)
    }

    func testPartsInterpolateIndependently() {
        // scale 2 then rotate 90 then translate (100, 0), from the identity: at 0.5 each part is halfway.
        let b = Transform3D.scale(2, 2, 1).concatenating(.rotation(.pi / 2, 0, 0, 1)).concatenating(.translation(100, 0, 0))
        let expected = Transform3D.scale(1.5, 1.5, 1).concatenating(.rotation(.pi / 4, 0, 0, 1)).concatenating(.translation(50, 0, 0))
        assertClose(Transform3D.interpolate(.identity, b, 0.5), expected, 1e-9)
    }

    func testAffineInputsGiveAffineOutputs() {
        let a = Transform3D(AffineTransform(rotationAngle: 0.3).concatenating(AffineTransform(scaleX: 2, y: 0.5))
            .concatenating(AffineTransform(translationX: 10, y: 20)))
        let b = Transform3D(AffineTransform(a: 1, b: 0, c: 0.5, d: 1, tx: 0, ty: 0).concatenating(AffineTransform(rotationAngle: -2.5))
            .concatenating(AffineTransform(scaleX: -1, y: 1)))
        for (x, y) in [(a, b), (b, a), (Transform3D.identity, b), (a, .rotation(.pi, 0, 0, 1)), (Transform3D.scale(1, -1, 1), a)] {
            for t in [-0.5, 0.1, 0.25, 0.5, 0.75, 1.3] {
                let m = Transform3D.interpolate(x, y, t)
                XCTAssertTrue(m.isAffine, "t \(t): \(m.values)")
                XCTAssertTrue(m.isFinite)
            }
        }
    }

    func testSingularDiagonalScaleBlendsComponentWise() {
        // CATransform3DScale(identity, 0, 0, 1), which the seeds animate from.
        let zero = Transform3D.identity.scaled(0, 0, 1)
        assertClose(Transform3D.interpolate(zero, .identity, 0.5), .scale(0.5, 0.5, 1), 1e-15)
        assertClose(Transform3D.interpolate(zero, .identity, 0.2), .scale(0.2, 0.2, 1), 1e-15)
        assertClose(Transform3D.interpolate(.identity, zero, 0.75), .scale(0.25, 0.25, 1), 1e-15)
        // Spring overshoot.
        assertClose(Transform3D.interpolate(zero, .identity, 1.2), .scale(1.2, 1.2, 1), 1e-15)
        // With a translation alongside, both parts stay linear.
        assertClose(Transform3D.interpolate(zero.concatenating(.translation(40, 0, 0)), .identity, 0.5),
                    Transform3D.scale(0.5, 0.5, 1).concatenating(.translation(20, 0, 0)), 1e-15)
    }

    func testNeverNaN() {
        let zero = Transform3D.scale(0, 0, 1)
        var noW = Transform3D.identity
        noW.m44 = 0
        var nan = Transform3D.identity
        nan.m11 = .nan
        var inf = Transform3D.identity
        inf.m42 = .infinity
        let inputs: [Transform3D] = [zero, zero.concatenating(.rotation(1, 0, 0, 1)), Transform3D.scale(0, 0, 0), noW,
                                     .rotation(.pi / 2, 1, 0, 0), withPerspective(900).rotated(-.pi / 2, 0, 1, 0),
                                     Transform3D.scale(1e-200, 1e-200, 1), Transform3D.scale(1e200, 1, 1), nan, inf, .identity]
        for a in inputs {
            for b in inputs {
                for t in [-1.0, 0, 0.3, 0.5, 1, 2.5, .nan, .infinity] {
                    XCTAssertTrue(Transform3D.interpolate(a, b, t).isFinite || !(a.isFinite || b.isFinite),
                                  "\(a.values) -> \(b.values) at \(t)")
                }
            }
        }
        // A non-finite end is replaced by the other one.
        XCTAssertEqual(Transform3D.interpolate(nan, zero, 0.3), zero)
        XCTAssertEqual(Transform3D.interpolate(zero, inf, 0.3), zero)
        XCTAssertEqual(Transform3D.interpolate(nan, inf, 0.3), .identity)
    }

    func testSlerpTakesTheShortestPath() {
        // 270 degrees is -90: half of it is -45, not +135.
        assertClose(Transform3D.interpolate(.identity, .rotation(3 * .pi / 2, 0, 0, 1), 0.5), .rotation(-.pi / 4, 0, 0, 1))
        // 350 degrees to 10 degrees goes through 0.
        assertClose(Transform3D.interpolate(.rotation(-10 * .pi / 180, 0, 0, 1), .rotation(10 * .pi / 180, 0, 0, 1), 0.5), .identity, 1e-12)
        assertClose(Transform3D.interpolate(.rotation(350 * .pi / 180, 0, 0, 1), .rotation(10 * .pi / 180, 0, 0, 1), 0.25),
                    .rotation(-5 * .pi / 180, 0, 0, 1), 1e-12)
    }

    func testSlerpExtrapolatesOutsideTheUnitInterval() {
        let quarter = Transform3D.rotation(.pi / 2, 0, 0, 1)
        assertClose(Transform3D.interpolate(.identity, quarter, 1.25), .rotation(5 * .pi / 8, 0, 0, 1))
        assertClose(Transform3D.interpolate(.identity, quarter, 2), .rotation(.pi, 0, 0, 1))
        assertClose(Transform3D.interpolate(.identity, quarter, -0.5), .rotation(-.pi / 4, 0, 0, 1))
        // Equal rotations stay put while other parts extrapolate.
        let r = Transform3D.rotation(0.5, 0, 1, 0)
        assertClose(Transform3D.interpolate(r, r.concatenating(.translation(10, 0, 0)), 1.3), r.concatenating(.translation(13, 0, 0)))
        // Nearly equal rotations (the linear branch) extrapolate too, without NaN.
        let m = Transform3D.interpolate(.rotation(0.5, 0, 0, 1), .rotation(0.5 + 1e-9, 0, 0, 1), 1.5)
        XCTAssertTrue(m.isFinite)
        assertClose(m, .rotation(0.5 + 1.5e-9, 0, 0, 1), 1e-12)
    }

    func testPerspectiveRotationRoundTrips() {
        // Split-modal: m34 = -1/900 with a rotation about y.
        let a = withPerspective(900).rotated(.pi / 3, 0, 1, 0)
        let b = withPerspective(900).rotated(-.pi / 2, 0, 1, 0)
        for t in [0.0, 0.3, 0.5, 1, 1.2] { assertClose(Transform3D.interpolate(a, a, t), a, 1e-9, "a a \(t)") }
        assertClose(Transform3D.interpolate(a, b, 0), a)
        assertClose(Transform3D.interpolate(a, b, 1), b)
        // Continuity at the ends (no shortcut hides a decomposition error).
        assertClose(Transform3D.interpolate(a, b, 1e-12), a, 1e-9)
        assertClose(Transform3D.interpolate(a, b, 1 - 1e-12), b, 1e-9)
        // Same perspective, rotations about the same axis: the angle blends, the perspective stays.
        assertClose(Transform3D.interpolate(a, b, 0.5), withPerspective(900).rotated(-.pi / 12, 0, 1, 0), 1e-12)
        assertClose(Transform3D.interpolate(withPerspective(900), b, 0.5), withPerspective(900).rotated(-.pi / 4, 0, 1, 0), 1e-12)
    }

    func testDecompositionRoundTrips() {
        var seed: UInt64 = 0x9E3779B97F4A7C15
        func random(_ lo: Double, _ hi: Double) -> Double {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return lo + (hi - lo) * Double(seed >> 11) / Double(1 << 53)
        }
        var cases: [Transform3D] = [
            withPerspective(900).rotated(.pi / 3, 0, 1, 0),
            Transform3D.rotation(.pi / 3, 0, 1, 0).concatenating(withPerspective(900)),
            withPerspective(900).concatenating(.rotation(-.pi / 2.5, 0, 1, 0)).concatenating(.translation(160, 0, -30)),
            Transform3D.rotation(.pi, 1, 1, 0),   // a half turn: quaternion with w = 0
            Transform3D.rotation(.pi, 1, -1, 0),
            Transform3D.rotation(.pi, 0, 0, 1),
            Transform3D.scale(-1, 1, 1).concatenating(.rotation(0.7, 0, 0, 1)),
            Transform3D.scale(2, 2, 2).concatenating(Transform3D(Array(Transform3D.identity.values.enumerated().map { $0.offset == 15 ? 2 : $0.element }))),
        ]
        for _ in 0..<200 {
            var skew = Transform3D.identity
            skew.m21 = random(-1, 1); skew.m31 = random(-1, 1); skew.m32 = random(-1, 1)
            var p = Transform3D.identity
            p.m14 = random(-0.002, 0.002); p.m24 = random(-0.002, 0.002); p.m34 = random(-0.002, 0.002)
            let m = Transform3D.scale(random(0.2, 3) * (random(0, 1) < 0.3 ? -1 : 1), random(0.2, 3), random(0.2, 3))
                .concatenating(skew)
                .concatenating(.rotation(random(-.pi, .pi), random(-1, 1), random(-1, 1), random(-1, 1)))
                .concatenating(.translation(random(-300, 300), random(-300, 300), random(-300, 300)))
                .concatenating(p)
            cases.append(m)
        }
        for m in cases {
            guard let d = m.decomposed() else { XCTFail("\(m.values) did not decompose"); continue }
            let scale = max(1, m.values.map(abs).max()!)
            assertClose(Transform3D(recomposing: d), m, 1e-12 * scale * 100, "round trip")
            XCTAssertEqual(d.quaternion.length, 1, accuracy: 1e-12)
        }
    }
}
