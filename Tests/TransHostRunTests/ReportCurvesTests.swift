import Foundation
import TransHostCore
@testable import TransHostRun
import XCTest

/// The report's rotation curves read as a person expects a turn to read: the angle about the
/// axis that turns, continuous past 90 and 180 degrees.
final class ReportCurvesTests: XCTestCase {
    /// CATransform3DMakeRotation's matrix (row vectors, as the trace stores it).
    func rotation(_ degrees: Double, _ x: Double, _ y: Double, _ z: Double) -> [Double] {
        let a = degrees * .pi / 180, c = cos(a), s = sin(a), t = 1 - c
        return [t * x * x + c, t * x * y + z * s, t * x * z - y * s, 0,
                t * x * y - z * s, t * y * y + c, t * y * z + x * s, 0,
                t * x * z + y * s, t * y * z - x * s, t * z * z + c, 0,
                0, 0, 0, 1]
    }

    /// The angles the report gives a turn by each of `angles` about `axis`, frame after frame,
    /// as [z, y, x].
    func turn(_ angles: [Double], axis: (Double, Double, Double)) -> [[Double]] {
        var previous: ReportBuilder.Turn?
        return angles.map { d in
            let m = rotation(d, axis.0, axis.1, axis.2)
            let t = Transform3D(m11: m[0], m12: m[1], m13: m[2], m14: m[3], m21: m[4], m22: m[5], m23: m[6], m24: m[7],
                                m31: m[8], m32: m[9], m33: m[10], m34: m[11], m41: m[12], m42: m[13], m43: m[14], m44: m[15])
            let r = ReportBuilder.rotation(t, after: previous)
            previous = r
            return [r.z, r.y, r.x]
        }
    }

    func testATurnAboutYPastNinetyDegreesStaysOneCurve() {
        // split-modal turns its halves 90 radians (116.6 degrees) about y.
        let angles = stride(from: 0.0, through: 116.6, by: 4.0).map { $0 }
        for (d, r) in zip(angles, turn(angles, axis: (0, 1, 0))) {
            XCTAssertEqual(r[1], d, accuracy: 1e-6, "about y at \(d)")
            XCTAssertEqual(r[0], 0, accuracy: 1e-6, "no turn about z at \(d)")
            XCTAssertEqual(r[2], 0, accuracy: 1e-6, "no turn about x at \(d)")
        }
    }

    func testATurnAboutZPastHalfATurnKeepsCounting() {
        let angles = stride(from: 0.0, through: -270, by: -10.0).map { $0 }
        for (d, r) in zip(angles, turn(angles, axis: (0, 0, 1))) {
            XCTAssertEqual(r[0], d, accuracy: 1e-6, "about z at \(d)")
            XCTAssertEqual(r[1], 0, accuracy: 1e-6)
        }
    }

    func testATurnAboutXReadsAsX() {
        let r = turn([0, 30, 60], axis: (1, 0, 0))
        XCTAssertEqual(r.map { $0[2] }, [0, 30, 60].map(Double.init), accuracy: 1e-6)
    }
}

func XCTAssertEqual(_ a: [Double], _ b: [Double], accuracy: Double, file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(a.count, b.count, file: file, line: line)
    for (x, y) in zip(a, b) { XCTAssertEqual(x, y, accuracy: accuracy, file: file, line: line) }
}

final class ReportPositionCurveTests: XCTestCase {
    func testAViewSlidByItsTransformMovesOnThePositionChart() {
        var m = [Double](repeating: 0, count: 16)
        (m[0], m[5], m[10], m[15], m[12], m[13]) = (1, 1, 1, 1, -315.89, 12)
        let s = PresentationState(bounds: Rect(x: 0, y: 0, width: 320, height: 568), position: Point(x: 160, y: 284), anchorPoint: Point(x: 0.5, y: 0.5),
                                  transform: Transform3D(m), alpha: 1, backgroundColor: nil, cornerRadius: 0)
        let v = ReportBuilder.values(s)
        XCTAssertEqual(v["x"]!, 160 - 315.89, accuracy: 1e-9)
        XCTAssertEqual(v["y"]!, 296, accuracy: 1e-9)
        XCTAssertEqual(v["scaleX"]!, 1, accuracy: 1e-9)
    }
}
