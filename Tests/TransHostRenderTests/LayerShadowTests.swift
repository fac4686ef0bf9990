import XCTest
import Foundation
import TransHostCore
@testable import TransHostRender

/// Shadows as the renderer draws them (scenes: LayerRenderTestCase).
final class LayerShadowTests: LayerRenderTestCase {
    // MARK: Shadows

    /// A shadow cast by a view's own pixels (no shadowPath) is the same whatever drew those
    /// pixels before: the last of several frames that scale, move and fade a rounded card with a
    /// subview (one raster, kept between frames; its shadow, drawn at the card's opacity, is
    /// drawn again each frame), drawn in turn, equals
    /// that frame drawn on a fresh renderer. (pixman keeps the transform last set on an image;
    /// the shadow's copy of the card's raster once went through it.)
    func testShadowDoesNotDependOnHowItsSourceWasDrawnBefore() {
        for path in [CompositePath.automatic, .pixmanAffine] {
            let e = AnimationEngine()
            let root = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "screen")
            root.backgroundColor = .white
            let card = View(engine: e, frame: Rect(x: 60, y: 120, width: 200, height: 260), name: "card")
            card.backgroundColor = Color(red: 0.3, green: 0.5, blue: 0.9)
            card.cornerRadius = 14
            card.layerStyle.shadow = Shadow(color: .black, opacity: 0.4, offset: Size(width: 0, height: 4), radius: 6)
            let badge = View(engine: e, frame: Rect(x: 20, y: 20, width: 60, height: 40), name: "badge")
            badge.backgroundColor = Color(red: 1, green: 0.8, blue: 0.2)
            card.addSubview(badge)
            root.addSubview(card)
            var frames: [[PresentationNode]] = []
            for (k, s) in [0.6, 0.85, 1.1, 0.95].enumerated() {
                card.transform3D = Transform3D.translation(Double(k) * 3.3, 0.4, 0).scaled(s, s, 1)
                card.alpha = 0.5 + 0.1 * Double(k)
                frames.append(e.sampleTree(root))
            }
            let r = Renderer(pointSize: screenSize, scale: 2)
            r.compositePath = path
            var drawn: [UInt8] = []
            for f in frames { drawn = r.render(f).rgbaBytes() }
            let fresh = Renderer(pointSize: screenSize, scale: 2)
            fresh.compositePath = path
            XCTAssertTrue(fresh.render(frames.last!).rgbaBytes() == drawn, "\(path): the last frame differs from a fresh renderer's")
        }
    }

    /// A hard shadow (radius 0) from a shadowPath, offset (10, 10) at opacity 0.5: black at half
    /// alpha where the host does not cover it.
    func testHardShadowFromPathIsOffsetBeneathTheView() {
        var style = LayerStyle.plain
        style.shadow = Shadow(color: .black, opacity: 0.5, offset: Size(width: 10, height: 10), radius: 0,
                              path: Path.rect(Rect(x: 0, y: 0, width: 100, height: 100)))
        let img = render(frame: Rect(x: 40, y: 60, width: 100, height: 100), background: red, layers: tree([], style: style))
        assertNear(img.pixel(x: 40 + 105, y: 60 + 50), RGBA8(r: 128, g: 128, b: 128, a: 255), 1, "right of the view")
        assertNear(img.pixel(x: 40 + 50, y: 60 + 50), RGBA8(r: 255, g: 0, b: 0, a: 255), 1, "the view on top")
        assertNear(img.pixel(x: 40 + 115, y: 60 + 50), RGBA8(r: 255, g: 255, b: 255, a: 255), 1, "past the shadow")
        assertNear(img.pixel(x: 40 + 5, y: 60 + 105), RGBA8(r: 255, g: 255, b: 255, a: 255), 1, "left of the offset shadow")
    }

    /// A blurred shadow of the view's own shape (no shadowPath): the blur keeps the shadow's
    /// mass (summed darkness = area x opacity), and across a long edge its alpha follows the
    /// Gaussian's distribution function with sigma = shadowRadius: opacity x Phi(-u / sigma) at
    /// a distance u outside the edge.
    func testBlurredShadowFollowsTheGaussian() {
        let sigma = 6.0
        var style = LayerStyle.plain
        style.shadow = Shadow(color: .black, opacity: 0.8, offset: Size(width: 0, height: 0), radius: sigma)
        // A transparent host with a blue sublayer 100 x 100: the shadow is cast by the sublayer.
        let sq = layer(id: "sq") { s in
            s.bounds = Rect(x: 0, y: 0, width: 100, height: 300); s.position = Point(x: 50, y: 150); s.backgroundColor = self.blue
        }
        let img = render(frame: Rect(x: 100, y: 100, width: 100, height: 300), layers: tree([sq], style: style), scale: 2)
        func darkness(_ x: Int, _ y: Int) -> Double { 1 - Double(img.pixel(x: x, y: y).r) / 255 }
        func phi(_ z: Double) -> Double { 0.5 * erfc(-z / 2.0.squareRoot()) }
        for u in [0.5, 3, 6, 9, 12] { // points right of the right edge, mid-height
            let px = Int((200 + u) * 2), py = 250 * 2
            XCTAssertEqual(darkness(px, py), 0.8 * phi(-(u + 0.25) / sigma), accuracy: 0.02, "u = \(u)")
        }
        var outside = 0.0
        for y in 0..<img.height {
            for x in 0..<img.width where !(x >= 200 && x < 400 && y >= 200 && y < 800) { outside += darkness(x, y) }
        }
        // Half the shadow's mass within the square's footprint is hidden beneath it; what
        // spreads outside is the total (area x opacity) minus what stays under the square.
        var under = 0.0
        for y in 0..<(600) { for x in 0..<200 {
            let px = (Double(x) + 0.5) / 2, py = (Double(y) + 0.5) / 2
            let fx = phi(px / sigma) - phi((px - 100) / sigma), fy = phi(py / sigma) - phi((py - 300) / sigma)
            under += 0.8 * fx * fy
        } }
        XCTAssertEqual(outside / 4, 0.8 * 100 * 300 - under / 4, accuracy: 0.8 * 30000 * 0.01, "shadow mass outside the square")
    }

    /// A standalone layer's shadow: cast by its own drawing, moved by its offset in its own
    /// coordinates (a layer turned a quarter turn moves its shadow sideways on screen).
    func testSublayerShadowFollowsTheLayersOwnCoordinates() {
        func shadowed(_ angle: Double) -> SampledLayer {
            layer(id: "s") { s in
                s.bounds = Rect(x: 0, y: 0, width: 60, height: 60); s.position = Point(x: 100, y: 100)
                s.transform = Transform3D.rotation(angle, 0, 0, 1)
                s.backgroundColor = self.red
                s.style.shadow = Shadow(color: .black, opacity: 0.5, offset: Size(width: 0, height: 20), radius: 0)
            }
        }
        // Host at (40, 60): the square covers (110...170, 130...190) on screen; the shadow the
        // same square 20 points lower (unturned), or 20 points to the left (turned by pi/2).
        let straight = render(layers: tree([shadowed(0)]))
        assertNear(straight.pixel(x: 140, y: 200), RGBA8(r: 128, g: 128, b: 128, a: 255), 1, "below the square")
        assertNear(straight.pixel(x: 100, y: 160), RGBA8(r: 255, g: 255, b: 255, a: 255), 1, "not beside it")
        let turned = render(layers: tree([shadowed(Double.pi / 2)]))
        assertNear(turned.pixel(x: 100, y: 160), RGBA8(r: 128, g: 128, b: 128, a: 255), 1, "left of the turned square")
        assertNear(turned.pixel(x: 140, y: 200), RGBA8(r: 255, g: 255, b: 255, a: 255), 1, "not below it")
        assertNear(turned.pixel(x: 140, y: 160), RGBA8(r: 255, g: 0, b: 0, a: 255), 1, "the square on top")
    }

    /// clipsToBounds clips the shadow as it clips everything the layer draws (Core Animation's
    /// masksToBounds hides a shadow outside the bounds).
    func testClipsToBoundsClipsTheShadow() {
        var style = LayerStyle.plain
        style.shadow = Shadow(color: .black, opacity: 1, offset: Size(width: 10, height: 10), radius: 0,
                              path: Path.rect(Rect(x: 0, y: 0, width: 100, height: 100)))
        let img = render(frame: Rect(x: 40, y: 60, width: 100, height: 100), background: nil, clips: true, layers: tree([], style: style))
        assertNear(img.pixel(x: 40 + 105, y: 60 + 50), RGBA8(r: 255, g: 255, b: 255, a: 255), 1, "nothing outside the bounds")
        assertNear(img.pixel(x: 40 + 50, y: 60 + 50), RGBA8(r: 0, g: 0, b: 0, a: 255), 1, "inside the bounds the shadow shows through")
    }

    /// Absurd shadow radii and offsets draw a (faint or no) shadow, never a crash.
    func testAbsurdShadowValuesDoNotCrash() {
        for (radius, offset) in [(1e12, 0.0), (1e300, 0.0), (1e6, 1e9), (5000, -3)] {
            var style = LayerStyle.plain
            style.shadow = Shadow(color: .black, opacity: 1, offset: Size(width: offset, height: offset), radius: radius,
                                  path: Path.rect(Rect(x: 0, y: 0, width: 100, height: 100)))
            let img = render(frame: Rect(x: 40, y: 60, width: 100, height: 100), background: red, layers: tree([], style: style))
            assertNear(img.pixel(x: 90, y: 110), RGBA8(r: 255, g: 0, b: 0, a: 255), 1, "the view itself, radius \(radius)")
        }
    }
}
