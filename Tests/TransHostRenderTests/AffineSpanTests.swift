import XCTest
import CPixman
import CRenderKernels
import TransHostCore
import TransHostRenderScenes
@testable import TransHostRender

/// The affine span loop (th_composite_affine_bilinear) that draws rotated and sheared layers,
/// checked against pixman's affine bilinear path, the exact geometry, and itself.
final class AffineSpanTests: XCTestCase {
    private let white = RGBA8(r: 255, g: 255, b: 255, a: 255)

    /// A textured page (bar, rounded cards, text) rotated about its centre, over a black window,
    /// plus a translucent rotated red square over it.
    private func rotatedScene(_ e: AnimationEngine, angle: Double, alpha: Double) -> View {
        let root = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "window")
        root.backgroundColor = .black
        let page = DemoScenes.page(e, title: "Rotated", hue: Color(red: 0.85, green: 0.9, blue: 1))
        page.transform3D = Transform3D.rotation(angle, 0, 0, 1).scaled(0.8, 0.8, 1)
        page.alpha = alpha
        root.addSubview(page)
        let square = View(engine: e, frame: Rect(x: 60, y: 300, width: 120, height: 90), name: "square")
        square.backgroundColor = Color(red: 1, green: 0, blue: 0)
        square.alpha = 0.6
        square.transform3D = Transform3D.rotation(-angle * 0.7, 0, 0, 1)
        root.addSubview(square)
        return root
    }

    private func difference(_ a: RGBAImage, _ b: RGBAImage) -> (mean: Double, max: Int, over8: Double) {
        let x = a.rgbaBytes(), y = b.rgbaBytes()
        var total = 0, big = 0, worst = 0
        for k in 0..<x.count {
            let d = abs(Int(x[k]) - Int(y[k]))
            total += d
            worst = max(worst, d)
            if d > 8 { big += 1 }
        }
        return (Double(total) / Double(x.count), worst, Double(big) / Double(x.count))
    }

    func testMatchesPixmanAffinePathOnRotatedLayers() {
        for (angle, alpha) in [(0.3, 1.0), (-1.1, 1.0), (2.5, 0.7), (Double.pi / 2 + 0.01, 1.0), (Double.pi, 0.45)] {
            for scale in [1, 2] {
                let e = AnimationEngine()
                let nodes = e.sampleTree(rotatedScene(e, angle: angle, alpha: alpha))
                let ours = Renderer(pointSize: DemoScenes.screen, scale: scale)
                let reference = Renderer(pointSize: DemoScenes.screen, scale: scale)
                reference.compositePath = .pixmanAffine
                let d = difference(ours.render(nodes), reference.render(nodes))
                XCTAssertGreaterThan(ours.stats.affineSpanComposites, 0, "rotated layers go through the affine span loop")
                XCTAssertEqual(reference.stats.affineSpanComposites, 0)
                XCTAssertLessThan(d.mean, 0.5, "mean channel difference, angle \(angle) alpha \(alpha) @\(scale)x")
                XCTAssertLessThan(d.over8, 0.001, "share of channels differing by more than 8, angle \(angle) @\(scale)x")
                XCTAssertLessThanOrEqual(d.max, 8, "largest channel difference, angle \(angle) @\(scale)x")
            }
        }
    }

    /// A red 100 x 60 point rectangle rotated by 0.4 rad about its centre (160, 200), at @2x,
    /// over white. Pixels more than a pixel inside are red, more than a pixel outside white;
    /// along the edges the red coverage follows the exact rectangle's area coverage.
    func testRotatedRectangleEdgesWithinOnePixel() {
        for alpha in [1.0, 0.5] {
            let e = AnimationEngine()
            let root = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "screen")
            root.backgroundColor = .white
            let r = View(engine: e, frame: Rect(x: 110, y: 170, width: 100, height: 60), name: "r")
            r.backgroundColor = Color(red: 1, green: 0, blue: 0)
            r.alpha = alpha
            let t = 0.4
            r.transform3D = Transform3D.rotation(t, 0, 0, 1)
            root.addSubview(r)
            let renderer = Renderer(pointSize: DemoScenes.screen, scale: 2)
            let img = renderer.render(e.sampleTree(root))
            XCTAssertEqual(renderer.stats.affineSpanComposites, 1)
            // In pixels: centre (320, 400), half sizes 100 x 60, rotated by t.
            let c = cos(t), s = sin(t)
            func local(_ x: Double, _ y: Double) -> (Double, Double) {
                let dx = x - 320, dy = y - 400
                return (c * dx + s * dy, -s * dx + c * dy)
            }
            /// Signed distance to the rectangle's boundary (negative inside).
            func distance(_ x: Double, _ y: Double) -> Double {
                let (u, v) = local(x, y)
                let qx = abs(u) - 100, qy = abs(v) - 60
                let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
                return outside + min(max(qx, qy), 0)
            }
            func exactCoverage(_ px: Int, _ py: Int) -> Double {
                var n = 0
                for j in 0..<16 { for i in 0..<16 {
                    let (u, v) = local(Double(px) + (Double(i) + 0.5) / 16, Double(py) + (Double(j) + 0.5) / 16)
                    if abs(u) <= 100 && abs(v) <= 60 { n += 1 }
                } }
                return Double(n) / 256
            }
            var edgeError = 0.0, edgePixels = 0
            for py in 300..<500 {
                for px in 180..<460 {
                    let d = distance(Double(px) + 0.5, Double(py) + 0.5)
                    let p = img.pixel(x: px, y: py)
                    let coverage = (1 - Double(p.g) / 255) / alpha
                    if d < -1 {
                        XCTAssertEqual(coverage, 1, accuracy: 0.02, "inside at (\(px), \(py))")
                        XCTAssertEqual(p.r, 255)
                    } else if d > 1 {
                        XCTAssertEqual(p, white, "outside at (\(px), \(py))")
                    } else {
                        let err = abs(coverage - exactCoverage(px, py))
                        XCTAssertLessThan(err, 0.35, "edge pixel (\(px), \(py))")
                        edgeError += err
                        edgePixels += 1
                    }
                }
            }
            XCTAssertGreaterThan(edgePixels, 1000)
            XCTAssertLessThan(edgeError / Double(edgePixels), 0.1, "mean coverage error along the edges, alpha \(alpha)")
        }
    }

    func testGroupAlphaOfRotatedLayer() {
        let e = AnimationEngine()
        let root = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "screen")
        root.backgroundColor = .white
        let r = View(engine: e, frame: Rect(x: 60, y: 150, width: 200, height: 200), name: "r")
        r.backgroundColor = Color(red: 0, green: 0, blue: 1)
        let child = View(engine: e, frame: Rect(x: 50, y: 50, width: 100, height: 100), name: "child")
        child.backgroundColor = Color(red: 1, green: 0, blue: 0)
        r.addSubview(child)
        r.alpha = 0.25
        r.transform3D = Transform3D.rotation(0.7, 0, 0, 1)
        root.addSubview(r)
        let renderer = Renderer(pointSize: DemoScenes.screen, scale: 2)
        let img = renderer.render(e.sampleTree(root))
        XCTAssertEqual(renderer.stats.affineSpanComposites, 1)
        // Group opacity: the child covers the blue body, 25 % red over white at the centre.
        let centre = img.pixel(x: 320, y: 500)
        XCTAssertEqual(Double(centre.r), 255, accuracy: 1)
        XCTAssertEqual(Double(centre.g), 255 * 0.75, accuracy: 1.5)
        XCTAssertEqual(Double(centre.b), 255 * 0.75, accuracy: 1.5)
        // Between child and body edge (body only): 25 % blue.
        let body = img.pixel(x: 320, y: 330)
        XCTAssertEqual(Double(body.r), 255 * 0.75, accuracy: 1.5)
        XCTAssertEqual(Double(body.b), 255, accuracy: 1)
    }

    func testOutputIsIdenticalAcrossRuns() {
        var outputs: [[UInt8]] = []
        for _ in 0..<2 {
            let e = AnimationEngine()
            let nodes = e.sampleTree(rotatedScene(e, angle: 0.9, alpha: 0.8))
            let renderer = Renderer(pointSize: DemoScenes.screen, scale: 3)
            let img = renderer.render(nodes)
            renderer.render(nodes, into: img) // a second frame over the first, caches warm
            outputs.append(img.rgbaBytes())
        }
        XCTAssertEqual(outputs[0], outputs[1])
    }

    /// An opaque page rotated slightly and scaled up so that it covers the whole screen hides
    /// everything below it: those composites (and the clear) are skipped, pixels unchanged.
    func testFullScreenRotatedOpaqueLayerOccludesBelow() {
        func frame(_ under: Color) -> (RGBAImage, RenderStats) {
            let e = AnimationEngine()
            let root = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "window")
            root.backgroundColor = under
            root.addSubview(DemoScenes.page(e, title: "Below", hue: under))
            let top = DemoScenes.page(e, title: "Top", hue: Color(red: 0.85, green: 0.9, blue: 1))
            top.transform3D = Transform3D.rotation(0.05, 0, 0, 1).scaled(1.2, 1.2, 1)
            root.addSubview(top)
            let r = Renderer(pointSize: DemoScenes.screen, scale: 2)
            return (r.render(e.sampleTree(root)), r.stats)
        }
        let (a, sa) = frame(Color(red: 0, green: 1, blue: 0))
        let (b, _) = frame(Color(red: 1, green: 0, blue: 1))
        XCTAssertGreaterThan(sa.occludedOperations, 1)
        XCTAssertEqual(a.rgbaBytes(), b.rgbaBytes())
    }

    /// The kernel alone against pixman's affine bilinear path: a translucent, non-opaque
    /// source (a gradient with varying alpha), global alpha and an A8 mask, over a patterned
    /// destination, for several rotations, shears and scales.
    func testKernelMatchesPixmanWithAlphaAndMask() {
        let sw = 97, sh = 61, dw = 180, dh = 150
        let src = RGBAImage(width: sw, height: sh)
        for y in 0..<sh { for x in 0..<sw {
            let a = UInt32((x * 255) / (sw - 1) / 2 + 128 - (y % 7) * 10)
            let r = a * UInt32(y) / UInt32(sh), g = a * UInt32((x * 3) % sw) / UInt32(sw), b = a / 2
            src.data.storeBytes(of: a << 24 | r << 16 | g << 8 | b, toByteOffset: y * src.stride + x * 4, as: UInt32.self)
        } }
        let mask = pixman_image_create_bits(PIXMAN_a8, Int32(dw), Int32(dh), nil, 0)!
        defer { pixman_image_unref(mask) }
        let mstride = Int(pixman_image_get_stride(mask))
        let mdata = UnsafeMutableRawPointer(pixman_image_get_data(mask)!).assumingMemoryBound(to: UInt8.self)
        for y in 0..<dh { for x in 0..<dw { mdata[y * mstride + x] = UInt8((x * 7 + y * 3) % 256) } }
        func background() -> RGBAImage {
            let d = RGBAImage(width: dw, height: dh)
            for y in 0..<dh { for x in 0..<dw {
                let v = UInt32((x ^ y) & 0xff)
                d.data.storeBytes(of: 0xff00_0000 | v << 16 | (255 - v) << 8 | 0x40, toByteOffset: y * d.stride + x * 4, as: UInt32.self)
            } }
            return d
        }
        let maps: [Homography] = [
            Homography.translation(-48.5, -30.5).then(Homography(a: cos(0.5), b: sin(0.5), c: 0, d: -sin(0.5), e: cos(0.5), f: 0, g: 0, h: 0, i: 1)).then(.translation(90, 75)),
            Homography.translation(-48.5, -30.5).then(Homography(a: 1.6 * cos(2), b: 1.6 * sin(2), c: 0, d: -1.6 * sin(2), e: 1.6 * cos(2), f: 0, g: 0, h: 0, i: 1)).then(.translation(91.3, 72.8)),
            Homography(a: 0.9, b: 0.3, c: 0, d: -0.4, e: 1.3, f: 0, g: 40, h: 20, i: 1),
            Homography(a: 1.5, b: 0, c: 0, d: 0, e: 1.5, f: 0, g: 10.25, h: 5.5, i: 1),
        ]
        for (n, h) in maps.enumerated() {
            let inv = h.inverse!
            for (useMask, alpha) in [(false, 256 as UInt32), (false, 150), (true, 256)] {
                let ours = background(), ref = background()
                var m = [inv.a, inv.d, inv.g, inv.b, inv.e, inv.h]
                th_composite_affine_bilinear(src.data.assumingMemoryBound(to: UInt32.self), src.stride, Int32(sw), Int32(sh),
                                             ours.data.assumingMemoryBound(to: UInt32.self), ours.stride, 0, 0, Int32(dw), Int32(dh),
                                             &m, useMask ? UnsafePointer(mdata) : nil, mstride, alpha, 0)
                var t = inv.pixmanTransform()
                pixman_image_set_transform(src.pixman, &t)
                pixman_image_set_filter(src.pixman, PIXMAN_FILTER_BILINEAR, nil, 0)
                var solid: OpaquePointer? = nil
                if alpha < 256 {
                    var c = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16(alpha * 256))
                    solid = pixman_image_create_solid_fill(&c)
                }
                pixman_image_composite32(PIXMAN_OP_OVER, src.pixman, useMask ? mask : solid, ref.pixman, 0, 0, 0, 0, 0, 0, Int32(dw), Int32(dh))
                if let s = solid { pixman_image_unref(s) }
                pixman_image_set_transform(src.pixman, nil)
                let d = difference(ours, ref)
                XCTAssertLessThan(d.mean, 0.5, "map \(n) mask \(useMask) alpha \(alpha)")
                XCTAssertLessThanOrEqual(d.max, 8, "map \(n) mask \(useMask) alpha \(alpha)")
            }
        }
    }
}
