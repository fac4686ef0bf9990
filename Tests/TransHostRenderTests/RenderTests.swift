import XCTest
import CGif
import TransHostCore
import TransHostRenderScenes
import TransHostTestSupport
@testable import TransHostRender

/// Scenes on a white 320 x 568 point screen.
private func screen(_ e: AnimationEngine) -> View {
    let root = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "screen")
    root.backgroundColor = .white
    return root
}

private func box(_ e: AnimationEngine, _ frame: Rect, _ color: Color) -> View {
    let v = View(engine: e, frame: frame)
    v.backgroundColor = color
    return v
}

private let red = Color(red: 1, green: 0, blue: 0)
private let blue = Color(red: 0, green: 0, blue: 1)
private let white = RGBA8(r: 255, g: 255, b: 255, a: 255)
private let redPx = RGBA8(r: 255, g: 0, b: 0, a: 255)
private let bluePx = RGBA8(r: 0, g: 0, b: 255, a: 255)

private func assertClose(_ p: RGBA8, _ q: RGBA8, tolerance: Int = 1, _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
    let d = max(abs(Int(p.r) - Int(q.r)), abs(Int(p.g) - Int(q.g)), abs(Int(p.b) - Int(q.b)), abs(Int(p.a) - Int(q.a)))
    XCTAssertLessThanOrEqual(d, tolerance, "\(p) vs expected \(q) \(message)", file: file, line: line)
}

private func tempDir() throws -> String {
    let d = NSTemporaryDirectory() + "transhost-render-tests-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
    return d
}

final class PixelTests: XCTestCase {
    func testRedLayerLandsOnExpectedPixels() {
        let e = AnimationEngine()
        let root = screen(e)
        root.addSubview(box(e, Rect(x: 40, y: 60, width: 100, height: 50), red))
        let r = Renderer(pointSize: Size(width: 320, height: 568), scale: 2)
        let img = r.render(e.sampleTree(root))
        XCTAssertEqual(img.width, 640)
        XCTAssertEqual(img.height, 1136)
        // Pixels x 80..<280, y 120..<220.
        for (x, y) in [(80, 120), (279, 219), (180, 170), (80, 219), (279, 120)] { assertClose(img.pixel(x: x, y: y), redPx, tolerance: 0) }
        for (x, y) in [(79, 170), (280, 170), (180, 119), (180, 220), (0, 0), (639, 1135)] { assertClose(img.pixel(x: x, y: y), white, tolerance: 0) }
    }

    func testScaledLayerAtHalfAlphaBlendsOverWhite() {
        let e = AnimationEngine()
        let root = screen(e)
        // 100 x 50 centred at (90, 85), scaled 1.5 about its centre: 150 x 75 from (15, 47.5).
        let v = box(e, Rect(x: 40, y: 60, width: 100, height: 50), red)
        v.transform3D = Transform3D.scale(1.5, 1.5, 1)
        v.alpha = 0.5
        root.addSubview(v)
        let img = Renderer(pointSize: Size(width: 320, height: 568), scale: 2).render(e.sampleTree(root))
        let half = RGBA8(r: 255, g: 128, b: 128, a: 255)
        // @2x: x 30..<330, y 95..<245.
        for (x, y) in [(31, 96), (328, 243), (180, 170)] { assertClose(img.pixel(x: x, y: y), half, tolerance: 1, "inside at (\(x), \(y))") }
        for (x, y) in [(28, 170), (332, 170), (180, 93), (180, 247)] { assertClose(img.pixel(x: x, y: y), white, tolerance: 0, "outside at (\(x), \(y))") }
    }

    func testLaterSiblingIsOnTop() {
        let e = AnimationEngine()
        let root = screen(e)
        root.addSubview(box(e, Rect(x: 0, y: 0, width: 100, height: 100), red))
        root.addSubview(box(e, Rect(x: 50, y: 50, width: 100, height: 100), blue))
        let img = Renderer(pointSize: Size(width: 320, height: 568), scale: 1).render(e.sampleTree(root))
        assertClose(img.pixel(x: 75, y: 75), bluePx, tolerance: 0)
        assertClose(img.pixel(x: 25, y: 25), redPx, tolerance: 0)
        assertClose(img.pixel(x: 125, y: 125), bluePx, tolerance: 0)
        root.bringSubviewToFront(root.subviews[0])
        let img2 = Renderer(pointSize: Size(width: 320, height: 568), scale: 1).render(e.sampleTree(root))
        assertClose(img2.pixel(x: 75, y: 75), redPx, tolerance: 0)
    }

    func testClipsToBoundsClipsChild() {
        for clips in [true, false] {
            let e = AnimationEngine()
            let root = screen(e)
            let parent = box(e, Rect(x: 50, y: 50, width: 100, height: 100), blue)
            parent.clipsToBounds = clips
            parent.addSubview(box(e, Rect(x: 50, y: 50, width: 100, height: 100), red))
            root.addSubview(parent)
            let img = Renderer(pointSize: Size(width: 320, height: 568), scale: 2).render(e.sampleTree(root))
            assertClose(img.pixel(x: 250, y: 250), redPx, tolerance: 0, "child inside the parent")
            assertClose(img.pixel(x: 350, y: 350), clips ? white : redPx, tolerance: 0, "child outside the parent, clips \(clips)")
            assertClose(img.pixel(x: 150, y: 150), bluePx, tolerance: 0)
        }
    }

    func testRotatedParentClipsWithItsQuad() {
        let e = AnimationEngine()
        let root = screen(e)
        let parent = box(e, Rect(x: 100, y: 100, width: 100, height: 100), blue)
        parent.transform3D = Transform3D.rotation(Double.pi / 4, 0, 0, 1)
        parent.clipsToBounds = true
        let child = box(e, Rect(x: -100, y: -100, width: 300, height: 300), red)
        parent.addSubview(child)
        root.addSubview(parent)
        let img = Renderer(pointSize: Size(width: 320, height: 568), scale: 1).render(e.sampleTree(root))
        // The diamond centred at (150, 150) with half-diagonal 70.7.
        assertClose(img.pixel(x: 150, y: 150), redPx, tolerance: 0)
        assertClose(img.pixel(x: 150, y: 90), redPx, tolerance: 0)
        assertClose(img.pixel(x: 105, y: 105), white, tolerance: 0, "outside the diamond, inside the unrotated child")
        assertClose(img.pixel(x: 195, y: 195), white, tolerance: 0)
    }

    func testHiddenViewsAndTheirSubviewsAreSkipped() {
        let e = AnimationEngine()
        let root = screen(e)
        let v = box(e, Rect(x: 0, y: 0, width: 100, height: 100), red)
        v.addSubview(box(e, Rect(x: 10, y: 10, width: 20, height: 20), blue))
        v.isHidden = true
        root.addSubview(v)
        let img = Renderer(pointSize: Size(width: 320, height: 568), scale: 1).render(e.sampleTree(root))
        assertClose(img.pixel(x: 50, y: 50), white, tolerance: 0)
        assertClose(img.pixel(x: 20, y: 20), white, tolerance: 0)
    }

    func testZeroAlphaDrawsNothingAndAlphaMultipliesDownTheTree() {
        let e = AnimationEngine()
        let root = screen(e)
        let outer = View(engine: e, frame: Rect(x: 0, y: 0, width: 100, height: 100))
        outer.alpha = 0.5
        let inner = box(e, Rect(x: 0, y: 0, width: 100, height: 100), red)
        inner.alpha = 0.5
        outer.addSubview(inner)
        root.addSubview(outer)
        let img = Renderer(pointSize: Size(width: 320, height: 568), scale: 1).render(e.sampleTree(root))
        // 0.25 red over white: (255, 191, 191).
        assertClose(img.pixel(x: 50, y: 50), RGBA8(r: 255, g: 191, b: 191, a: 255), tolerance: 2)
        outer.alpha = 0
        let img2 = Renderer(pointSize: Size(width: 320, height: 568), scale: 1).render(e.sampleTree(root))
        assertClose(img2.pixel(x: 50, y: 50), white, tolerance: 0)
    }
}

final class PerspectiveTests: XCTestCase {
    /// A red 160 x 568 half anchored at its left edge (anchor (0, 0.5), position (0, 284)),
    /// rotated by 45 degrees about Y under m34 = -1/900, at @2x.
    ///
    /// Independent expectation: for T = Rotate(Perspective, t, 0, 1, 0) = R x P, a point (x, y)
    /// relative to the anchor maps to (cos t x, y) / W with W = 1 + sin t x / 900 (the only
    /// non-zero perspective entry is m14 = sin t / 900). So the left edge (x = 0) stays at
    /// X = 0 with height 568, and a column X (points) of the image has x = X / (cos t - sin t X / 900),
    /// W = 1 + sin t x / 900, and spans y in 284 -+ 284 / W.
    func testRotatedHalfFormsTheExpectedTrapezoid() {
        let e = AnimationEngine()
        let root = screen(e)
        let half = box(e, Rect(x: 0, y: 0, width: 160, height: 568), red)
        half.anchorPoint = Point(x: 0, y: 0.5)
        half.position = Point(x: 0, y: 284)
        let t = Double.pi / 4
        half.transform3D = DemoScenes.perspective(distance: 900).rotated(t, 0, 1, 0)
        root.addSubview(half)
        let r = Renderer(pointSize: Size(width: 320, height: 568), scale: 2)
        let img = r.render(e.sampleTree(root))
        XCTAssertGreaterThan(r.stats.spanComposites, 0, "a perspective layer goes through the span kernel")

        let c = cos(t), s = sin(t)
        let rightX = c * 160 / (1 + s * 160 / 900) // points
        // Coverage of red in a pixel: 1 - green / 255 (red over white).
        func coverage(_ x: Int, _ y: Int) -> Double { 1 - Double(img.pixel(x: x, y: y).g) / 255 }
        // Right edge on the middle row: where coverage crosses 0.5.
        let row = 568
        var edge = 0.0
        for x in 0..<639 where coverage(x, row) >= 0.5 && coverage(x + 1, row) < 0.5 { edge = Double(x) + 1 }
        XCTAssertEqual(edge, rightX * 2, accuracy: 1, "right edge x (pixels)")
        // Left edge: red from x = 0.
        XCTAssertGreaterThan(coverage(0, row), 0.5)
        // Edge heights: at the left column and at a column near the right edge, compare the red
        // run with 568 / W in points (x2 pixels).
        for X in [1.0, rightX - 4, rightX / 2] {
            let x = X / (c - s * X / 900)
            let w = 1 + s * x / 900
            let top = (284 - 284 / w) * 2, bottom = (284 + 284 / w) * 2
            let px = Int(X * 2)
            var first = -1, last = -1
            for y in 0..<1136 where coverage(px, y) >= 0.5 { if first < 0 { first = y }; last = y }
            XCTAssertEqual(Double(first), top, accuracy: 1, "top edge at X = \(X)")
            XCTAssertEqual(Double(last + 1), bottom, accuracy: 1, "bottom edge at X = \(X)")
        }
        // Outside the trapezoid: white.
        assertClose(img.pixel(x: Int(rightX * 2) + 3, y: row), white, tolerance: 0)
        assertClose(img.pixel(x: Int(rightX * 2) - 4, y: 2), white, tolerance: 0, "above the shortened right edge")
    }

    func testSpanKernelMatchesPixmanProjectivePath() {
        let e = AnimationEngine()
        let (root, setProgress) = DemoScenes.splitModal(e)
        setProgress(0.5)
        let nodes = e.sampleTree(root)
        let ours = Renderer(pointSize: DemoScenes.screen, scale: 1)
        let reference = Renderer(pointSize: DemoScenes.screen, scale: 1)
        reference.compositePath = .pixmanProjective
        let ia = ours.render(nodes), ib = reference.render(nodes)
        if let dir = ProcessInfo.processInfo.environment["TRANSHOST_RENDER_PREVIEW"] {
            try? PNGWriter.write(ia, to: dir + "/cmp-ours.png"); try? PNGWriter.write(ib, to: dir + "/cmp-pixman.png")
        }
        let a = ia.rgbaBytes(), b = ib.rgbaBytes()
        var total = 0, big = 0
        for k in 0..<a.count {
            let d = abs(Int(a[k]) - Int(b[k]))
            total += d
            if d > 24 { big += 1 }
        }
        let mean = Double(total) / Double(a.count)
        XCTAssertLessThan(mean, 0.5, "mean channel difference")
        XCTAssertLessThan(Double(big) / Double(a.count), 0.002, "share of channels differing by more than 24")
    }

    func testAffineTilesStayWithinHalfAPixel() {
        // The tiles' affine maps, checked densely against the exact homography.
        let e = AnimationEngine()
        let half = View(engine: e, frame: Rect(x: 0, y: 0, width: 160, height: 568))
        half.anchorPoint = Point(x: 0, y: 0.5)
        half.position = Point(x: 0, y: 284)
        half.transform3D = DemoScenes.perspective().rotated(1.0, 0, 1, 0)
        let st = e.presentation(of: half)
        let fwd = Homography.scale(0.5, 0.5).then(Homography(layerToParent: st)).then(.scale(2, 2))
        let inv = fwd.inverse!
        let box = Polygon.bounds([Vec2(0, 0), Vec2(320, 0), Vec2(320, 1136), Vec2(0, 1136)].map(fwd.apply))
        let tiles = ProjectiveTiler.tiles(inverse: inv, forward: fwd, rect: box, maxError: 0.25)
        XCTAssertGreaterThan(tiles.count, 1)
        var worst = 0.0
        for t in tiles {
            guard let a = t.affine else { continue }
            for y in stride(from: t.rect.y0, to: t.rect.y1, by: 1) {
                for x in t.rect.x0..<t.rect.x1 {
                    let s = a.apply(Double(x) + 0.5, Double(y) + 0.5)
                    let q = fwd.apply(s.x, s.y)
                    worst = max(worst, ((q.x - Double(x) - 0.5) * (q.x - Double(x) - 0.5) + (q.y - Double(y) - 0.5) * (q.y - Double(y) - 0.5)).squareRoot())
                }
            }
        }
        XCTAssertLessThan(worst, 0.5)
    }

    func testLayerCrossingTheEyePlaneIsClipped() {
        let e = AnimationEngine()
        let root = screen(e)
        let v = box(e, Rect(x: 0, y: 0, width: 320, height: 568), red)
        v.anchorPoint = Point(x: 0, y: 0.5)
        v.position = Point(x: 0, y: 284)
        // m34 = -1/200 and 80 degrees: W = 1 + sin(80) x / 200 ... negative for x < -203 is not in
        // the layer, so rotate the other way: W = 1 - 0.985 x / 200 < 0 beyond x = 203.
        v.transform3D = DemoScenes.perspective(distance: 200).rotated(-80 * Double.pi / 180, 0, 1, 0)
        root.addSubview(v)
        let r = Renderer(pointSize: Size(width: 320, height: 568), scale: 1)
        let img = r.render(e.sampleTree(root))
        // Near the hinge the layer shows; nothing from behind the eye wraps around.
        assertClose(img.pixel(x: 2, y: 284), redPx, tolerance: 8)
        XCTAssertEqual(img.width, 320)
    }
}

final class CacheTests: XCTestCase {
    func testSnapshotIsRasterizedOnceAcrossFrames() {
        let e = AnimationEngine()
        let (root, setProgress) = DemoScenes.splitModal(e)
        let r = Renderer(pointSize: DemoScenes.screen, scale: 1)
        setProgress(0.1)
        _ = r.render(e.sampleTree(root))
        let afterFirst = r.stats
        for p in [0.2, 0.3, 0.4, 0.5] {
            setProgress(p)
            _ = r.render(e.sampleTree(root))
        }
        XCTAssertEqual(r.stats.contentRasterizations, afterFirst.contentRasterizations, "no content is drawn again")
        // The static "to" page may be grouped once (second frame); snapshots never again.
        XCTAssertLessThanOrEqual(r.stats.groupRasterizations, afterFirst.groupRasterizations + 1)
        XCTAssertGreaterThan(r.stats.cacheHits, afterFirst.cacheHits)
    }

    func testContentChangeInvalidatesRaster() {
        let e = AnimationEngine()
        let root = screen(e)
        let v = box(e, Rect(x: 0, y: 0, width: 100, height: 100), red)
        root.addSubview(v)
        let r = Renderer(pointSize: Size(width: 320, height: 568), scale: 1)
        assertClose(r.render(e.sampleTree(root)).pixel(x: 50, y: 50), redPx, tolerance: 0)
        v.backgroundColor = blue
        assertClose(r.render(e.sampleTree(root)).pixel(x: 50, y: 50), bluePx, tolerance: 0)
        v.addSubview(box(e, Rect(x: 0, y: 0, width: 10, height: 10), red))
        _ = r.render(e.sampleTree(root))
        _ = r.render(e.sampleTree(root)) // unchanged: grouped
        v.subviews[0].backgroundColor = Color(red: 0, green: 1, blue: 0)
        assertClose(r.render(e.sampleTree(root)).pixel(x: 5, y: 5), RGBA8(r: 0, g: 255, b: 0, a: 255), tolerance: 0)
    }

    func testTextAndBorderDraw() {
        let e = AnimationEngine()
        let root = screen(e)
        let v = View(engine: e, frame: Rect(x: 10, y: 10, width: 200, height: 60))
        v.content = ViewContent(text: TextContent(string: "Hello", fontSize: 30, color: .black, alignment: .center),
                                borderWidth: 4, borderColor: blue)
        root.addSubview(v)
        let img = Renderer(pointSize: Size(width: 320, height: 568), scale: 1).render(e.sampleTree(root))
        assertClose(img.pixel(x: 11, y: 40), bluePx, tolerance: 0, "border")
        var dark = 0
        for y in 20..<60 { for x in 60..<160 where img.pixel(x: x, y: y).r < 100 { dark += 1 } }
        XCTAssertGreaterThan(dark, 100, "glyph pixels")
    }

    func testImageContentIsDrawnScaledToFill() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let src = RGBAImage(width: 4, height: 4)
        src.fill(Color(red: 0, green: 1, blue: 0))
        try PNGWriter.write(src, to: dir + "/green.png")
        let e = AnimationEngine()
        let root = screen(e)
        let v = View(engine: e, frame: Rect(x: 0, y: 0, width: 100, height: 100))
        v.content = ViewContent(imagePath: dir + "/green.png")
        root.addSubview(v)
        let r = Renderer(pointSize: Size(width: 320, height: 568), scale: 1)
        let img = r.render(e.sampleTree(root))
        assertClose(img.pixel(x: 50, y: 50), RGBA8(r: 0, g: 255, b: 0, a: 255), tolerance: 0)
        assertClose(img.pixel(x: 150, y: 50), white, tolerance: 0)
        XCTAssertTrue(r.imageLoadFailures.isEmpty)
    }
}

final class OutputTests: XCTestCase {
    private func frames(count: Int, scale: Int = 1) -> [RGBAImage] {
        let e = AnimationEngine()
        let (root, setProgress) = DemoScenes.splitModal(e)
        let r = Renderer(pointSize: DemoScenes.screen, scale: scale)
        return (0..<count).map { k in
            setProgress(Double(k) / Double(max(count - 1, 1)))
            return r.render(e.sampleTree(root))
        }
    }

    func testDelaysCarryRounding() {
        // 0.25 s at 60 fps, both endpoints: 16 frames.
        let d = GIFWriter.delays(for: GIFWriter.evenDurations(count: 16, duration: 0.25))
        XCTAssertEqual(d.count, 16)
        XCTAssertEqual(d.reduce(0, +), 25)
        XCTAssertTrue(d.allSatisfy { $0 == 1 || $0 == 2 })
        XCTAssertEqual(GIFWriter.delays(for: Array(repeating: 1.0 / 60, count: 60)).reduce(0, +), 100)
    }

    func testGIFReadsBackWithFrameCountSizeAndDelays() throws {
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let imgs = frames(count: 16)
        let path = dir + "/t.gif"
        try GIFWriter.write(frames: imgs, duration: 0.25, to: path)
        let names = try FileManager.default.contentsOfDirectory(atPath: dir)
        XCTAssertEqual(names, ["t.gif"], "no temporary file left behind")

        var err: Int32 = 0
        guard let gif = DGifOpenFileName(path, &err) else { return XCTFail("DGifOpenFileName: \(err)") }
        defer { var e2: Int32 = 0; DGifCloseFile(gif, &e2) }
        XCTAssertEqual(DGifSlurp(gif), GIF_OK)
        XCTAssertEqual(gif.pointee.ImageCount, 16)
        XCTAssertEqual(gif.pointee.SWidth, 320)
        XCTAssertEqual(gif.pointee.SHeight, 568)
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: path)).prefix(6)), Array("GIF89a".utf8))
        var total = 0
        var sawLoop = false
        for k in 0..<Int(gif.pointee.ImageCount) {
            let image = gif.pointee.SavedImages[k]
            let d = image.ImageDesc
            if k == 0 {
                XCTAssertEqual([d.Left, d.Top, d.Width, d.Height], [0, 0, 320, 568], "the first frame covers the screen")
            } else {
                XCTAssertTrue(d.Left >= 0 && d.Top >= 0 && d.Width >= 1 && d.Height >= 1 && d.Left + d.Width <= 320 && d.Top + d.Height <= 568,
                              "frame \(k) rectangle \([d.Left, d.Top, d.Width, d.Height]) inside the screen")
            }
            var gcb = GraphicsControlBlock()
            XCTAssertEqual(DGifSavedExtensionToGCB(gif, Int32(k), &gcb), GIF_OK)
            total += Int(gcb.DelayTime)
            for x in 0..<Int(image.ExtensionBlockCount) {
                let b = image.ExtensionBlocks[x]
                if b.Function == APPLICATION_EXT_FUNC_CODE, b.ByteCount == 11,
                   String(decoding: UnsafeBufferPointer(start: b.Bytes, count: 11), as: UTF8.self) == "NETSCAPE2.0" { sawLoop = true }
            }
        }
        XCTAssertEqual(total, 25, "delays sum to the duration in centiseconds")
        XCTAssertTrue(sawLoop, "NETSCAPE2.0 loop extension")
        // The palette shows the colours: the first frame's top-left is the light grey bar.
        let first = gif.pointee.SavedImages[0]
        let map = gif.pointee.SColorMap!.pointee
        let idx = Int(first.RasterBits[10 * 320 + 10])
        let c = map.Colors[idx]
        XCTAssertGreaterThan(Int(c.Red), 200)
        XCTAssertGreaterThan(Int(c.Blue), 200)
    }

    func testSameRenderTwiceGivesIdenticalPNGBytes() throws {
        let a = frames(count: 3, scale: 2)[1], b = frames(count: 3, scale: 2)[1]
        let pa = PNGWriter.encode(a), pb = PNGWriter.encode(b)
        XCTAssertEqual(pa, pb)
        XCTAssertEqual(Array(pa.prefix(8)), [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
        let dir = try tempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try PNGWriter.write(a, to: dir + "/a.png")
        try PNGWriter.write(b, to: dir + "/a.png") // overwrite through rename
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/a.png"))), pa)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["a.png"])
        // GIF bytes are deterministic too.
        try GIFWriter.write(frames: [a, b], duration: 0.1, to: dir + "/1.gif")
        try GIFWriter.write(frames: [a, b], duration: 0.1, to: dir + "/2.gif")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/1.gif")), try Data(contentsOf: URL(fileURLWithPath: dir + "/2.gif")))
    }

    /// Later frames carry only what changed; drawing them over each other shows the last frame
    /// as closely as a GIF of the last frame alone does (these perspective frames have more than
    /// 256 colours, so both are quantised, each with its own palettes).
    func testGIFFramesCarryOnlyTheChangedRectangle() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("transhost-gifdiff-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let imgs = frames(count: 4)
        try GIFWriter.write(frames: [imgs[0], imgs[0], imgs[3]], frameDurations: [0.1, 0.1, 0.1], to: dir + "/diff.gif")
        try GIFWriter.write(frames: [imgs[3]], frameDurations: [0.1], to: dir + "/last.gif")
        let diff = try DecodedGIF(path: dir + "/diff.gif"), last = try DecodedGIF(path: dir + "/last.gif")
        XCTAssertEqual(diff.rects[1], [0, 0, 1, 1], "an unchanged frame is a single pixel")
        XCTAssertLessThan(diff.rects[2][2] * diff.rects[2][3], imgs[3].width * imgs[3].height, "only the changed part is stored")
        var source: [UInt32] = []
        for y in 0..<imgs[3].height { for x in 0..<imgs[3].width {
            let p = imgs[3].pixel(x: x, y: y)
            source.append(UInt32(p.r) << 16 | UInt32(p.g) << 8 | UInt32(p.b))
        } }
        func meanError(_ shown: [UInt32]) -> Double {
            var total = 0
            for (a, b) in zip(shown, source) {
                for shift: UInt32 in [16, 8, 0] { total += abs(Int((a >> shift) & 255) - Int((b >> shift) & 255)) }
            }
            return Double(total) / Double(source.count * 3)
        }
        XCTAssertLessThan(meanError(last.canvases[0]), 1)
        XCTAssertLessThan(meanError(diff.canvases.last!), 1, "the frames drawn over each other show the last frame")
    }

    func testFailedWriteLeavesNoFile() throws {
        // Missing directories are created; a directory that cannot exist (under a regular
        // file) makes the write fail, with nothing left behind.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("transhost-fail-\(getpid())").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        XCTAssertTrue(FileManager.default.createFile(atPath: dir + "/file", contents: Data([1])))
        XCTAssertThrowsError(try PNGWriter.write(RGBAImage(width: 2, height: 2), to: dir + "/file/x.png"))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir), ["file"])
    }

    func testContactSheetLabelsAndLayout() throws {
        let imgs = frames(count: 5)
        let sheet = ContactSheet.make(frames: imgs.enumerated().map { ($0.element, Double($0.offset) * 0.0625) }, columns: 3, thumbnailWidth: 100)
        // 3 columns of 100 + 8 padding each, plus 8; 2 rows of (176 + 22 + 8), plus 8.
        XCTAssertEqual(sheet.width, 3 * 108 + 8)
        XCTAssertEqual(sheet.height, 2 * (178 + 30) + 8)
        XCTAssertEqual(ContactSheet.timeLabel(0.25), "0.250 s")
        XCTAssertEqual(ContactSheet.timeLabel(1.0 / 60), "0.017 s")
        // Label text is drawn under the first thumbnail.
        var dark = 0
        for y in (8 + 178)..<(8 + 178 + 22) { for x in 8..<108 where sheet.pixel(x: x, y: y).r < 128 { dark += 1 } }
        XCTAssertGreaterThan(dark, 20)
        let again = ContactSheet.make(frames: imgs.enumerated().map { ($0.element, Double($0.offset) * 0.0625) }, columns: 3, thumbnailWidth: 100)
        XCTAssertEqual(PNGWriter.encode(sheet), PNGWriter.encode(again))
    }
}
