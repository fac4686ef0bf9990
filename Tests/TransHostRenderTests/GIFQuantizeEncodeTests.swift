import XCTest
import CRenderKernels

/// th_gifq_encode (flatten, find what changed and code it, in one pass over the frame) codes
/// every frame exactly as th_gifq_frame codes the flattened frame against the previous one, with
/// the smallest rectangle holding the change; so the GIF shows what the renderer drew whatever
/// the frame's size, its colours or where it changed.
final class GIFQuantizeEncodeTests: XCTestCase {
    /// A premultiplied ARGB32 frame, `stride` bytes a row (wider than the frame, like cairo's).
    struct Frame {
        let width: Int, height: Int
        var pixels: [UInt32]
        var stride: Int { (width + 3) * 4 }
        init(width: Int, height: Int, _ colour: (Int, Int) -> UInt32) {
            self.width = width
            self.height = height
            pixels = [UInt32](repeating: 0, count: (width + 3) * height)
            for y in 0..<height { for x in 0..<width { pixels[y * (width + 3) + x] = colour(x, y) } }
        }
        subscript(x: Int, y: Int) -> UInt32 {
            get { pixels[y * (width + 3) + x] }
            set { pixels[y * (width + 3) + x] = newValue }
        }
    }

    struct Coded: Equatable {
        var colors = 0, transparent = 0, exact = 0, dithered = 0
        var rect: [Int32] = []
        var palette: [UInt8] = [], indices: [UInt8] = []
    }

    /// Codes the frames with th_gifq_encode, and checks each against th_gifq_frame on frames
    /// flattened by th_flatten_rgb and the rectangle worked out here; returns what encode coded.
    @discardableResult
    func codeAndCompare(_ frames: [Frame], file: StaticString = #filePath, line: UInt = #line) -> [Coded] {
        let w = frames[0].width, h = frames[0].height
        let encoder = th_gifq_create()!, reference = th_gifq_create()!, hinted = th_gifq_create()!
        defer { th_gifq_destroy(encoder); th_gifq_destroy(reference); th_gifq_destroy(hinted) }
        var shown = [UInt32](repeating: 0xdead, count: w * h), previous: [UInt32] = []
        var hintedShown = shown
        var out: [Coded] = []
        for (k, frame) in frames.enumerated() {
            var coded = Coded(rect: [0, 0, 0, 0], palette: [UInt8](repeating: 0, count: 768), indices: [UInt8](repeating: 0, count: w * h))
            let r = frame.pixels.withUnsafeBufferPointer { px in
                th_gifq_encode(encoder, px.baseAddress, frame.stride, Int32(w), Int32(h), 255, 255, 255, &shown, k == 0 ? 1 : 0, nil,
                               &coded.rect, &coded.palette, &coded.indices)
            }
            // Told where the frame can differ (any rectangle holding the change, here the
            // change's own box widened by 0, 7 or 14 pixels), encode codes the same frame.
            var hintedCoded = Coded(rect: [0, 0, 0, 0], palette: [UInt8](repeating: 0, count: 768), indices: [UInt8](repeating: 0, count: w * h))
            var hint: [Int32] = [0, 0, 0, 0]
            if k > 0 {
                var x0 = w, y0 = h, x1 = 0, y1 = 0
                for y in 0..<h { for x in 0..<w where frame[x, y] != frames[k - 1][x, y] {
                    x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x + 1); y1 = max(y1, y + 1)
                } }
                let m = 7 * (k % 3)
                if x1 > x0 { hint = [Int32(x0 - m), Int32(y0 - m), Int32(x1 + m), Int32(y1 + m)] }
            }
            let hr = frame.pixels.withUnsafeBufferPointer { px in
                th_gifq_encode(hinted, px.baseAddress, frame.stride, Int32(w), Int32(h), 255, 255, 255, &hintedShown, k == 0 ? 1 : 0, hint,
                               &hintedCoded.rect, &hintedCoded.palette, &hintedCoded.indices)
            }
            hintedCoded.colors = Int(hr.colors); hintedCoded.transparent = Int(hr.transparent); hintedCoded.exact = Int(hr.exact)
            hintedCoded.dithered = hr.dithered
            coded.colors = Int(r.colors); coded.transparent = Int(r.transparent); coded.exact = Int(r.exact); coded.dithered = r.dithered

            var flat = [UInt32](repeating: 0, count: w * h)
            frame.pixels.withUnsafeBufferPointer { px in th_flatten_rgb(px.baseAddress, frame.stride, Int32(w), Int32(h), 255, 255, 255, &flat) }
            XCTAssertTrue(shown == flat, "frame \(k): shown holds the flattened frame", file: file, line: line)
            var rect: [Int32] = [0, 0, Int32(w), Int32(h)]
            if k > 0 {
                var x0 = w, y0 = h, x1 = 0, y1 = 0
                for y in 0..<h { for x in 0..<w where flat[y * w + x] != previous[y * w + x] {
                    x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x + 1); y1 = max(y1, y + 1)
                } }
                rect = x1 > x0 ? [Int32(x0), Int32(y0), Int32(x1), Int32(y1)] : [0, 0, 1, 1]
            }
            XCTAssertEqual(coded.rect, rect, "frame \(k): the smallest rectangle holding the change", file: file, line: line)
            var expected = Coded(rect: rect, palette: [UInt8](repeating: 0, count: 768), indices: [UInt8](repeating: 0, count: w * h))
            let e = flat.withUnsafeBufferPointer { c in
                previous.withUnsafeBufferPointer { p in
                    th_gifq_frame(reference, c.baseAddress, k > 0 ? p.baseAddress : nil, Int32(w), Int32(h), rect[0], rect[1], rect[2], rect[3],
                                  &expected.palette, &expected.indices)
                }
            }
            expected.colors = Int(e.colors); expected.transparent = Int(e.transparent); expected.exact = Int(e.exact); expected.dithered = e.dithered
            let n = Int((rect[2] - rect[0]) * (rect[3] - rect[1]))
            XCTAssertEqual(coded.colors, expected.colors, "frame \(k)", file: file, line: line)
            XCTAssertEqual(coded.transparent, expected.transparent, "frame \(k)", file: file, line: line)
            XCTAssertEqual(coded.exact, expected.exact, "frame \(k)", file: file, line: line)
            XCTAssertEqual(coded.dithered, expected.dithered, "frame \(k)", file: file, line: line)
            XCTAssertEqual(coded.palette[0..<(3 * coded.colors)], expected.palette[0..<(3 * expected.colors)], "frame \(k): palette", file: file, line: line)
            XCTAssertTrue(coded.indices[0..<n] == expected.indices[0..<n], "frame \(k): indices", file: file, line: line)
            coded.palette = Array(coded.palette[0..<(3 * coded.colors)])
            coded.indices = Array(coded.indices[0..<n])
            hintedCoded.palette = Array(hintedCoded.palette[0..<(3 * max(hintedCoded.colors, 0))])
            hintedCoded.indices = Array(hintedCoded.indices[0..<n])
            XCTAssertEqual(hintedCoded, coded, "frame \(k): coded alike when told where it changed (\(hint))", file: file, line: line)
            XCTAssertTrue(hintedShown == shown, "frame \(k): both show the same frame", file: file, line: line)
            out.append(coded)
            previous = flat
        }
        return out
    }

    /// What the decoder shows for pixel i of the rectangle: its palette colour.
    func colour(_ c: Coded, _ i: Int) -> UInt32 {
        let p = Int(c.indices[i]) * 3
        return UInt32(c.palette[p]) << 16 | UInt32(c.palette[p + 1]) << 8 | UInt32(c.palette[p + 2])
    }

    static func opaque(_ rgb: UInt32) -> UInt32 { 0xff00_0000 | rgb }

    /// A flat UI-like frame: a few fills and a diagonal stripe.
    func uiFrame(width: Int, height: Int, shift: Int = 0) -> Frame {
        Frame(width: width, height: height) { x, y in
            if (x + y + shift) % 11 == 0 { return Self.opaque(0x3478f6) }
            return Self.opaque(y < height / 3 ? 0xefeff4 : 0xffffff)
        }
    }

    func testAFrameIdenticalToThePreviousCodesOneTransparentPixel() {
        let f = uiFrame(width: 37, height: 9)
        let coded = codeAndCompare([f, f])
        XCTAssertEqual(coded[1].rect, [0, 0, 1, 1])
        XCTAssertEqual(coded[1].indices, [UInt8(coded[1].transparent)])
    }

    func testAOnePixelChangeAtEachCornerIsItsOwnRectangle() {
        for width in [1, 15, 16, 17, 63, 64, 65, 130] {
            let height = 5, base = uiFrame(width: width, height: height)
            for (x, y) in [(0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)] {
                var changed = base
                changed[x, y] = Self.opaque(0xff3b30)
                let coded = codeAndCompare([base, changed])
                XCTAssertEqual(coded[1].rect, [Int32(x), Int32(y), Int32(x + 1), Int32(y + 1)], "width \(width) at \(x), \(y)")
                XCTAssertEqual(colour(coded[1], 0), 0xff3b30)
            }
        }
    }

    func testAChangeOnlyInTheLastRowOrColumnIsFound() {
        for width in [17, 31, 64, 100] {
            let height = 6, base = uiFrame(width: width, height: height)
            var lastRow = base, lastColumn = base
            for x in 0..<width { lastRow[x, height - 1] = Self.opaque(UInt32(x) * 0x010101) }
            for y in 0..<height { lastColumn[width - 1, y] = Self.opaque(0x34c759) }
            let row = codeAndCompare([base, lastRow])[1]
            XCTAssertEqual(row.rect, [0, Int32(height - 1), Int32(width), Int32(height)])
            for x in 0..<width { XCTAssertEqual(colour(row, x), UInt32(x) * 0x010101, "every colour kept exactly") }
            let column = codeAndCompare([base, lastColumn])[1]
            XCTAssertEqual(column.rect, [Int32(width - 1), 0, Int32(width), Int32(height)])
        }
    }

    func testUnchangedPixelsInsideTheRectangleAreTransparentAndChangedOnesExact() {
        let base = uiFrame(width: 45, height: 20)
        var next = base
        for y in 3..<17 { for x in stride(from: 2, to: 40, by: 3) { next[x, y] = Self.opaque(0x5856d6) } }
        let coded = codeAndCompare([base, next])[1]
        XCTAssertEqual(coded.rect, [2, 3, 39, 17])
        for y in 3..<17 { for x in 2..<39 {
            let i = (y - 3) * 37 + (x - 2)
            if (x - 2) % 3 == 0 { XCTAssertEqual(colour(coded, i), 0x5856d6) } else { XCTAssertEqual(Int(coded.indices[i]), coded.transparent) }
        } }
    }

    /// 255 changed colours and an unchanged pixel fit exactly (255 entries and the transparent
    /// one); 256 changed colours in a frame with unchanged pixels do not.
    func testExactly255And256Colours() {
        let w = 20, h = 16
        let base = Frame(width: w, height: h) { _, _ in Self.opaque(0) }
        func spread(_ n: Int) -> Frame {
            Frame(width: w, height: h) { x, y in
                let i = y * w + x
                return i == w * h - 1 ? Self.opaque(0) : Self.opaque(UInt32(1 + i % n) << 8 | 0x40)
            }
        }
        let fits = codeAndCompare([base, spread(255)])[1]
        XCTAssertEqual(fits.colors, 256)
        XCTAssertEqual(fits.exact, 1)
        let over = codeAndCompare([base, spread(256)])[1]
        XCTAssertEqual(over.colors, 256)
        XCTAssertEqual(over.exact, 0)
        let first = codeAndCompare([spread(256)])[0]
        XCTAssertEqual(first.transparent, -1, "the first frame has no unchanged pixels")
    }

    /// The palette lists a frame's colours most pixels first, and colours of as many pixels by
    /// value, for a few colours and for many (the two ways the coder sorts them), whatever order
    /// they come in.
    func testThePaletteListsColoursMostPixelsFirstThenByValue() {
        for n in [5, 31, 33, 200] {
            // Colour k covers 1 + k % 4 + 256 (k % 3) pixels (ties on every count, and counts
            // that differ in their second byte only), its value scrambled so neither the
            // reading order nor the value follows the count.
            var pixels: [UInt32] = []
            for k in 0..<n {
                pixels += [UInt32](repeating: Self.opaque(UInt32((k * 2_654_435_761) & 0xff_ffff)), count: 1 + k % 4 + 256 * (k % 3))
            }
            // The last row is filled up with one more colour.
            let w = 16, h = (pixels.count + w - 1) / w
            pixels += [UInt32](repeating: Self.opaque(UInt32((n * 2_654_435_761) & 0xff_ffff)), count: w * h - pixels.count)
            // Scatter the pixels so no colour's pixels sit together.
            var order = Array(0..<(w * h))
            var noise = PixelNoise(s: 0x9e37_79b9_7f4a_7c15)
            for i in stride(from: order.count - 1, to: 0, by: -1) { order.swapAt(i, noise.below(i + 1)) }
            let frame = Frame(width: w, height: h) { x, y in pixels[order[y * w + x]] }
            let coded = codeAndCompare([frame])[0]
            var counts: [UInt32: Int] = [:]
            for p in pixels { counts[p & 0xff_ffff, default: 0] += 1 }
            let sorted = counts.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }.map(\.key)
            XCTAssertEqual(coded.colors, sorted.count, "\(n) colours")
            let palette = (0..<coded.colors).map { (i: Int) -> UInt32 in
                let r = UInt32(coded.palette[3 * i]), g = UInt32(coded.palette[3 * i + 1]), b = UInt32(coded.palette[3 * i + 2])
                return r << 16 | g << 8 | b
            }
            XCTAssertEqual(palette, sorted, "\(n) colours: most pixels first, then by value")
        }
    }

    /// More colours than the exact table holds (the binned path), with gradients and flat fills.
    func testMoreThan32768ColoursUseTheBinnedPath() {
        let w = 250, h = 180
        let gradient = Frame(width: w, height: h) { x, y in
            y < 20 ? Self.opaque(0xefeff4) : Self.opaque(UInt32(x) << 16 | UInt32(y) << 8 | UInt32((x * 7 + y * 3) & 255))
        }
        var moved = gradient
        for y in 30..<120 { for x in 40..<210 { moved[x, y] = gradient[x - 7, y + 5] } }
        let coded = codeAndCompare([gradient, moved])
        XCTAssertEqual(coded[0].exact, 0)
        XCTAssertGreaterThan(coded[0].dithered, 0)
        XCTAssertEqual(coded[1].rect[0], 40)
    }

    /// A frame of more one-colour stretches than the index pass takes from the counting pass
    /// (2^18; here every pixel of the first frame differs from its left neighbour, 270,000 of
    /// them in three colours) finds them again itself, and still gives every pixel its own
    /// colour, as a frame of a few stretches does.
    func testAFrameOfVeryManyStretchesKeepsEveryColourExact() {
        let w = 600, h = 450
        let colours: [UInt32] = [0x3478f6, 0xefeff4, 0x1c1c1e]
        let busy = Frame(width: w, height: h) { x, y in Self.opaque(colours[(x + 2 * y) % 3]) }
        let calm = Frame(width: w, height: h) { x, y in Self.opaque(colours[(y / 50) % 3]) }
        let frames = [busy, calm, busy]
        let coded = codeAndCompare(frames)
        // What a decoder shows: each frame's pixels over the one before (transparent: unchanged).
        var shown = [UInt32](repeating: 0, count: w * h)
        for (k, frame) in frames.enumerated() {
            XCTAssertEqual(coded[k].exact, 1, "frame \(k)")
            XCTAssertEqual(coded[k].rect, [0, 0, Int32(w), Int32(h)], "frame \(k)")
            var wrong = 0
            for y in 0..<h { for x in 0..<w {
                let i = y * w + x
                let index = Int(coded[k].indices[i])
                if index >= coded[k].colors { shown[i] = 0xff00_0000 }   // no such entry
                else if index != coded[k].transparent { shown[i] = colour(coded[k], i) }
                if shown[i] != frame[x, y] & 0xffffff { wrong += 1 }
            } }
            XCTAssertEqual(wrong, 0, "frame \(k): pixels shown in another colour")
        }
    }

    /// Semi-transparent pixels are composited over the background; frames of widths that are
    /// not a multiple of 16 code their last pixels like the others.
    func testTranslucentPixelsAndOddWidths() {
        for width in [1, 3, 5, 13, 21, 47] {
            let a = Frame(width: width, height: 7) { x, y in (x + y) % 2 == 0 ? 0x8040_2010 : Self.opaque(0x102030) }
            let b = Frame(width: width, height: 7) { x, y in (x * y) % 3 == 0 ? 0x0000_0000 : 0xc0a0_6000 }
            codeAndCompare([a, b, a, a])
        }
    }

    /// A slide: a block of text-like stripes moving over a flat page, frame after frame.
    func testASlideOverManyFrames() {
        let frames = (0..<6).map { k in
            Frame(width: 83, height: 40) { x, y in
                let inBlock = x >= k * 9 && x < k * 9 + 30 && y > 5 && y < 35
                return inBlock ? Self.opaque(y % 4 == 0 ? 0x1c1c1e : 0xf2f2f7) : Self.opaque(0xffffff)
            }
        }
        let coded = codeAndCompare(frames)
        for c in coded.dropFirst() { XCTAssertEqual(c.exact, 1) }
    }
}
