import XCTest
import CPixman
import CRenderKernels
import TransHostCore
import TransHostRenderScenes
@testable import TransHostRender

/// Layers moved by a fraction of a pixel are drawn by th_composite_translate_bilinear instead
/// of pixman, and must keep pixman's bytes: pictures are compared byte for byte across
/// releases. Checked against pixman_image_composite32 itself, at every vector level the CPU has.
final class TranslateBilinearTests: XCTestCase {
    private struct Noise {
        var s: UInt64
        mutating func next() -> UInt32 {
            s = s &* 6364136223846793005 &+ 1442695040888963407
            return UInt32(truncatingIfNeeded: s >> 33)
        }
        /// Premultiplied: opaque, clear and translucent pixels (or only opaque ones).
        mutating func pixel(opaque: Bool) -> UInt32 {
            let r = next()
            let mixed: UInt32 = switch r % 6 { case 0: 0; case 1, 2: 255; default: r >> 24 }
            let a = opaque ? 255 : mixed
            let c = next()
            func ch(_ v: UInt32) -> UInt32 { (v & 255) * a / 255 }
            return a << 24 | ch(c >> 16) << 16 | ch(c >> 8) << 8 | ch(c)
        }
    }

    private func image(_ w: Int, _ h: Int, _ noise: inout Noise, opaque: Bool) -> RGBAImage {
        let img = RGBAImage(width: w, height: h)
        let words = img.data.assumingMemoryBound(to: UInt32.self)
        for y in 0..<h { for x in 0..<w { words[y * img.stride / 4 + x] = noise.pixel(opaque: opaque) } }
        return img
    }

    private func levels() -> [Int32] {
        let best = th_translate_bilinear_level(-1)
        return Array(0...best)
    }

    override func tearDown() {
        th_translate_bilinear_level(-1)
    }

    /// Random sources (partly outside the destination, so their edges blend with nothing),
    /// random destinations, offsets with and without a fraction on each axis, and rectangles
    /// covering part of the destination.
    func testMatchesPixmanByteForByte() throws {
        for level in levels() {
            XCTAssertEqual(th_translate_bilinear_level(level), level)
            var noise = Noise(s: 7 + UInt64(level))
            for k in 0..<400 {
                let sw = 1 + Int(noise.next() % 70), sh = 1 + Int(noise.next() % 30)
                let dw = 1 + Int(noise.next() % 90), dh = 1 + Int(noise.next() % 30)
                let src = image(sw, sh, &noise, opaque: k % 3 == 0)
                let ours = image(dw, dh, &noise, opaque: k % 2 == 0)
                let theirs = ours.copy()
                var tx = Int32(noise.next() % (100 << 16)) - (40 << 16), ty = Int32(noise.next() % (40 << 16)) - (15 << 16)
                if k % 5 == 1 { tx &= ~0xffff }
                if k % 7 == 2 { ty &= ~0xffff }
                let x0 = Int(noise.next()) % dw, y0 = Int(noise.next()) % dh
                let x1 = x0 + 1 + Int(noise.next()) % (dw - x0), y1 = y0 + 1 + Int(noise.next()) % (dh - y0)

                var t = pixman_transform_t()
                pixman_transform_init_translate(&t, tx, ty)
                pixman_image_set_transform(src.pixman, &t)
                pixman_image_set_filter(src.pixman, PIXMAN_FILTER_BILINEAR, nil, 0)
                pixman_image_composite32(PIXMAN_OP_OVER, src.pixman, nil, theirs.pixman, 0, 0, 0, 0,
                                         Int32(x0), Int32(y0), Int32(x1 - x0), Int32(y1 - y0))
                th_composite_translate_bilinear(src.data.assumingMemoryBound(to: UInt32.self), src.stride, Int32(sw), Int32(sh),
                                                ours.data.assumingMemoryBound(to: UInt32.self), ours.stride,
                                                Int32(x0), Int32(y0), Int32(x1), Int32(y1), Int64(tx), Int64(ty))
                for y in 0..<dh {
                    for x in 0..<dw where ours.premultipliedPixel(x: x, y: y) != theirs.premultipliedPixel(x: x, y: y) {
                        return XCTFail("level \(level), case \(k) (source \(sw)x\(sh), offset \(tx), \(ty) in 16.16): pixel (\(x), \(y)) is "
                                       + "\(String(ours.premultipliedPixel(x: x, y: y), radix: 16)), pixman draws "
                                       + "\(String(theirs.premultipliedPixel(x: x, y: y), radix: 16))")
                    }
                }
            }
        }
    }

    /// A page and a translucent card at fractional positions, over a window: the renderer's
    /// frame equals the one it draws through pixman alone, and the loop drew the moved layers.
    func testFractionallyMovedLayersRenderAsThroughPixman() {
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
                let nodes = e.sampleTree(root)
                let ours = Renderer(pointSize: DemoScenes.screen, scale: scale)
                let pixman = Renderer(pointSize: DemoScenes.screen, scale: scale)
                pixman.compositePath = .pixmanAffine
                let a = ours.render(nodes), b = pixman.render(nodes)
                XCTAssertGreaterThan(ours.stats.translateComposites, 0, "moved by (\(dx), \(dy)) at @\(scale)x")
                XCTAssertEqual(pixman.stats.translateComposites, 0)
                XCTAssertTrue(a.rgbaBytes() == b.rgbaBytes(), "moved by (\(dx), \(dy)) at @\(scale)x: the frames differ")
            }
        }
    }
}
