import XCTest
import TransHostCore
import TransHostRenderScenes
@testable import TransHostRender

/// A renderer that keeps its target between frames (reusesTargetPixels, as `transhost run`
/// renders) draws again only what changed; every frame must still show exactly the pixels of
/// a fresh renderer drawing it whole.
final class DamageTests: XCTestCase {
    /// A page behind a card that moves, grows, turns and fades; a badge whose layer draws a
    /// shape with cairo; a second card that holds still.
    private struct Scene {
        let engine = AnimationEngine()
        let root: View, card: View, badge: View

        init() {
            root = View(engine: engine, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "window")
            root.backgroundColor = .black
            root.addSubview(DemoScenes.page(engine, title: "Damage", hue: Color(red: 0.85, green: 0.9, blue: 1)))
            card = View(engine: engine, frame: Rect(x: 20, y: 100, width: 120, height: 80), name: "card")
            card.backgroundColor = Color(red: 1, green: 0.6, blue: 0.2)
            card.cornerRadius = 8
            card.content = ViewContent(text: TextContent(string: "moves", fontSize: 15, color: .black, alignment: .center))
            root.addSubview(card)
            let still = View(engine: engine, frame: Rect(x: 180, y: 420, width: 120, height: 80), name: "still")
            still.backgroundColor = Color(red: 0.2, green: 0.7, blue: 0.3)
            root.addSubview(still)
            badge = View(engine: engine, frame: Rect(x: 250, y: 20, width: 40, height: 40), name: "badge")
            root.addSubview(badge)
        }

        /// The tree at step k, with the badge's layer drawing a circle (through cairo) from step 6.
        func nodes(_ k: Int) -> [PresentationNode] {
            let d = Double(k)
            switch k {
            case 0..<3: card.center = Point(x: 80 + 10 * d, y: 140) // whole points: blits
            case 3..<5: card.center = Point(x: 110.25 + 3.3 * d, y: 140.5) // a fractional offset
            case 5..<7: card.transform3D = Transform3D.scale(1 + 0.1 * d, 1 + 0.1 * d, 1) // pixman's bilinear scale
            case 7..<9: card.transform3D = Transform3D.rotation(0.1 * d, 0, 0, 1) // the affine span loop
            case 9: card.alpha = 0.5
            default: break // k = 10, 11: nothing changes
            }
            let circle = SampledLayer(id: "dot", name: "dot", kind: .shape, state: {
                var s = LayerState(kind: .shape)
                let r = 32 - Double(min(k, 9)) // shrinks until step 9, then holds
                s.shape!.path = Path.ellipse(in: Rect(x: 4, y: 4, width: r, height: r))
                s.shape!.fillColor = Color(red: 0.9, green: 0.1, blue: 0.1)
                return s
            }(), sublayers: [], mask: nil)
            return engine.sampleTree(root).map { n in
                guard k >= 6, n.view.id == badge.id else { return n }
                return PresentationNode(view: n.view, parentID: n.parentID, z: n.z, depth: n.depth, state: n.state, isHidden: n.isHidden,
                                        layers: LayerTreeSample(style: .plain, sublayers: [circle], mask: nil))
            }
        }
    }

    /// A renderer that keeps its target between frames, and that target.
    static func reusingRenderer(scale: Int) -> (Renderer, RGBAImage) {
        let r = Renderer(pointSize: DemoScenes.screen, scale: scale)
        r.reusesTargetPixels = true
        return (r, RGBAImage(width: r.pixelWidth, height: r.pixelHeight))
    }

    func testEveryFrameShowsWhatAWholeRedrawShows() {
        for scale in [1, 2, 3] {
            let scene = Scene()
            let (reusing, target) = Self.reusingRenderer(scale: scale)
            let canvas = reusing.pixelWidth * reusing.pixelHeight
            var partial = 0
            for k in 0..<12 {
                let nodes = scene.nodes(k)
                reusing.render(nodes, into: target)
                let whole = Renderer(pointSize: DemoScenes.screen, scale: scale).render(nodes)
                XCTAssertEqual(target.rgbaBytes(), whole.rgbaBytes(), "step \(k) @\(scale)x")
                if k > 0 && reusing.lastDamage.area < canvas { partial += 1 }
                if k == 11 { XCTAssertTrue(reusing.lastDamage.isEmpty, "an unchanged frame draws nothing @\(scale)x") }
            }
            // Only the card (or the badge) changes from step 1 on: most frames redraw a part.
            XCTAssertGreaterThanOrEqual(partial, 8, "frames drawn in part @\(scale)x")
        }
    }

    /// A moved whole-pixel card redraws its old and new places only.
    func testTheDamageIsWhereTheCardWasAndIs() {
        let scene = Scene()
        let (r, target) = Self.reusingRenderer(scale: 1)
        r.render(scene.nodes(0), into: target)
        XCTAssertEqual(r.lastDamage, PixelRect(x0: 0, y0: 0, x1: 320, y1: 568), "the first frame is drawn whole")
        // The still page is drawn as one raster from the second frame on (its subviews drew
        // it in the first), so that frame is drawn whole too.
        r.render(scene.nodes(1), into: target)
        r.render(scene.nodes(2), into: target) // the card moves 10 pt right: x 30..150 -> 40..160
        XCTAssertEqual(r.lastDamage, PixelRect(x0: 30, y0: 100, x1: 160, y1: 180))
    }

    /// A circle mask growing over a still page (a circular reveal): each frame redraws the
    /// circle's square, not the screen, and shows what a whole redraw shows.
    /// A page over another, masked by a circle about the screen's centre: the tree for a radius
    /// and the mask's fill alpha.
    private func revealScene() -> (Double, Double) -> [PresentationNode] {
        let e = AnimationEngine()
        let root = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "window")
        root.backgroundColor = .black
        root.addSubview(DemoScenes.page(e, title: "Under", hue: Color(red: 0.85, green: 0.9, blue: 1)))
        let revealed = DemoScenes.page(e, title: "Revealed", hue: Color(red: 1, green: 0.92, blue: 0.85))
        root.addSubview(revealed)
        return { radius, alpha in
            var s = LayerState(kind: .shape)
            s.shape!.path = Path.ellipse(in: Rect(x: 160 - radius, y: 284 - radius, width: 2 * radius, height: 2 * radius))
            s.shape!.fillColor = Color(red: 0, green: 0, blue: 0, alpha: alpha)
            let mask = SampledLayer(id: "reveal", name: "reveal", kind: .shape, state: s, sublayers: [], mask: nil)
            return e.sampleTree(root).map { n in
                guard n.view.id == revealed.id else { return n }
                return PresentationNode(view: n.view, parentID: n.parentID, z: n.z, depth: n.depth, state: n.state, isHidden: n.isHidden,
                                        layers: LayerTreeSample(style: .plain, sublayers: [], mask: mask))
            }
        }
    }

    func testAGrowingMaskRedrawsOnlyWhatItReaches() {
        for scale in [1, 2] {
            let scene = revealScene()
            func nodes(_ radius: Double) -> [PresentationNode] { scene(radius, 1) }
            let (r, target) = Self.reusingRenderer(scale: scale)
            for (k, radius) in [10.0, 20, 30, 45, 60].enumerated() {
                let frame = nodes(radius)
                r.render(frame, into: target)
                XCTAssertEqual(target.rgbaBytes(), Renderer(pointSize: DemoScenes.screen, scale: scale).render(frame).rgbaBytes(),
                               "radius \(radius) @\(scale)x")
                guard k >= 2 else { continue }
                // The new circle's square holds the old one; a few pixels of margin around it.
                let side = Int(2 * radius) * scale + 12 * scale
                XCTAssertLessThanOrEqual(r.lastDamage.width, side, "radius \(radius) @\(scale)x: \(r.lastDamage)")
                XCTAssertLessThanOrEqual(r.lastDamage.height, side, "radius \(radius) @\(scale)x: \(r.lastDamage)")
                XCTAssertGreaterThanOrEqual(r.lastDamage.width, Int(2 * radius) * scale, "the whole circle is redrawn")
            }
        }
    }

    /// A circle mask shrinking (a reveal dismissed), then holding its size while it fades: the
    /// masked raster is cut to what the mask reaches, so while that stays the same the frames
    /// differ only in the mask, whose damage must be found where the cut raster lies.
    func testAShrinkingAndFadingMaskShowsWhatAWholeRedrawShows() {
        for scale in [1, 2, 3] {
            let scene = revealScene()
            let (r, target) = Self.reusingRenderer(scale: scale)
            for (radius, alpha) in [(150.0, 1.0), (90, 1), (40, 1), (30, 1), (30, 0.6), (30, 0.3), (29.5, 0.3)] {
                let frame = scene(radius, alpha)
                r.render(frame, into: target)
                XCTAssertEqual(target.rgbaBytes(), Renderer(pointSize: DemoScenes.screen, scale: scale).render(frame).rgbaBytes(),
                               "radius \(radius), alpha \(alpha) @\(scale)x")
            }
        }
    }

    /// Another target, or one the caller does not promise to keep, is drawn whole.
    func testAnotherTargetIsDrawnWhole() {
        let scene = Scene()
        let (r, first) = Self.reusingRenderer(scale: 1)
        r.render(scene.nodes(0), into: first)
        let second = RGBAImage(width: r.pixelWidth, height: r.pixelHeight)
        let nodes = scene.nodes(1)
        r.render(nodes, into: second)
        XCTAssertEqual(r.lastDamage.area, 320 * 568)
        XCTAssertEqual(second.rgbaBytes(), Renderer(pointSize: DemoScenes.screen, scale: 1).render(nodes).rgbaBytes())

        let plain = Renderer(pointSize: DemoScenes.screen, scale: 1)
        plain.render(scene.nodes(2), into: first)
        plain.render(scene.nodes(2), into: first)
        XCTAssertEqual(plain.lastDamage.area, 320 * 568, "without reusesTargetPixels every frame is drawn whole")
    }

    /// A push half way: two opaque pages side by side at fractional offsets (one scaled a
    /// little), each with cards over it, on a window with or without a background. The
    /// frame's clear (or the window's fill) skips the columns the pages overwrite whole, so a
    /// frame must not depend on what its target held before: drawn into noise and into a
    /// cleared image, it is the same.
    func testAFrameDoesNotDependOnWhatItsTargetHeld() {
        for (offset, zoom, background) in [(120.37, 1.0, Color.black), (200.5, 0.97, nil), (-0.3, 1.0, nil), (64.8, 0.9, .white)] {
            for scale in [1, 2] {
                let e = AnimationEngine()
                let root = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "window")
                root.backgroundColor = background
                let from = DemoScenes.page(e, title: "From", hue: Color(red: 0.9, green: 0.9, blue: 1))
                let to = DemoScenes.page(e, title: "To", hue: Color(red: 1, green: 0.9, blue: 0.8))
                from.transform3D = Transform3D.translation(offset - 320, 0, 0).scaled(zoom, zoom, 1)
                to.transform3D = Transform3D.translation(offset, 0, 0)
                root.addSubview(from)
                root.addSubview(to)
                let nodes = e.sampleTree(root)
                let r = Renderer(pointSize: DemoScenes.screen, scale: scale)
                let noise = RGBAImage(width: r.pixelWidth, height: r.pixelHeight)
                let words = noise.data.assumingMemoryBound(to: UInt32.self)
                var x: UInt32 = 2463534242
                for i in 0..<(noise.stride / 4 * noise.height) { x ^= x << 13; x ^= x >> 17; x ^= x << 5; words[i] = x }
                r.render(nodes, into: noise)
                let cleared = Renderer(pointSize: DemoScenes.screen, scale: scale).render(nodes)
                XCTAssertTrue(noise.rgbaBytes() == cleared.rgbaBytes(), "offset \(offset), zoom \(zoom) @\(scale)x: the frame shows what the target held")
                XCTAssertLessThan(r.stats.backgroundPixels, (zoom < 1 ? 3 : 1) * r.pixelWidth * r.pixelHeight / (zoom < 1 ? 4 : 8),
                                  "offset \(offset) @\(scale)x: the background skips what the pages overwrite")
            }
        }
    }
}
