import XCTest
import TransHostCore
import TransHostRenderScenes
import TransHostTestSupport
@testable import TransHostRender

/// What a person sees in the GIF is what the renderer drew: flat UI colours exactly, gradients
/// dithered, nothing speckled that was flat.
final class GIFFidelityTests: XCTestCase {
    /// iOS's grouped-table grey.
    static let iosGrey: UInt32 = 239 << 16 | 239 << 8 | 244

    private func tempDir() throws -> String {
        try TestProcess.temporaryDirectory(self, prefix: "transhost-gif")
    }

    /// The frame as the GIF should show it: straight RGB over white.
    private func flattened(_ image: RGBAImage) -> [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(image.width * image.height)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.pixel(x: x, y: y)
                precondition(p.a == 255, "these scenes are opaque")
                out.append(UInt32(p.r) << 16 | UInt32(p.g) << 8 | UInt32(p.b))
            }
        }
        return out
    }

    /// A settings page on iOS grey (a bar with a title, white rows with hairline borders)
    /// sliding in over a white screen: text, borders and rounded corners, under 256 colours.
    private func slideFrames(count: Int) -> [RGBAImage] {
        let e = AnimationEngine()
        let root = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "window")
        root.backgroundColor = .white
        let page = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "settings")
        page.backgroundColor = Color(red: 239.0 / 255, green: 239.0 / 255, blue: 244.0 / 255)
        let bar = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 64), name: "bar")
        bar.backgroundColor = Color(red: 0.97, green: 0.97, blue: 0.97)
        bar.content = ViewContent(text: TextContent(string: "Settings", fontSize: 17, color: .black, alignment: .center))
        page.addSubview(bar)
        for k in 0..<3 {
            let row = View(engine: e, frame: Rect(x: 16, y: 100 + Double(k) * 60, width: 288, height: 44), name: "row \(k)")
            row.backgroundColor = .white
            row.cornerRadius = 10
            row.content = ViewContent(borderWidth: 1, borderColor: Color(red: 0.78, green: 0.78, blue: 0.8))
            page.addSubview(row)
        }
        root.addSubview(page)
        let r = Renderer(pointSize: DemoScenes.screen, scale: 1)
        return (0..<count).map { k in
            page.transform3D = Transform3D.translation(Double(count - 1 - k) * 40, 0, 0)
            return r.render(e.sampleTree(root))
        }
    }

    func testEveryColourOfFlatFramesSurvivesExactly() throws {
        let frames = slideFrames(count: 5)
        let expected = frames.map(flattened)
        for (k, f) in expected.enumerated() {
            XCTAssertLessThanOrEqual(Set(f).count, 256, "frame \(k) must be flat-coloured for this test to mean anything")
        }
        XCTAssertTrue(expected[4].contains(Self.iosGrey))
        let path = try tempDir() + "/slide.gif"
        try GIFWriter.write(frames: frames, duration: 0.4, to: path)
        let gif = try DecodedGIF(path: path)
        XCTAssertEqual(gif.canvases.count, 5)
        for k in 0..<5 {
            let wrong = zip(gif.canvases[k], expected[k]).filter { $0 != $1 }.count
            XCTAssertEqual(wrong, 0, "frame \(k): \(wrong) pixels changed colour in the GIF")
        }
        XCTAssertEqual(gif.canvases[4].filter { $0 == Self.iosGrey }.count, expected[4].filter { $0 == Self.iosGrey }.count,
                       "the grey is neither dithered nor tinted")
    }

    /// A frame with far more than 256 colours: a smooth gradient band above a flat grey area and
    /// a hard-edged block. The grey and the block stay exact; the gradient is dithered, close to
    /// the original on average.
    func testGradientsAreDitheredAndFlatAreasAreNot() throws {
        let w = 256, h = 96
        let image = RGBAImage(width: w, height: h)
        func put(_ x: Int, _ y: Int, _ c: UInt32) {
            image.data.storeBytes(of: 0xff00_0000 | c, toByteOffset: y * image.stride + x * 4, as: UInt32.self)
        }
        for y in 0..<h {
            for x in 0..<w {
                if y < 32 {
                    // Red rises along x, blue along y: 256 x 32 colours.
                    put(x, y, UInt32(x) << 16 | 0x40 << 8 | UInt32(y * 8))
                } else if x >= 100 && x < 140 && y >= 50 && y < 80 {
                    put(x, y, 0xd0_3020)
                } else {
                    put(x, y, Self.iosGrey)
                }
            }
        }
        let expected = flattened(image)
        XCTAssertGreaterThan(Set(expected).count, 4096)
        let path = try tempDir() + "/gradient.gif"
        try GIFWriter.write(frames: [image], duration: 0.1, to: path)
        let shown = try DecodedGIF(path: path).canvases[0]
        var flatWrong = 0, gradientError = 0, gradientChanged = 0, worst = 0
        for y in 0..<h {
            for x in 0..<w {
                let a = shown[y * w + x], b = expected[y * w + x]
                if y >= 32 { if a != b { flatWrong += 1 }; continue }
                let d: [Int] = [16, 8, 0].map { (shift: UInt32) -> Int in abs(Int((a >> shift) & 255) - Int((b >> shift) & 255)) }
                gradientError += d.reduce(0, +)
                worst = max(worst, d.max()!)
                if a != b { gradientChanged += 1 }
            }
        }
        XCTAssertEqual(flatWrong, 0, "flat areas keep their exact colours")
        let mean = Double(gradientError) / Double(w * 32 * 3)
        XCTAssertLessThan(mean, 4, "the gradient stays close on average")
        XCTAssertLessThan(worst, 40, "no gradient pixel is far off")
        // Dithered, not banded: within any 8-pixel run of the gradient the shown colours vary.
        var runs = 0, variedRuns = 0
        for y in 0..<32 { for x0 in stride(from: 0, to: w, by: 8) {
            runs += 1
            if Set(shown[(y * w + x0)..<(y * w + x0 + 8)]).count > 1 { variedRuns += 1 }
        } }
        XCTAssertGreaterThan(variedRuns * 10, runs * 9)
        XCTAssertGreaterThan(gradientChanged, 0)
    }

    func testUnchangedPixelsInsideTheChangedRectangleAreTransparent() throws {
        let frames = slideFrames(count: 3)
        let path = try tempDir() + "/slide.gif"
        try GIFWriter.write(frames: frames, duration: 0.3, to: path)
        let gif = try DecodedGIF(path: path)
        XCTAssertEqual(gif.rects[0], [0, 0, 320, 568])
        XCTAssertTrue(gif.canvases.last! == flattened(frames[2]), "the last frame shows exactly")
        XCTAssertEqual(gif.delays.reduce(0, +), 30)
        XCTAssertTrue(gif.loops)
    }

    /// The exporter's GIF starts at t = 0, ends on the last frame and holds it 0.5 s.
    func testExporterFramesStartAtZeroAndEndOnTheLastFrame() {
        let exporter = RunExporter(options: RunExporter.Options())
        let times = (0...60).map { Double($0) / 100 }
        let picks = exporter.gifFrames(times, fps: 100)
        XCTAssertEqual(picks.first, 0)
        XCTAssertEqual(picks.last, 60)
        XCTAssertEqual(picks.count, 31, "100 fps is halved to stay at or under 50 fps")
        XCTAssertEqual(exporter.gifFrames([0], fps: 60), [0])
        XCTAssertEqual(RunExporter.Options().lastFrameHold, 0.5)
    }
}
