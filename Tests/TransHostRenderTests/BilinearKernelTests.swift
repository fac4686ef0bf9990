import XCTest
import CPixman
import CRenderKernels
import TransHostCore
import TransHostRenderScenes
@testable import TransHostRender

/// Layers moved by a fraction of a pixel are drawn by th_composite_translate_bilinear, and
/// scaled or faded ones by th_composite_scaled_bilinear, instead of pixman, and must keep
/// pixman's bytes: pictures are compared byte for byte across releases. Checked against
/// pixman_image_composite32 itself, at every vector level the CPU has.
final class BilinearKernelTests: XCTestCase {
    private func image(_ w: Int, _ h: Int, _ noise: inout PixelNoise, opaque: Bool) -> RGBAImage {
        let img = RGBAImage(width: w, height: h)
        let words = img.data.assumingMemoryBound(to: UInt32.self)
        for y in 0..<h { for x in 0..<w { words[y * img.stride / 4 + x] = noise.pixel(opaque: opaque) } }
        return img
    }

    private func levels(_ set: (Int32) -> Int32) -> [Int32] {
        let best = set(-1)
        return Array(0...best)
    }

    override func tearDown() {
        th_translate_bilinear_level(-1)
        th_scaled_bilinear_level(-1)
    }

    /// pixman's OVER of `src` under `t` (bilinear), through a solid mask of 16-bit alpha `alpha`
    /// when given, over the rectangle.
    private func pixmanOver(_ src: RGBAImage, _ t: pixman_transform_t, alpha: UInt16?, onto dst: RGBAImage, _ r: PixelRect) {
        var t = t
        pixman_image_set_transform(src.pixman, &t)
        pixman_image_set_filter(src.pixman, PIXMAN_FILTER_BILINEAR, nil, 0)
        var mask: OpaquePointer? = nil
        if let a = alpha {
            var c = pixman_color_t(red: 0, green: 0, blue: 0, alpha: a)
            mask = pixman_image_create_solid_fill(&c)
        }
        pixman_image_composite32(PIXMAN_OP_OVER, src.pixman, mask, dst.pixman, 0, 0, 0, 0,
                                 Int32(r.x0), Int32(r.y0), Int32(r.width), Int32(r.height))
        if let m = mask { pixman_image_unref(m) }
    }

    private func firstDifference(_ ours: RGBAImage, _ theirs: RGBAImage) -> String? {
        for y in 0..<ours.height {
            for x in 0..<ours.width where ours.premultipliedPixel(x: x, y: y) != theirs.premultipliedPixel(x: x, y: y) {
                return "pixel (\(x), \(y)) is \(String(ours.premultipliedPixel(x: x, y: y), radix: 16)), pixman draws "
                    + String(theirs.premultipliedPixel(x: x, y: y), radix: 16)
            }
        }
        return nil
    }

    /// One random case: a source of up to `maxWidth` x 30 (opaque or not), a destination of up
    /// to 90 x 30 with a copy for pixman, and a rectangle of it.
    private struct Case {
        let src: RGBAImage, ours: RGBAImage, theirs: RGBAImage, rect: PixelRect
    }

    private func randomCase(_ k: Int, maxWidth: Int, _ noise: inout PixelNoise) -> Case {
        let sw = 1 + Int(noise.next()) % maxWidth, sh = 1 + Int(noise.next() % 30)
        let dw = 1 + Int(noise.next() % 90), dh = 1 + Int(noise.next() % 30)
        let src = image(sw, sh, &noise, opaque: k % 3 == 0)
        let ours = image(dw, dh, &noise, opaque: k % 2 == 0)
        let x0 = Int(noise.next()) % dw, y0 = Int(noise.next()) % dh
        let rect = PixelRect(x0: x0, y0: y0, x1: x0 + 1 + Int(noise.next()) % (dw - x0), y1: y0 + 1 + Int(noise.next()) % (dh - y0))
        return Case(src: src, ours: ours, theirs: ours.copy(), rect: rect)
    }

    /// A source of one colour (opaque or not) with about one texel in 25 another, up to 160 x 30,
    /// and a destination of up to 200 x 30 with a rectangle of most of it.
    private func flatCase(_ k: Int, _ noise: inout PixelNoise) -> Case {
        let sw = 16 + Int(noise.next() % 145), sh = 4 + Int(noise.next() % 27)
        let dw = 40 + Int(noise.next() % 161), dh = 1 + Int(noise.next() % 30)
        let src = RGBAImage(width: sw, height: sh), colour = noise.pixel(opaque: k % 3 != 1)
        let words = src.data.assumingMemoryBound(to: UInt32.self)
        for y in 0..<sh { for x in 0..<sw { words[y * src.stride / 4 + x] = noise.next() % 25 == 0 ? noise.pixel(opaque: k % 2 == 0) : colour } }
        let ours = image(dw, dh, &noise, opaque: k % 2 == 0)
        let x0 = Int(noise.next() % 4), y0 = Int(noise.next()) % dh
        let rect = PixelRect(x0: x0, y0: y0, x1: dw - Int(noise.next() % 4), y1: y0 + 1 + Int(noise.next()) % (dh - y0))
        return Case(src: src, ours: ours, theirs: ours.copy(), rect: rect)
    }

    /// Random sources (partly outside the destination, so their edges blend with nothing),
    /// random destinations, offsets with and without a fraction on each axis, and rectangles
    /// covering part of the destination; every third source flat with a few odd texels (flat
    /// areas are stored without blending, except in a row whose other tap is outside the source).
    func testTranslationsMatchPixmanByteForByte() throws {
        for level in levels(th_translate_bilinear_level) {
            XCTAssertEqual(th_translate_bilinear_level(level), level)
            var noise = PixelNoise(s: 7 + UInt64(level))
            for k in 0..<600 {
                let c = k % 3 == 2 ? flatCase(k, &noise) : randomCase(k, maxWidth: 70, &noise), r = c.rect
                var tx = Int32(noise.next() % (100 << 16)) - (40 << 16), ty = Int32(noise.next() % (40 << 16)) - (15 << 16)
                if k % 5 == 1 { tx &= ~0xffff }
                if k % 7 == 2 { ty &= ~0xffff }
                var t = pixman_transform_t()
                pixman_transform_init_translate(&t, tx, ty)
                pixmanOver(c.src, t, alpha: nil, onto: c.theirs, r)
                // The rectangle's first pixel maps from the source's origin.
                let (vx, vy) = Renderer.pixmanSample(t, pixel: (0, 0))
                th_composite_translate_bilinear(c.src.data.assumingMemoryBound(to: UInt32.self), c.src.stride, Int32(c.src.width), Int32(c.src.height),
                                                c.ours.data.assumingMemoryBound(to: UInt32.self), c.ours.stride,
                                                Int32(r.x0), Int32(r.y0), Int32(r.x1), Int32(r.y1), vx, vy)
                if let d = firstDifference(c.ours, c.theirs) {
                    return XCTFail("level \(level), case \(k) (source \(c.src.width)x\(c.src.height), offset \(tx), \(ty) in 16.16): \(d)")
                }
            }
        }
    }

    /// As above for scales (each axis its own, shrinking and growing, up to 3.5 texels a
    /// pixel), with no mask, solid masks of any alpha, and unit scales with a mask, on noisy
    /// sources and on flat ones with a few odd texels.
    func testScalesAndFadesMatchPixmanByteForByte() throws {
        for level in levels(th_scaled_bilinear_level) {
            XCTAssertEqual(th_scaled_bilinear_level(level), level)
            var noise = PixelNoise(s: 70 + UInt64(level))
            for k in 0..<800 {
                // From case 500 on: one colour with a few odd texels, wider, mostly shrunk by at
                // most half and inside the source: eight pixels whose taps all read one colour
                // are blended from it without sampling, and must not miss an odd one.
                let flat = k >= 500
                let c = flat ? flatCase(k, &noise) : randomCase(k, maxWidth: 60, &noise), r = c.rect
                var t = pixman_transform_t()
                let ux: Int32 = k % 4 == 0 ? 65536 : 20000 + Int32(noise.next() % (flat ? 112000 : 210000))
                let uy: Int32 = k % 4 == 1 ? 65536 : (k % 3 == 0 ? ux : 20000 + Int32(noise.next() % 210000))
                pixman_transform_init_scale(&t, ux, uy)
                t.matrix.0.2 = flat ? Int32(noise.next() % (4 << 16)) : Int32(noise.next() % (60 << 16)) - (30 << 16)
                t.matrix.1.2 = Int32(noise.next() % (40 << 16)) - (20 << 16)
                let alpha: UInt16? = k % 3 == 1 ? nil : (k % 10 == 0 ? 65535 : UInt16(truncatingIfNeeded: noise.next()))
                pixmanOver(c.src, t, alpha: alpha, onto: c.theirs, r)
                let (vx, vy) = Renderer.pixmanSample(t, pixel: (0, 0))
                th_composite_scaled_bilinear(c.src.data.assumingMemoryBound(to: UInt32.self), c.src.stride, Int32(c.src.width), Int32(c.src.height),
                                             c.ours.data.assumingMemoryBound(to: UInt32.self), c.ours.stride,
                                             Int32(r.x0), Int32(r.y0), Int32(r.x1), Int32(r.y1), vx, vy, Int64(ux), Int64(uy),
                                             UInt32(alpha.map { $0 >> 8 } ?? 255))
                if let d = firstDifference(c.ours, c.theirs) {
                    return XCTFail("level \(level), case \(k) (source \(c.src.width)x\(c.src.height), scale \(ux), \(uy), alpha \(String(describing: alpha))): \(d)")
                }
            }
        }
    }

    /// A page and a translucent card at fractional positions, and a faded card scaled, over a
    /// window: the renderer's frame equals the one it draws through pixman alone, and the
    /// loops drew those layers.
    func testMovedAndScaledLayersRenderAsThroughPixman() {
        for (dx, dy) in [(0.3, 0.0), (-7.61, 0.37), (0.0, -0.49), (123.456, 2.001)] {
            for scale in [1, 2, 3] {
                let e = AnimationEngine()
                let root = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "window")
                root.backgroundColor = .black
                let page = DemoScenes.page(e, title: "Moved", hue: Color(red: 0.9, green: 0.85, blue: 1))
                page.transform3D = Transform3D.translation(dx, dy, 0)
                root.addSubview(page)
                let card = View(engine: e, frame: Rect(x: 40, y: 120, width: 200, height: 90), name: "card")
                card.backgroundColor = Color(red: 0.2, green: 0.6, blue: 0.3, alpha: 0.55)
                card.cornerRadius = 12
                card.transform3D = Transform3D.translation(dy * 3, dx * 0.5, 0)
                root.addSubview(card)
                let zoomed = View(engine: e, frame: Rect(x: 30, y: 300, width: 240, height: 200), name: "zoomed")
                zoomed.backgroundColor = Color(red: 0.8, green: 0.3, blue: 0.3)
                zoomed.cornerRadius = 20
                zoomed.addSubview(View(engine: e, frame: Rect(x: 10, y: 10, width: 50, height: 30), name: "badge"))
                zoomed.subviews[0].backgroundColor = .white
                zoomed.alpha = 0.5 + abs(dx) / 300
                zoomed.transform3D = Transform3D.translation(dx, dy, 0).scaled(0.9 + abs(dy) / 10, 0.93, 1)
                root.addSubview(zoomed)
                let nodes = e.sampleTree(root)
                let ours = Renderer(pointSize: DemoScenes.screen, scale: scale)
                let pixman = Renderer(pointSize: DemoScenes.screen, scale: scale)
                pixman.compositePath = .pixmanAffine
                let a = ours.render(nodes), b = pixman.render(nodes)
                XCTAssertGreaterThan(ours.stats.translateComposites, 0, "moved by (\(dx), \(dy)) at @\(scale)x")
                XCTAssertGreaterThan(ours.stats.scaledComposites, 0, "scaled and faded, at @\(scale)x")
                XCTAssertEqual(pixman.stats.translateComposites + pixman.stats.scaledComposites, 0)
                XCTAssertTrue(a.rgbaBytes() == b.rgbaBytes(), "moved by (\(dx), \(dy)) at @\(scale)x: the frames differ")
            }
        }
    }
}
