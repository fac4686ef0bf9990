import Foundation
import TransHostRender
import TransHostTestSupport
import XCTest

/// circle-reveal's pictures: half way through the present (t = 0.3 s of 0.6 s, where
/// ease-in-ease-out is exactly half way) the detail shows through a circle centred on the
/// button's centre (264, 500) with radius 28 + (hypot(264, 500) - 28) / 2 points, on the @2x
/// screen of the demo's iPhone 5.
final class CircleRevealPictureTests: XCTestCase {
    func testTheRevealCircleIsCentredOnTheButtonWithTheEasedRadius() throws {
        let out = try TestProcess.temporaryDirectory(self)
        let r = try BuildProducts.run(["run", "circle-reveal", "--out", out, "--frames", "--at", "300ms", "-q"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let img = try PNGReader.read(out + "/transition-0-present-f018-300ms.png")
        XCTAssertEqual(img.width, 640)
        let far: Double = (264.0 * 264.0 + 500.0 * 500.0).squareRoot()
        let radius: Double = (28 + (far - 28) / 2) * 2
        let cx = 528.0, cy = 1000.0
        // Inside the circle the detail's pink (green below 160); outside Home's grey and white.
        func inside(_ x: Int, _ y: Int) -> Bool { img.pixel(x: x, y: y).g < 160 }
        var top = -1
        for y in stride(from: Int(cy), through: 0, by: -1) where !inside(Int(cx), y) { top = y + 1; break }
        XCTAssertEqual(Double(top), cy - radius, accuracy: 1.5, "top of the circle above the button")
        let row = 700.0
        let dy: Double = cy - row
        let half: Double = (radius * radius - dy * dy).squareRoot()
        var left = -1
        for x in stride(from: Int(cx), through: 0, by: -1) where !inside(x, Int(row)) { left = x + 1; break }
        XCTAssertEqual(Double(left), cx - half, accuracy: 1.5, "left end of the chord 150 points above the button")
        // The edge is antialiased: the pixel across it is between the two colours.
        let edge = img.pixel(x: Int(cx), y: top - 1)
        XCTAssertTrue(edge.g > 87 && edge.g < 242, "a blended edge pixel, got \(edge)")
    }
}
