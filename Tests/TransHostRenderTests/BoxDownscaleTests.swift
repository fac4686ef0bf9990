import XCTest
import CCairo
import CRenderKernels
import TransHostCore
@testable import TransHostRender

/// Contact-sheet thumbnails are drawn by th_box_downscale_over when the frame is a whole
/// number of times the thumbnail's size. Sheets must keep their bytes, so its pixels are
/// checked against cairo's own GOOD-filter paint, which it replaces, on images with every kind
/// of alpha, at the scales a sheet meets (2x to 33x, unequal axes) and at the source's edges.
final class BoxDownscaleTests: XCTestCase {
    /// Premultiplied noise: opaque, clear and translucent stretches, with flat runs between.
    private func noise(width: Int, height: Int, seed: UInt64) -> RGBAImage {
        let image = RGBAImage(width: width, height: height)
        var s = seed
        func next() -> UInt32 {
            s = s &* 6364136223846793005 &+ 1442695040888963407
            return UInt32(truncatingIfNeeded: s >> 33)
        }
        let words = image.data.assumingMemoryBound(to: UInt32.self)
        for y in 0..<height {
            for x in 0..<width {
                let r = next()
                let a: UInt32 = switch r % 5 { case 0: 0; case 1, 2: 255; default: r >> 24 }
                let flat = (x / 7 + y / 5) % 3 == 0
                let c = flat ? 0x3c_5a_78 : next()
                func ch(_ v: UInt32) -> UInt32 { (v & 255) * a / 255 }
                words[y * image.stride / 4 + x] = a << 24 | ch(c >> 16) << 16 | ch(c >> 8) << 8 | ch(c)
            }
        }
        return image
    }

    /// ContactSheet's cairo path, which the loop replaces.
    private func cairoThumbnail(_ image: RGBAImage, over sheet: RGBAImage, x: Int, y: Int, tw: Int, th: Int) {
        sheet.withCairo { cr in ContactSheet.cairoThumbnail(image, cr: cr, x: x, y: y, width: tw, height: th) }
    }

    private func ours(_ image: RGBAImage, over sheet: RGBAImage, x: Int, y: Int, tw: Int, th: Int) -> Bool {
        th_box_downscale_over(image.data.assumingMemoryBound(to: UInt32.self), image.stride, Int32(image.width), Int32(image.height),
                              sheet.data.assumingMemoryBound(to: UInt32.self), sheet.stride, Int32(sheet.width), Int32(sheet.height),
                              Int32(x), Int32(y), Int32(tw), Int32(th)) != 0
    }

    private func firstDifference(_ a: RGBAImage, _ b: RGBAImage) -> String? {
        for y in 0..<a.height {
            for x in 0..<a.width where a.premultipliedPixel(x: x, y: y) != b.premultipliedPixel(x: x, y: y) {
                return "(\(x), \(y)): ours \(String(a.premultipliedPixel(x: x, y: y), radix: 16)), cairo \(String(b.premultipliedPixel(x: x, y: y), radix: 16))"
            }
        }
        return nil
    }

    func testWholeShrinksMatchCairoPixelForPixel() {
        let cases: [(tw: Int, th: Int, sx: Int, sy: Int)] = [
            (40, 30, 2, 3), (24, 20, 3, 3), (40, 71, 4, 4), (20, 16, 5, 5), (16, 28, 6, 6),
            (12, 9, 8, 8), (6, 5, 16, 16), (30, 21, 3, 4), (18, 25, 4, 2), (9, 7, 7, 11), (12, 10, 17, 2), (3, 4, 20, 33),
        ]
        for (k, c) in cases.enumerated() {
            let frame = noise(width: c.tw * c.sx, height: c.th * c.sy, seed: UInt64(k + 1))
            let expected = noise(width: c.tw + 13, height: c.th + 9, seed: UInt64(100 + k))
            let actual = expected.copy()
            cairoThumbnail(frame, over: expected, x: 5, y: 3, tw: c.tw, th: c.th)
            XCTAssertTrue(ours(frame, over: actual, x: 5, y: 3, tw: c.tw, th: c.th), "\(c) should be drawn by our loop")
            XCTAssertNil(firstDifference(actual, expected), "shrink \(c.sx)x\(c.sy) to \(c.tw)x\(c.th)")
        }
    }

    /// A phone frame into a sheet cell, as the gallery draws it (640 x 1136 into 160 x 284).
    func testAPhoneFrameIntoASheetCellMatchesCairo() {
        let frame = noise(width: 640, height: 1136, seed: 7)
        let sheet = RGBAImage(width: 680, height: 400)
        sheet.fill(.white)
        let expected = sheet.copy()
        cairoThumbnail(frame, over: expected, x: 176, y: 68, tw: 160, th: 284)
        XCTAssertTrue(ours(frame, over: sheet, x: 176, y: 68, tw: 160, th: 284))
        XCTAssertNil(firstDifference(sheet, expected))
    }

    /// Where every tap reads one pixel the loop skips the multiply-adds, so frames made of flat
    /// stretches (opaque, translucent and clear bands) with stray pixels, one here and there
    /// at every tap position including the last row's and column's, must still give cairo's
    /// pixels: at the gallery's 4x, at 3x (taps compared 4 at a time exactly), 5x and 7x (the
    /// last 4 overlapping) and 6x, and at the frame's edges.
    func testFlatFramesWithStrayPixelsMatchCairo() {
        var s: UInt64 = 99
        func next() -> UInt32 {
            s = s &* 6364136223846793005 &+ 1442695040888963407
            return UInt32(truncatingIfNeeded: s >> 33)
        }
        for scale in [3, 4, 5, 6, 7] {
            let (tw, th) = (23, 17)
            let frame = RGBAImage(width: tw * scale, height: th * scale)
            let words = frame.data.assumingMemoryBound(to: UInt32.self)
            for y in 0..<frame.height {
                for x in 0..<frame.width {
                    // Bands of flat opaque, translucent (premultiplied) and clear pixels.
                    let band: UInt32 = switch (y / 9 + x / 23) % 3 { case 0: 0xff_3c_5a_78; case 1: 0x80_20_10_30; default: 0 }
                    let stray = next() % 29 == 0
                    let a = next() & 255
                    words[y * frame.stride / 4 + x] = stray ? a << 24 | (a / 2) << 16 | (a / 3) << 8 | (a / 5) : band
                }
            }
            let expected = RGBAImage(width: tw + 6, height: th + 4)
            expected.fill(.white)
            let actual = expected.copy()
            cairoThumbnail(frame, over: expected, x: 3, y: 2, tw: tw, th: th)
            XCTAssertTrue(ours(frame, over: actual, x: 3, y: 2, tw: tw, th: th), "\(scale)x should be drawn by our loop")
            XCTAssertNil(firstDifference(actual, expected), "flat frame shrunk \(scale)x")
        }
    }

    /// At the gallery's 4x a pixel's five tap columns start on the last column of the pixel
    /// before, and after a flat pixel only the four new columns are compared: one stray pixel
    /// in a flat frame, in turn at every column and row of several pixels' taps, still gives
    /// cairo's pixels (runs of flat pixels before and after it included).
    func testOneStrayPixelAnywhereInAFlatRunMatchesCairo() {
        let (tw, th) = (12, 4)
        for sy in 0..<8 {
            for sx in 0..<(tw * 4) {
                let frame = RGBAImage(width: tw * 4, height: th * 4)
                frame.fill(Color(red: 0.24, green: 0.35, blue: 0.47))
                let words = frame.data.assumingMemoryBound(to: UInt32.self)
                words[(sy + 4) * frame.stride / 4 + sx] = 0xff_f0_20_10
                let expected = RGBAImage(width: tw + 2, height: th + 2)
                expected.fill(.white)
                let actual = expected.copy()
                cairoThumbnail(frame, over: expected, x: 1, y: 1, tw: tw, th: th)
                XCTAssertTrue(ours(frame, over: actual, x: 1, y: 1, tw: tw, th: th))
                if let d = firstDifference(actual, expected) { return XCTFail("stray pixel at (\(sx), \(sy + 4)): \(d)") }
            }
        }
    }

    /// Scales it does not reproduce are left to cairo, with nothing drawn: fractional ones,
    /// none at all, and 2x on both axes (cairo's bilinear filter draws that).
    func testOtherScalesAreRefusedUntouched() {
        let frame = noise(width: 100, height: 90, seed: 3)
        let sheet = noise(width: 120, height: 120, seed: 4)
        let before = sheet.copy()
        for (tw, th) in [(33, 30), (50, 45), (25, 90), (100, 90), (7, 9), (110, 45)] {
            XCTAssertFalse(ours(frame, over: sheet, x: 0, y: 0, tw: tw, th: th), "\(tw)x\(th)")
        }
        XCTAssertFalse(ours(frame, over: sheet, x: 100, y: 0, tw: 50, th: 45), "a cell past the sheet's edge")
        XCTAssertNil(firstDifference(sheet, before))
    }
}
