import XCTest
import TransHostCore
import TransHostRenderScenes
@testable import TransHostRender

/// An operation skips the pixels that later operations overwrite whole (a page the page above
/// still hides, the dimming over it). Every frame must show exactly the pixels of a renderer
/// that draws every operation whole, whatever its target held before.
final class CullingTests: XCTestCase {
    /// A slide in progress: the revealed page under a dimming view, the leaving page above it
    /// at `offset` (a fraction of a point, or scaled a little), and a translucent card over
    /// both. `vertical` slides the leaving page down instead (a sheet going away).
    private func slide(offset: Double, zoom: Double = 1, vertical: Bool = false) -> [PresentationNode] {
        let e = AnimationEngine()
        let root = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "window")
        root.backgroundColor = .black
        let below = DemoScenes.page(e, title: "Below", hue: Color(red: 0.9, green: 0.95, blue: 1))
        below.transform3D = vertical ? .identity : Transform3D.translation((offset - 320) * 0.3, 0, 0)
        let dim = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "dim")
        dim.backgroundColor = Color(red: 0, green: 0, blue: 0, alpha: 0.1)
        let above = DemoScenes.page(e, title: "Above", hue: Color(red: 1, green: 0.9, blue: 0.8))
        above.transform3D = (vertical ? Transform3D.translation(0, offset, 0) : Transform3D.translation(offset, 0, 0)).scaled(zoom, zoom, 1)
        let card = View(engine: e, frame: Rect(x: 100, y: 240, width: 140, height: 90), name: "card")
        card.backgroundColor = Color(red: 0.3, green: 0.6, blue: 0.9)
        card.alpha = 0.6
        for v in [below, dim, above, card] { root.addSubview(v) }
        return e.sampleTree(root)
    }

    private func noise(_ r: Renderer) -> RGBAImage {
        let image = RGBAImage(width: r.pixelWidth, height: r.pixelHeight)
        let words = image.data.assumingMemoryBound(to: UInt32.self)
        var x: UInt32 = 88172645
        for i in 0..<(image.stride / 4 * image.height) { x ^= x << 13; x ^= x >> 17; x ^= x << 5; words[i] = x }
        return image
    }

    private func whole(_ nodes: [PresentationNode], scale: Int) -> [UInt8] {
        let r = Renderer(pointSize: DemoScenes.screen, scale: scale)
        r.culls = false
        return r.render(nodes).rgbaBytes()
    }

    func testAHiddenPartOfAPageIsSkippedAndTheFrameIsTheSame() {
        for (offset, zoom, vertical) in [(37.25, 1.0, false), (160.5, 1.0, false), (291.8, 1.0, false), (120.4, 0.95, false),
                                         (0.3, 1.0, false), (250.6, 1.0, true), (12.5, 1.0, true)] {
            for scale in [1, 2, 3] {
                let nodes = slide(offset: offset, zoom: zoom, vertical: vertical)
                let r = Renderer(pointSize: DemoScenes.screen, scale: scale)
                let target = noise(r)
                r.render(nodes, into: target)
                let what = "offset \(offset), zoom \(zoom)\(vertical ? ", vertical" : "") @\(scale)x"
                XCTAssertTrue(target.rgbaBytes() == whole(nodes, scale: scale), "\(what): differs from the frame drawn whole")
                // The dimming alone is hidden wherever the page above is (but for its edge
                // pixels, which blend), and so is the page below where it reaches; their pixels
                // there are not drawn. A page scaled down spans neither the whole height nor the
                // whole width; what it covers is skipped all the same (the box less the cover).
                let hidden = (vertical ? 568 - offset - 4 : 320 - offset - 4) * (vertical ? 320 : 568) * Double(scale * scale)
                XCTAssertGreaterThan(Double(r.stats.culledPixels), hidden, "\(what): the hidden parts were drawn")
            }
        }
    }

    /// A page turned about its edge in perspective (split-modal's halves), over the window's
    /// background and a dimming view: what it paints opaquely (a rectangle inside its interior)
    /// is skipped in the operations below it, although it spans neither the whole width nor the
    /// whole height, and the frame is the same. Turned past a quarter, it hides nothing.
    func testWhatAPageInPerspectiveHidesIsSkippedAndTheFrameIsTheSame() {
        func turned(_ angle: Double) -> [PresentationNode] {
            let e = AnimationEngine()
            let root = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "window")
            root.backgroundColor = .black
            let below = DemoScenes.page(e, title: "Below", hue: Color(red: 0.9, green: 0.95, blue: 1))
            let dim = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "dim")
            dim.backgroundColor = Color(red: 0, green: 0, blue: 0, alpha: 0.2)
            let page = DemoScenes.page(e, title: "Turned", hue: Color(red: 1, green: 0.9, blue: 0.8))
            page.anchorPoint = Point(x: 0, y: 0.5)
            page.frame = Rect(x: 0, y: 0, width: 320, height: 568)
            var t = Transform3D.identity
            t.m34 = -1 / 500
            page.transform3D = t.rotated(angle, 0, 1, 0)
            for v in [below, dim, page] { root.addSubview(v) }
            return e.sampleTree(root)
        }
        for (angle, hides) in [(0.35, true), (0.9, true), (1.3, true), (-0.6, true), (2.2, false)] {
            for scale in [1, 2, 3] {
                let nodes = turned(angle)
                let r = Renderer(pointSize: DemoScenes.screen, scale: scale)
                let target = noise(r)
                r.render(nodes, into: target)
                XCTAssertTrue(target.rgbaBytes() == whole(nodes, scale: scale), "turned \(angle) @\(scale)x: differs from the frame drawn whole")
                if hides { XCTAssertGreaterThan(r.stats.culledPixels, 4096 * scale * scale, "turned \(angle) @\(scale)x: nothing under the page was skipped") }
            }
        }
    }

    func testEveryFrameOfASlideDrawnOverTheLastIsTheSame() {
        for scale in [1, 2] {
            let r = Renderer(pointSize: DemoScenes.screen, scale: scale)
            r.reusesTargetPixels = true
            let target = noise(r)
            for k in 0..<12 {
                let offset = 320 * Double(k) / 11 + 0.37
                let nodes = slide(offset: offset, vertical: k % 5 == 4)
                r.render(nodes, into: target)
                XCTAssertTrue(target.rgbaBytes() == whole(nodes, scale: scale), "frame \(k) @\(scale)x differs from the frame drawn whole")
            }
        }
    }

    func testCoveredBandsAreTheColumnsOrRowsLeft() {
        let box = PixelRect(x0: 0, y0: 0, x1: 100, y1: 50)
        XCTAssertEqual(Renderer.uncoveredBands(box, by: []), [box])
        // Spanning the height: the columns left.
        XCTAssertEqual(Renderer.uncoveredBands(box, by: [PixelRect(x0: 30, y0: -5, x1: 120, y1: 60)]),
                       [PixelRect(x0: 0, y0: 0, x1: 30, y1: 50)])
        // Not spanning it: nothing skipped.
        XCTAssertEqual(Renderer.uncoveredBands(box, by: [PixelRect(x0: 30, y0: 1, x1: 120, y1: 60)]), [box])
        // Spanning the width: the rows left, whichever leaves fewer pixels.
        XCTAssertEqual(Renderer.uncoveredBands(box, by: [PixelRect(x0: 0, y0: 10, x1: 100, y1: 50), PixelRect(x0: 90, y0: 0, x1: 100, y1: 50)]),
                       [PixelRect(x0: 0, y0: 0, x1: 100, y1: 10)])
        XCTAssertEqual(Renderer.uncoveredBands(box, by: [PixelRect(x0: -1, y0: -1, x1: 101, y1: 51)]), [])
    }
}
