import XCTest
import TransHostCore
@testable import TransHostRender

/// Frames are compared as a person sees them: invisible colour shifts and anti-aliased edges
/// that moved do not count; a real change does, and the diff picture shows where.
final class PixelComparisonTests: XCTestCase {
    private func image(_ w: Int = 40, _ h: Int = 30, _ draw: (Int, Int) -> UInt32) -> RGBAImage {
        let img = RGBAImage(width: w, height: h)
        for y in 0..<h { for x in 0..<w { img.data.storeBytes(of: 0xff00_0000 | draw(x, y), toByteOffset: y * img.stride + x * 4, as: UInt32.self) } }
        return img
    }

    private let grey: UInt32 = 0xefeff4

    func testIdenticalFramesMatch() throws {
        let a = image { x, _ in x < 20 ? 0x2f6fdf : 0xefeff4 }
        let r = try PixelComparison.compare(expected: a, actual: a.copy())
        XCTAssertEqual(r.differing, 0)
        XCTAssertNil(r.bounds)
        XCTAssertTrue(r.matches)
    }

    func testAShiftTooSmallToSeeIsWithinTheThresholdButNotAtZero() throws {
        let a = image { _, _ in 0xefeff4 }, b = image { _, _ in 0xf0f0f5 }
        XCTAssertEqual(try PixelComparison.compare(expected: a, actual: b).differing, 0)
        XCTAssertEqual(try PixelComparison.compare(expected: a, actual: b, tolerance: .init(threshold: 0)).differing, 40 * 30)
    }

    func testAChangedRegionIsCountedAndBoundedAndDrawnRed() throws {
        let a = image { _, _ in self.grey }
        let b = image { x, y in (10..<15).contains(x) && (5..<9).contains(y) ? 0xd03020 : self.grey }
        let r = try PixelComparison.compare(expected: a, actual: b)
        XCTAssertEqual(r.differing, 20)
        XCTAssertFalse(r.matches)
        XCTAssertEqual(r.bounds.map { [$0.x0, $0.y0, $0.x1, $0.y1] }, [10, 5, 15, 9])
        XCTAssertEqual(r.diffImage.pixel(x: 12, y: 6), RGBA8(r: 255, g: 0, b: 0, a: 255))
        let context = r.diffImage.pixel(x: 30, y: 20)
        XCTAssertTrue(context.r == context.g && context.g == context.b && context.r > 230, "unchanged pixels are faded grey: \(context)")
        // Allowances: 20 pixels pass with --max-diff-pixels 20 or a ratio of 20 / 1200.
        XCTAssertTrue(try PixelComparison.compare(expected: a, actual: b, tolerance: .init(maxDiffPixels: 20)).matches)
        XCTAssertFalse(try PixelComparison.compare(expected: a, actual: b, tolerance: .init(maxDiffPixels: 19)).matches)
        XCTAssertTrue(try PixelComparison.compare(expected: a, actual: b, tolerance: .init(maxDiffRatio: 0.017)).matches)
    }

    /// A dark bar on white whose anti-aliased right edge sits a little further right: the edge
    /// pixels differ a lot, but they are anti-aliasing, not a change a person would call one.
    func testAMovedAntialiasedEdgeIsToldApart() throws {
        func bar(_ edge: UInt32) -> RGBAImage {
            image { x, _ in x < 20 ? 0x202020 : x == 20 ? edge : 0xffffff }
        }
        let a = bar(0x909090), b = bar(0x505050)
        let r = try PixelComparison.compare(expected: a, actual: b)
        XCTAssertEqual(r.differing, 0)
        XCTAssertEqual(r.antialiased, 30)
        XCTAssertEqual(r.diffImage.pixel(x: 20, y: 10), RGBA8(r: 255, g: 200, b: 0, a: 255), "anti-aliasing is yellow")
        let strict = try PixelComparison.compare(expected: a, actual: b, tolerance: .init(detectAntialiasing: false))
        XCTAssertEqual(strict.differing, 30)
    }

    func testFramesOfAnotherSizeAreAnErrorNotADiff() {
        XCTAssertThrowsError(try PixelComparison.compare(expected: image(40, 30) { _, _ in 0 }, actual: image(80, 60) { _, _ in 0 })) { e in
            XCTAssertTrue("\(e)".contains("80 x 60 pixels, the golden one 40 x 30"), "\(e)")
        }
    }

    func testADamagedPNGIsNamedNotDecoded() throws {
        let bytes = PNGWriter.encode(image { _, _ in self.grey })
        XCTAssertEqual(try PNGReader.decode(bytes, path: "ok.png").pixel(x: 3, y: 3), RGBA8(r: 239, g: 239, b: 244, a: 255))
        var flipped = bytes
        flipped[bytes.count / 2] ^= 0x40
        XCTAssertThrowsError(try PNGReader.decode(flipped, path: "g.png")) { XCTAssertTrue("\($0)".contains("fails its CRC check"), "\($0)") }
        XCTAssertThrowsError(try PNGReader.decode(Array(bytes.prefix(bytes.count - 20)), path: "g.png")) {
            XCTAssertTrue("\($0)".contains("truncated"), "\($0)")
        }
        XCTAssertThrowsError(try PNGReader.decode(Array("not a png".utf8), path: "g.png")) { XCTAssertTrue("\($0)".contains("g.png"), "\($0)") }
    }
}
