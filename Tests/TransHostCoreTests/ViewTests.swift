import XCTest
@testable import TransHostCore

/// View geometry identities of Core Animation (docs/animation.md):
/// frame.origin = position - anchorPoint x bounds.size, with the identity transform.
final class ViewTests: XCTestCase {
    func testFrameIsPositionMinusAnchorTimesSize() {
        let engine = AnimationEngine()
        let v = View(engine: engine, frame: Rect(x: 10, y: 20, width: 100, height: 50))
        XCTAssertEqual(v.bounds, Rect(x: 0, y: 0, width: 100, height: 50))
        XCTAssertEqual(v.position, Point(x: 60, y: 45))   // 10 + 0.5 x 100, 20 + 0.5 x 50
        XCTAssertEqual(v.anchorPoint, Point(x: 0.5, y: 0.5))
        XCTAssertEqual(v.frame, Rect(x: 10, y: 20, width: 100, height: 50))
        XCTAssertEqual(v.center, v.position)
    }

    func testSettingAnchorPointKeepsPositionAndMovesFrame() {
        let engine = AnimationEngine()
        let v = View(engine: engine, frame: Rect(x: 10, y: 20, width: 100, height: 50))
        v.anchorPoint = Point(x: 0, y: 0)
        XCTAssertEqual(v.position, Point(x: 60, y: 45))
        XCTAssertEqual(v.frame, Rect(x: 60, y: 45, width: 100, height: 50))
        v.anchorPoint = Point(x: 1, y: 0.5)
        XCTAssertEqual(v.position, Point(x: 60, y: 45))
        XCTAssertEqual(v.frame, Rect(x: -40, y: 20, width: 100, height: 50))   // 60 - 100, 45 - 25
    }

    func testSettingFrameHonoursTheAnchor() {
        let engine = AnimationEngine()
        let v = View(engine: engine, frame: Rect(x: 0, y: 0, width: 10, height: 10))
        v.anchorPoint = Point(x: 0, y: 1)
        v.frame = Rect(x: 5, y: 7, width: 40, height: 30)
        XCTAssertEqual(v.position, Point(x: 5, y: 37))   // 5 + 0 x 40, 7 + 1 x 30
        XCTAssertEqual(v.bounds.size, Size(width: 40, height: 30))
        XCTAssertEqual(v.frame, Rect(x: 5, y: 7, width: 40, height: 30))
    }

    func testFrameUnderATransformIsTheBoundingBoxAboutTheAnchor() {
        let engine = AnimationEngine()
        let v = View(engine: engine, frame: Rect(x: 10, y: 20, width: 100, height: 50))
        v.transform = AffineTransform(scaleX: 2, y: 2)
        XCTAssertEqual(v.frame, Rect(x: -40, y: -5, width: 200, height: 100))   // centred on (60, 45)
        v.transform3D = .rotation(.pi / 2, 0, 0, 1)
        let f = v.frame
        XCTAssertEqual(f.minX, 35, accuracy: 1e-9)   // 60 - 25
        XCTAssertEqual(f.minY, -5, accuracy: 1e-9)   // 45 - 50
        XCTAssertEqual(f.width, 50, accuracy: 1e-9)
        XCTAssertEqual(f.height, 100, accuracy: 1e-9)
    }
}
