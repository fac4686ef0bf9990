import XCTest
import CRenderKernels
@testable import TransHostRender

/// Opaque images are PNG-encoded by our own loop (th_png_encode_opaque) instead of cairo's
/// libpng path. Pictures keep their bytes, so the files are compared with cairo's own for
/// images that make libpng choose each of its row filters, and the cases left to cairo are
/// checked to be cairo's.
final class PNGWriterTests: XCTestCase {
    private func image(width: Int, height: Int, alpha: (Int, Int) -> UInt32 = { _, _ in 255 },
                       colour: (Int, Int) -> UInt32) -> RGBAImage {
        let img = RGBAImage(width: width, height: height)
        let words = img.data.assumingMemoryBound(to: UInt32.self)
        for y in 0..<height {
            for x in 0..<width {
                let a = alpha(x, y), c = colour(x, y)
                func ch(_ v: UInt32) -> UInt32 { (v & 255) * a / 255 }
                words[y * img.stride / 4 + x] = a << 24 | ch(c >> 16) << 16 | ch(c >> 8) << 8 | ch(c)
            }
        }
        return img
    }

    func testOpaqueImagesGetCairosBytes() {
        var seed: UInt64 = 42
        func next() -> UInt32 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return UInt32(truncatingIfNeeded: seed >> 33)
        }
        let cases: [(String, RGBAImage)] = [
            // Flat rows (none), horizontal ramps (sub), vertical ramps (up), smooth 2D fields
            // (average, Paeth), noise, and a mix by band so the choice changes row to row.
            ("flat", image(width: 300, height: 90) { _, _ in 0xf0f0f4 }),
            ("horizontal ramp", image(width: 256, height: 80) { x, _ in UInt32(x) * 0x010101 }),
            ("vertical ramp", image(width: 200, height: 256) { _, y in UInt32(y) << 8 | 0x400000 }),
            ("field", image(width: 240, height: 200) { x, y in UInt32((x * y) & 255) << 16 | UInt32((x + 2 * y) & 255) << 8 | UInt32((x ^ y) & 255) }),
            ("noise", image(width: 120, height: 100) { _, _ in next() & 0xffffff }),
            ("bands", image(width: 320, height: 240) { x, y in
                switch (y / 12) % 4 {
                case 0: return 0x336699
                case 1: return UInt32(x & 255) * 0x010203
                case 2: return next() & 0xffffff
                default: return UInt32((x / 3 + y) & 255) << 8
                }
            }),
        ]
        for (name, img) in cases {
            XCTAssertEqual(th_png_is_opaque(img.data.assumingMemoryBound(to: UInt32.self), img.stride, Int32(img.width), Int32(img.height)), 1)
            let ours = PNGWriter.encode(img), cairo = PNGWriter.cairoEncode(img)
            XCTAssertEqual(ours.count, cairo.count, name)
            XCTAssertTrue(ours == cairo, "\(name): the PNG differs from cairo's")
        }
    }

    /// The filters' sums are taken 4 pixels at a time with a byte-at-a-time tail, so widths
    /// below one step, widths that leave a partial last step, and rows whose sums differ only in
    /// that tail must still pick libpng's filter and give cairo's bytes. Each image is tall
    /// enough (over 16 KiB of rows) to be ours.
    func testNarrowAndOddWidthsGetCairosBytes() {
        var seed: UInt64 = 7
        func next() -> UInt32 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return UInt32(truncatingIfNeeded: seed >> 33)
        }
        // One column and one row too, where libpng leaves out the filters that would read a
        // missing neighbour.
        let sizes = [1, 2, 3, 4, 5, 6, 7, 9, 13, 31, 37, 101].map { ($0, 16384 / (3 * $0 + 1) + 40) } + [(5500, 1)]
        for (width, height) in sizes {
            // Bands of noise, smooth fields (average, Paeth), ramps (sub, up) and flat rows, and
            // a last column unlike the rest so the tail decides some rows.
            let img = image(width: width, height: height) { x, y in
                // Alternate 200s and 100s: average would win the one row, and libpng has none.
                if height == 1 { return x % 2 == 0 ? 0xc8c8c8 : 0x646464 }
                if x == width - 1 && y % 3 == 0 { return next() & 0xffffff }
                switch (y / 7) % 5 {
                case 0: return next() & 0xffffff
                case 1: return UInt32((x * 9 + y * 5) & 255) << 16 | UInt32((x * y) & 255) << 8 | UInt32((x + y * y) & 255)
                case 2: return UInt32(x * 40 & 255) * 0x010101
                case 3: return UInt32(y & 255) << 8 | 0x200000
                default: return 0x808080
                }
            }
            var out = [UInt8](repeating: 0, count: th_png_opaque_bound(Int32(width), Int32(height)))
            let n = out.withUnsafeMutableBufferPointer {
                th_png_encode_opaque(img.data.assumingMemoryBound(to: UInt32.self), img.stride, Int32(width), Int32(height), $0.baseAddress)
            }
            XCTAssertGreaterThan(n, 0, "\(width)x\(height) should be encoded by our loop")
            XCTAssertTrue(Array(out[0..<n]) == PNGWriter.cairoEncode(img), "\(width)x\(height): the PNG differs from cairo's")
        }
    }

    /// Translucent images, and images of at most 16 KiB of rows (libpng narrows its window for
    /// them), are left to cairo; a sheet-sized opaque image is ours and still cairo's bytes.
    func testWhatIsLeftToCairoIsCairos() {
        let translucent = image(width: 200, height: 100, alpha: { x, _ in x < 100 ? 255 : 128 }) { x, y in UInt32(x * y) & 0xffffff }
        XCTAssertEqual(th_png_is_opaque(translucent.data.assumingMemoryBound(to: UInt32.self), translucent.stride, 200, 100), 0)
        XCTAssertEqual(PNGWriter.encode(translucent), PNGWriter.cairoEncode(translucent))
        let small = image(width: 40, height: 30) { x, _ in UInt32(x) * 0x030303 }
        var out = [UInt8](repeating: 0, count: th_png_opaque_bound(40, 30))
        XCTAssertEqual(out.withUnsafeMutableBufferPointer { th_png_encode_opaque(small.data.assumingMemoryBound(to: UInt32.self), small.stride, 40, 30, $0.baseAddress) }, 0)
        XCTAssertEqual(PNGWriter.encode(small), PNGWriter.cairoEncode(small))
        let sheet = ContactSheet.make(frames: [(image(width: 640, height: 1136) { x, y in UInt32((x + y) & 255) }, 0), (image(width: 640, height: 1136) { _, _ in 0xffffff }, 0.25)],
                                      caption: ContactSheet.Caption(animator: "a", transition: "#0 push", fromTo: "A → B", duration: 0.25, outcome: "completed"))
        XCTAssertEqual(PNGWriter.encode(sheet), PNGWriter.cairoEncode(sheet))
    }
}
