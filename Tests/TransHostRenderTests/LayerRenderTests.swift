import XCTest
import Foundation
import TransHostCore
@testable import TransHostRender

/// Standalone layers as the renderer draws them: shape and gradient sublayers, masks,
/// sublayerTransform perspective, zPosition, isDoubleSided and group opacity (scenes:
/// LayerRenderTestCase).
final class LayerRenderTests: LayerRenderTestCase {
    // MARK: Shapes and gradients

    /// A CAShapeLayer with zero bounds at the origin draws its path in the host's coordinates:
    /// a red disc of radius 50 centred at (100, 100) of a host at (40, 60) covers pi 50^2 points
    /// around (140, 160) on screen.
    func testShapeSublayerFillsItsPathInTheHostsCoordinates() {
        let img = render(layers: tree([circleShape(id: "disc", centre: Point(x: 100, y: 100), radius: 50, fill: red)]), scale: 2)
        XCTAssertEqual(summedCoverage(img) / 4, Double.pi * 2500, accuracy: Double.pi * 2500 * 0.002)
        XCTAssertEqual(cov(img, 280, 320), 1, accuracy: 1.0 / 255, "centre")
        XCTAssertEqual(cov(img, 280, 219), 0, accuracy: 1.0 / 255, "above the disc")
        XCTAssertEqual(cov(img, 280, 221), 1, accuracy: 1.0 / 255, "just inside the top")
    }

    /// The layer's own geometry places its path: position (150, 20) with a zero-size bounds
    /// puts the path's origin there; a 0.5 opacity shows half red.
    func testShapeLayerGeometryAndOpacity() {
        let shape = layer(.shape, id: "sq") { s in
            s.position = Point(x: 150, y: 20)
            s.opacity = 0.5
            s.shape!.path = Path.rect(Rect(x: 0, y: 0, width: 30, height: 30))
            s.shape!.fillColor = red
        }
        let img = render(layers: tree([shape]))
        XCTAssertEqual(cov(img, 40 + 150 + 15, 60 + 20 + 15), 0.5, accuracy: 2.0 / 255)
        XCTAssertEqual(cov(img, 40 + 150 - 1, 60 + 20 + 15), 0, accuracy: 1.0 / 255)
        XCTAssertEqual(summedCoverage(img), 900 * 0.5, accuracy: 3)
    }

    /// An axial gradient red -> blue from the top to the bottom of a 100-point square: row y
    /// shows the colour at t = (y + 0.5) / 100. With locations [0, 0.25] the colour reaches blue
    /// a quarter of the way down and stays blue.
    func testAxialGradientFollowsStartEndAndLocations() {
        for locations in [nil, [0.0, 0.25]] as [[Double]?] {
            let g = layer(.gradient, id: "g") { s in
                s.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
                s.position = Point(x: 50, y: 50)
                s.gradient!.colors = [red, blue]
                s.gradient!.locations = locations
            }
            let img = render(layers: tree([g]))
            for y in [0, 10, 24, 40, 60, 99] {
                let t = (Double(y) + 0.5) / 100
                let f = locations == nil ? t : min(t / 0.25, 1)
                let p = img.pixel(x: 90, y: 60 + y)
                XCTAssertEqual(Double(p.r), 255 * (1 - f), accuracy: 2, "red at row \(y), locations \(String(describing: locations))")
                XCTAssertEqual(Double(p.b), 255 * f, accuracy: 2, "blue at row \(y)")
            }
        }
        // Left to right: startPoint (0, 0.5), endPoint (1, 0.5).
        let h = layer(.gradient, id: "h") { s in
            s.bounds = Rect(x: 0, y: 0, width: 100, height: 100)
            s.position = Point(x: 50, y: 50)
            s.gradient!.colors = [red, blue]
            s.gradient!.startPoint = Point(x: 0, y: 0.5)
            s.gradient!.endPoint = Point(x: 1, y: 0.5)
        }
        let img = render(layers: tree([h]))
        XCTAssertEqual(Double(img.pixel(x: 40 + 75, y: 100).b), 255 * 0.755, accuracy: 2)
        XCTAssertEqual(Double(img.pixel(x: 40 + 75, y: 70).b), 255 * 0.755, accuracy: 2, "constant along a column")
    }

    // MARK: Masks

    /// A circular mask on a red host: only the disc shows, its summed coverage pi r^2, the
    /// corners white. The mask's position moves it; its fill alpha scales what shows.
    func testShapeMaskShowsOnlyTheDisc() {
        let mask = circleShape(id: "m", centre: Point(x: 100, y: 100), radius: 60, fill: .black)
        let img = render(background: red, layers: tree([], mask: mask), scale: 2)
        XCTAssertEqual(summedCoverage(img) / 4, Double.pi * 3600, accuracy: Double.pi * 3600 * 0.002)
        XCTAssertEqual(cov(img, 82, 122), 0, accuracy: 1.0 / 255, "the host's corner is masked away")
        XCTAssertEqual(cov(img, 280, 320), 1, accuracy: 1.0 / 255)

        var moved = mask.state
        moved.position = Point(x: 40, y: 0)
        moved.shape!.fillColor = Color(red: 0, green: 0, blue: 0, alpha: 0.5)
        let m2 = SampledLayer(id: "m", name: "m", kind: .shape, state: moved, sublayers: [], mask: nil)
        let img2 = render(background: red, layers: tree([], mask: m2), scale: 2)
        // The disc now centres at (140, 100) in the host; half of it is past the right edge.
        XCTAssertEqual(cov(img2, (40 + 140 - 30) * 2, (60 + 100) * 2), 0.5, accuracy: 2.0 / 255, "half alpha inside the moved disc")
        XCTAssertEqual(cov(img2, (40 + 60) * 2, (60 + 100) * 2), 0, accuracy: 1.0 / 255, "left of the moved disc")
        XCTAssertEqual(cov(img2, (40 + 200 + 10) * 2, (60 + 100) * 2), 0, accuracy: 1.0 / 255, "nothing beyond the host")
    }

    /// A mask also masks the host's subviews and sublayers.
    func testMaskCoversSubviewsAndSublayers() {
        let e = AnimationEngine()
        let root = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "screen")
        root.backgroundColor = .white
        let host = View(engine: e, frame: Rect(x: 40, y: 60, width: 200, height: 200), name: "host")
        let child = View(engine: e, frame: Rect(x: 0, y: 0, width: 100, height: 200))
        child.backgroundColor = red
        host.addSubview(child)
        root.addSubview(host)
        let band = layer(id: "band") { s in
            s.bounds = Rect(x: 0, y: 0, width: 100, height: 200); s.position = Point(x: 150, y: 100); s.backgroundColor = self.red
        }
        let mask = layer(id: "m") { s in
            s.bounds = Rect(x: 0, y: 0, width: 200, height: 100); s.position = Point(x: 100, y: 50); s.backgroundColor = .black
        }
        let nodes = e.sampleTree(root).map { n in
            n.view.id == host.id
                ? PresentationNode(view: n.view, parentID: n.parentID, z: n.z, depth: n.depth, state: n.state, isHidden: n.isHidden,
                                   layers: tree([band], mask: mask))
                : n
        }
        let img = Renderer(pointSize: screenSize, scale: 1).render(nodes)
        XCTAssertEqual(cov(img, 90, 100), 1, accuracy: 1.0 / 255, "subview inside the mask")
        XCTAssertEqual(cov(img, 190, 100), 1, accuracy: 1.0 / 255, "sublayer inside the mask")
        XCTAssertEqual(cov(img, 90, 200), 0, accuracy: 1.0 / 255, "subview below the mask")
        XCTAssertEqual(cov(img, 190, 200), 0, accuracy: 1.0 / 255, "sublayer below the mask")
    }

    /// A growing mask over an unchanged view: the view's content is rasterized once and only
    /// the mask is drawn again each frame, and each frame shows the disc of that frame's radius.
    func testAnimatedMaskKeepsTheViewsRaster() {
        let e = AnimationEngine()
        let root = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "screen")
        root.backgroundColor = .white
        let host = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "host")
        host.backgroundColor = red
        let label = View(engine: e, frame: Rect(x: 20, y: 20, width: 100, height: 40))
        label.backgroundColor = blue
        host.addSubview(label)
        root.addSubview(host)
        let r = Renderer(pointSize: screenSize, scale: 1)
        for radius in [20.0, 80.0, 150.0] {
            let mask = circleShape(id: "m", centre: Point(x: 160, y: 300), radius: radius, fill: .black)
            let nodes = e.sampleTree(root).map { n in
                n.view.id == host.id
                    ? PresentationNode(view: n.view, parentID: n.parentID, z: n.z, depth: n.depth, state: n.state, isHidden: n.isHidden,
                                       layers: tree([], mask: mask))
                    : n
            }
            let img = r.render(nodes)
            XCTAssertEqual(summedCoverage(img), Double.pi * radius * radius, accuracy: Double.pi * radius * radius * 0.01, "radius \(radius)")
        }
        XCTAssertEqual(r.stats.groupRasterizations, 1, "the host's subtree is drawn once")
    }

    /// A sublayer's own mask, in that sublayer's coordinates: a 100-point red square at (50, 50)
    /// of the host masked by a disc of radius 40 centred in the square.
    func testSublayerMaskIsInTheSublayersCoordinates() {
        let disc = circleShape(id: "m", centre: Point(x: 50, y: 50), radius: 40, fill: .black)
        let square = layer(id: "sq", { s in
            s.bounds = Rect(x: 0, y: 0, width: 100, height: 100); s.position = Point(x: 100, y: 100); s.backgroundColor = self.red
        }, mask: disc)
        let img = render(layers: tree([square]), scale: 2)
        XCTAssertEqual(summedCoverage(img) / 4, Double.pi * 1600, accuracy: Double.pi * 1600 * 0.003)
        XCTAssertEqual(cov(img, (40 + 100) * 2, (60 + 100) * 2), 1, accuracy: 1.0 / 255, "centre")
        XCTAssertEqual(cov(img, (40 + 52) * 2, (60 + 52) * 2), 0, accuracy: 1.0 / 255, "the square's corner")
    }

    /// A shadowPath far larger than the screen, blurred: only the part that shows is drawn,
    /// and it lands where expected along the visible edge (x = 100 points).
    func testShadowFarLargerThanTheScreenIsLimitedToIt() {
        var style = LayerStyle.plain
        style.shadow = Shadow(color: .black, opacity: 1, offset: Size(width: 0, height: 0), radius: 10,
                              path: Path.rect(Rect(x: 100, y: -20000, width: 40000, height: 40000)))
        let img = render(frame: Rect(x: 0, y: 0, width: 320, height: 568), layers: tree([], style: style), scale: 3)
        func darkness(_ x: Int) -> Double { 1 - Double(img.pixel(x: x, y: 900).r) / 255 }
        func phi(_ z: Double) -> Double { 0.5 * erfc(-z / 2.0.squareRoot()) }
        for x in [240, 285, 299, 300, 330, 400] {
            let u = (Double(x) + 0.5) / 3 - 100 // points inside the edge
            XCTAssertEqual(darkness(x), phi(u / 10), accuracy: 0.02, "pixel column \(x)")
        }
        XCTAssertEqual(darkness(900), 1, accuracy: 1.0 / 255, "deep inside")
    }

    // MARK: Depth

    /// sublayerTransform perspective (m34 = -1/d) about the host's centre: a sublayer turned by
    /// t about Y has its near edge taller than its far edge. A column at x (points from the
    /// centre, in the layer) lands at X = x cos t / W with W = 1 + x sin t / d, and spans
    /// h / W, centred on the host's centre (the vanishing point).
    func testSublayerTransformPerspectiveAboutTheAnchor() {
        let d = 500.0, t = 0.6
        var persp = Transform3D.identity
        persp.m34 = -1 / d
        var style = LayerStyle.plain
        style.sublayerTransform = persp
        let card = layer(id: "card") { s in
            s.bounds = Rect(x: 0, y: 0, width: 160, height: 120)
            s.position = Point(x: 100, y: 100)
            s.transform = Transform3D.rotation(t, 0, 1, 0)
            s.backgroundColor = self.red
        }
        let img = render(layers: tree([card], style: style), scale: 2)
        let cx = 140.0, cy = 160.0
        func X(_ x: Double) -> Double { x * cos(t) / (1 + x * sin(t) / d) }
        func height(_ x: Double) -> Double { 120 / (1 + x * sin(t) / d) }
        let row = Int(cy * 2)
        var left = -1.0, right = -1.0
        for x in 1..<639 {
            if cov(img, x - 1, row) < 0.5 && cov(img, x, row) >= 0.5 { left = Double(x) }
            if cov(img, x, row) >= 0.5 && cov(img, x + 1, row) < 0.5 { right = Double(x + 1) }
        }
        XCTAssertEqual(left, (cx + X(-80)) * 2, accuracy: 1, "left edge")
        XCTAssertEqual(right, (cx + X(80)) * 2, accuracy: 1, "right edge")
        for x in [-70.0, 0, 70] {
            let col = Int((cx + X(x)) * 2)
            var first = -1, last = -1
            for y in 0..<1136 where cov(img, col, y) >= 0.5 { if first < 0 { first = y }; last = y }
            XCTAssertEqual(Double(last + 1 - first), height(x) * 2, accuracy: 1.5, "height at x = \(x)")
            XCTAssertEqual(Double(first + last + 1) / 2, cy * 2, accuracy: 1, "centred on the vanishing point at x = \(x)")
        }
    }

    /// zPosition sorts siblings: the first sublayer with zPosition 1 draws over the second.
    func testZPositionSortsSiblingSublayers() {
        func square(_ id: String, _ c: Color, _ z: Double) -> SampledLayer {
            layer(id: id) { s in
                s.bounds = Rect(x: 0, y: 0, width: 100, height: 100); s.position = Point(x: 100, y: 100)
                s.backgroundColor = c; s.style.zPosition = z
            }
        }
        let flat = render(layers: tree([square("a", red, 0), square("b", blue, 0)]))
        assertNear(flat.pixel(x: 140, y: 160), RGBA8(r: 0, g: 0, b: 255, a: 255), 1, "later sibling on top")
        let sorted = render(layers: tree([square("a", red, 1), square("b", blue, 0)]))
        assertNear(sorted.pixel(x: 140, y: 160), RGBA8(r: 255, g: 0, b: 0, a: 255), 1, "higher zPosition on top")
    }

    /// Sibling views sort by their layers' zPosition too; a view turned half way round with
    /// isDoubleSided = false is not drawn, nor are its subviews.
    func testViewsSortByZPositionAndCullTheirBacks() {
        let e = AnimationEngine()
        let root = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "screen")
        root.backgroundColor = .white
        let a = View(engine: e, frame: Rect(x: 0, y: 0, width: 100, height: 100), name: "a")
        a.backgroundColor = red
        let b = View(engine: e, frame: Rect(x: 50, y: 50, width: 100, height: 100), name: "b")
        b.backgroundColor = blue
        let c = View(engine: e, frame: Rect(x: 200, y: 200, width: 100, height: 100), name: "c")
        c.backgroundColor = red
        c.transform3D = Transform3D.rotation(Double.pi, 1, 0, 0)
        let inner = View(engine: e, frame: Rect(x: 10, y: 10, width: 20, height: 20))
        inner.backgroundColor = blue
        c.addSubview(inner)
        for v in [a, b, c] { root.addSubview(v) }
        func styled(_ edit: (inout LayerStyle) -> Void) -> LayerTreeSample {
            var st = LayerStyle.plain
            edit(&st)
            return LayerTreeSample(style: st, sublayers: [], mask: nil)
        }
        let nodes = e.sampleTree(root).map { n -> PresentationNode in
            let layers: LayerTreeSample? = n.view.name == "a" ? styled { $0.zPosition = 1 } : n.view.name == "c" ? styled { $0.isDoubleSided = false } : nil
            return PresentationNode(view: n.view, parentID: n.parentID, z: n.z, depth: n.depth, state: n.state, isHidden: n.isHidden, layers: layers)
        }
        let img = Renderer(pointSize: screenSize, scale: 1).render(nodes)
        assertNear(img.pixel(x: 75, y: 75), RGBA8(r: 255, g: 0, b: 0, a: 255), 1, "a (zPosition 1) over b")
        assertNear(img.pixel(x: 250, y: 250), RGBA8(r: 255, g: 255, b: 255, a: 255), 1, "c faces away")
        assertNear(img.pixel(x: 270, y: 280), RGBA8(r: 255, g: 255, b: 255, a: 255), 1, "and its subview with it")
    }

    /// A layer turned half way round about Y shows its back: drawn (mirrored) when double sided,
    /// culled when not.
    func testIsDoubleSidedCullsABackFacingLayer() {
        func turned(_ doubleSided: Bool) -> SampledLayer {
            layer(id: "back") { s in
                s.bounds = Rect(x: 0, y: 0, width: 100, height: 100); s.position = Point(x: 100, y: 100)
                s.transform = Transform3D.rotation(Double.pi, 0, 1, 0)
                s.backgroundColor = self.red
                s.style.isDoubleSided = doubleSided
            }
        }
        XCTAssertEqual(cov(render(layers: tree([turned(true)])), 140, 160), 1, accuracy: 1.0 / 255)
        XCTAssertEqual(cov(render(layers: tree([turned(false)])), 140, 160), 0, accuracy: 1.0 / 255)
    }

    /// Opacity applies to a layer and its sublayers as one group: two overlapping opaque
    /// sublayers under a 0.5 parent show 0.5 red where they overlap, not 0.75.
    func testOpacityIsGroupOpacity() {
        func square(_ id: String, _ x: Double) -> SampledLayer {
            layer(id: id) { s in
                s.bounds = Rect(x: 0, y: 0, width: 100, height: 100); s.position = Point(x: x, y: 50); s.backgroundColor = self.red
            }
        }
        let parent = layer(id: "p", { s in
            s.bounds = Rect(x: 0, y: 0, width: 200, height: 100); s.position = Point(x: 100, y: 50); s.opacity = 0.5
        }, sublayers: [square("a", 50), square("b", 100)])
        let img = render(layers: tree([parent]))
        XCTAssertEqual(cov(img, 40 + 75, 60 + 50), 0.5, accuracy: 2.0 / 255, "overlap")
        XCTAssertEqual(cov(img, 40 + 25, 60 + 50), 0.5, accuracy: 2.0 / 255, "single")
    }

    /// Paths and geometry far outside any screen, or not finite, draw what they can and never
    /// crash: huge coordinates, a huge stroke, NaN opacity and position.
    func testAbsurdLayerValuesDoNotCrash() {
        var huge = Path()
        huge.move(to: Point(x: -1e30, y: -1e30))
        huge.addLine(to: Point(x: 1e30, y: 5))
        huge.addCurve(to: Point(x: 5, y: 1e15), control1: Point(x: 1e20, y: -1e20), control2: Point(x: -1e18, y: 1e18))
        huge.closeSubpath()
        let shapes = [
            layer(.shape, id: "huge") { s in s.shape!.path = huge; s.shape!.strokeColor = self.blue; s.shape!.lineWidth = 1e9; s.shape!.strokeEnd = 0.5 },
            layer(.shape, id: "nan") { s in s.shape!.path = Path.rect(Rect(x: 0, y: 0, width: 10, height: 10)); s.opacity = .nan },
            layer(.plain, id: "far") { s in s.bounds = Rect(x: 0, y: 0, width: 1e12, height: 1e12); s.position = Point(x: -1e15, y: 0); s.backgroundColor = self.red },
        ]
        for l in shapes {
            _ = render(background: .white, layers: tree([l], mask: l))
            let img = render(background: .white, layers: tree([l]))
            if l.id != "huge" { assertNear(img.pixel(x: 140, y: 160), RGBA8(r: 255, g: 255, b: 255, a: 255), 1, "\(l.id) draws nothing there") }
        }
    }
}
