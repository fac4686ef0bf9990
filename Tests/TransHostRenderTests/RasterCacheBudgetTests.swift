import XCTest
import TransHostCore
@testable import TransHostRender

/// Over its raster budget, a group lets go of the rasters it was drawn from; the frames keep
/// every pixel, whether the group is reused or must be drawn again.
final class RasterCacheBudgetTests: XCTestCase {
    /// A translucent card (a group) holding a bordered panel with a label and a moving badge,
    /// over a white screen: frames 0-2 move the badge (the group is drawn again each time),
    /// frames 3-4 hold still (the group is reused).
    func frames() -> [[PresentationNode]] {
        let e = AnimationEngine()
        let root = View(engine: e, frame: Rect(x: 0, y: 0, width: 200, height: 300), name: "screen")
        root.backgroundColor = .white
        let card = View(engine: e, frame: Rect(x: 20, y: 30, width: 160, height: 200), name: "card")
        card.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.9)
        card.alpha = 0.8
        let panel = View(engine: e, frame: Rect(x: 10, y: 10, width: 140, height: 120), name: "panel")
        panel.backgroundColor = Color(red: 0.95, green: 0.9, blue: 0.3)
        panel.content = ViewContent(text: TextContent(string: "Panel"), borderWidth: 2, borderColor: .black)
        let badge = View(engine: e, frame: Rect(x: 10, y: 140, width: 40, height: 40), name: "badge")
        badge.backgroundColor = Color(red: 0.9, green: 0.1, blue: 0.2)
        root.addSubview(card)
        card.addSubview(panel)
        card.addSubview(badge)
        var out: [[PresentationNode]] = []
        for k in 0..<5 {
            if k < 3 { badge.frame = Rect(x: 10 + Double(k) * 30, y: 140, width: 40, height: 40) }
            out.append(e.sampleTree(root))
        }
        return out
    }

    func render(_ frames: [[PresentationNode]], budget: Int) -> (pixels: [[UInt8]], stats: RenderStats) {
        let r = Renderer(pointSize: Size(width: 200, height: 300), scale: 2)
        r.rasterCacheBytes = budget
        let target = RGBAImage(width: r.pixelWidth, height: r.pixelHeight)
        var pixels: [[UInt8]] = []
        for f in frames {
            r.render(f, into: target)
            pixels.append(target.rgbaBytes())
        }
        return (pixels, r.stats)
    }

    func testAGroupOverBudgetLetsGoOfItsInputsAndNoPixelChanges() {
        let f = frames()
        let kept = render(f, budget: Int.max), released = render(f, budget: 0)
        XCTAssertEqual(kept.stats.releasedGroupInputs, 0)
        XCTAssertGreaterThan(released.stats.releasedGroupInputs, 0, "over budget, each drawn group let go of its inputs")
        XCTAssertGreaterThan(released.stats.contentRasterizations, kept.stats.contentRasterizations,
                             "what was let go was drawn again when the group changed")
        for k in f.indices { XCTAssertTrue(kept.pixels[k] == released.pixels[k], "frame \(k) differs") }
        XCTAssertTrue(kept.pixels[0] != kept.pixels[1], "the badge moved (the scene tests something)")
    }
}
