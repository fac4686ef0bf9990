import XCTest
@testable import TransHostCore

/// The layer model: paths, standalone layers in a view's layer, masks and their sampled form.
final class LayerModelTests: XCTestCase {
    func testCircleArcIsFourCubicsOnTheCircle() {
        var p = Path()
        p.addArc(center: Point(x: 50, y: 60), radius: 20, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        XCTAssertEqual(p.elementCount, 5, "a move and four quarter arcs")
        // Each quarter arc's midpoint is within 0.03% of the radius of the true circle.
        var current = Point(x: 70, y: 60)
        for e in p.elements.dropFirst() {
            guard case .curveTo(let end, let c1, let c2) = e else { return XCTFail("expected a cubic, got \(e)") }
            let mid = Path.cubic(current, c1, c2, end, 0.5)
            XCTAssertEqual(hypot(mid.x - 50, mid.y - 60), 20, accuracy: 20 * 3e-4)
            current = end
        }
        XCTAssertEqual(current.x, 70, accuracy: 1e-9)
        XCTAssertEqual(current.y, 60, accuracy: 1e-9)
        let tight = p.pathBoundingBox
        XCTAssertEqual(tight.minX, 30, accuracy: 1e-9); XCTAssertEqual(tight.maxY, 80, accuracy: 1e-9)
        XCTAssertEqual(tight.width, 40, accuracy: 1e-9); XCTAssertEqual(tight.height, 40, accuracy: 1e-9)
        var q = Path()
        q.move(to: .zero); q.addQuadCurve(to: Point(x: 100, y: 0), control: Point(x: 50, y: 100))
        XCTAssertEqual(q.pathBoundingBox.maxY, 50, accuracy: 1e-12, "the curve's extreme, half way to its control point")
        XCTAssertEqual(q.boundingBox.maxY, 100, "CGPath.boundingBox includes control points")
    }

    func testHalfArcCounterClockwiseGoesThroughTheTop() {
        var p = Path()
        p.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi, clockwise: false)
        // y grows downwards: counter-clockwise on screen from angle 0 to pi passes y = -10.
        XCTAssertEqual(p.pathBoundingBox.minY, -10, accuracy: 1e-9)
        XCTAssertEqual(p.pathBoundingBox.maxY, 0, accuracy: 1e-9)
    }

    func testPathsWithMatchingElementsInterpolateElementWise() {
        let a = Path.ellipse(in: Rect(x: 40, y: 40, width: 20, height: 20))
        let b = Path.ellipse(in: Rect(x: 0, y: 0, width: 100, height: 100))
        let half = Path.interpolate(a, b, 0.5)!
        XCTAssertEqual(half.pathBoundingBox, Rect(x: 20, y: 20, width: 60, height: 60))
        XCTAssertNil(Path.interpolate(a, Path.rect(Rect(x: 0, y: 0, width: 1, height: 1)), 0.5), "other elements do not morph")
        XCTAssertEqual(LayerValue.path(a).interpolated(to: .path(.rect(.zero)), 0.5), .path(a), "a mismatch holds its start")
    }

    func testAnOvalMorphsIntoAFullCircleArc() {
        let oval = Path.ellipse(in: Rect(x: 138, y: 486, width: 44, height: 44))
        var arc = Path()
        arc.addArc(center: Point(x: 160, y: 508), radius: 500, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        XCTAssertEqual([oval.elementCount, arc.elementCount], [6, 5], "the oval closes, the arc does not")
        let mid = try! XCTUnwrap(Path.interpolate(oval, arc, 0.5))
        XCTAssertEqual(mid.pathBoundingBox.width, 22 + 500, accuracy: 1e-9, "radius half way from 22 to 500")
        XCTAssertEqual(mid.pathBoundingBox.midX, 160, accuracy: 1e-9)
    }

    func testShapeLayerInViewSamplesWithItsTreeAndMask() {
        let engine = AnimationEngine()
        let v = View(engine: engine, frame: Rect(x: 0, y: 0, width: 100, height: 100))
        XCTAssertNil(engine.sampleTree(v)[0].layers, "a plain view samples as before")
        let shape = Layer(engine: engine, kind: .shape, name: "ring")
        engine.coreAnimation.disableActions = true
        shape.setModelValue(.path(.ellipse(in: Rect(x: 0, y: 0, width: 10, height: 10))), for: .path)
        shape.setModelValue(.color(nil), for: .fillColor)
        let dot = Layer(engine: engine)
        shape.addSublayer(dot)
        v.addSublayer(shape)
        let mask = Layer(engine: engine, kind: .gradient)
        v.mask = mask
        v.layerStyle.zPosition = 2
        let node = engine.sampleTree(v)[0]
        let layers = try! XCTUnwrap(node.layers)
        XCTAssertEqual(layers.style.zPosition, 2)
        XCTAssertEqual(layers.sublayers.map(\.id), [shape.id])
        XCTAssertEqual(layers.sublayers[0].sublayers.map(\.id), [dot.id])
        XCTAssertEqual(layers.sublayers[0].state.shape?.fillColor, nil)
        XCTAssertEqual(layers.sublayers[0].state.shape?.path?.elementCount, 6)
        XCTAssertEqual(layers.mask?.kind, .gradient)
        XCTAssertTrue(mask.isMask)

        // Moving the mask into the sublayers takes it out of the mask slot.
        v.addSublayer(mask)
        XCTAssertNil(v.mask)
        XCTAssertEqual(v.sublayers.map(\.id), [shape.id, mask.id])
        mask.removeFromSuperlayer()
        XCTAssertEqual(v.sublayers.map(\.id), [shape.id])
    }

    func testLayerCyclesAndWrongKindsAreRefusedWithWarnings() {
        let engine = AnimationEngine()
        var warnings: [String] = []
        engine.warningHandler = { warnings.append($0) }
        let a = Layer(engine: engine), b = Layer(engine: engine)
        a.addSublayer(b)
        b.addSublayer(a)
        XCTAssertTrue(a.sublayers.contains { $0 === b })
        XCTAssertTrue(b.sublayers.isEmpty)
        XCTAssertFalse(a.setModelValue(.path(nil), for: .path), "a plain layer has no path")
        XCTAssertFalse(a.setModelValue(.number(.nan), for: .opacity))
        XCTAssertEqual(warnings.count, 3, "\(warnings)")
        XCTAssertTrue(warnings[0].contains("cycle"))
    }

    func testGradientStopsDefaultToEvenSpacing() {
        let g = GradientStyle(colors: [.black, .white, .black])
        XCTAssertEqual(g.effectiveLocations, [0, 0.5, 1])
        XCTAssertEqual(GradientStyle(colors: [.black, .white], locations: [0.2, 0.9]).effectiveLocations, [0.2, 0.9])
    }

    func testTransformSubKeyPathsKeepPerspective() {
        var m = Transform3D.identity
        m.m34 = -1.0 / 500
        let kp = LayerKeyPath("transform.rotation.y")!
        guard case .transform(let r)? = kp.replacing(.number(.pi / 3), in: .transform(m)) else { return XCTFail() }
        let expected = Transform3D.rotation(.pi / 3, 0, 1, 0).concatenating(m)
        for (x, y) in zip(r.values, expected.values) { XCTAssertEqual(x, y, accuracy: 1e-12) }
        XCTAssertEqual(kp.part(of: .transform(r)), .number(.pi / 3))
        XCTAssertNil(LayerKeyPath("position.width"), "a point has no width")
        XCTAssertNil(LayerKeyPath("frame"), "frame is not animatable in Core Animation")
    }
}
