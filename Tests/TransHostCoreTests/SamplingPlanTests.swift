import XCTest
@testable import TransHostCore

/// Every frame shows the tree as it is at that instant, although sampling reuses a plan of the
/// tree (its views, model values and animations laid out in order) while nothing changes. The
/// engines here build plans for trees of any size (by default only large trees get one).
final class SamplingPlanTests: XCTestCase {
    private let linear = UInt32(3) << 16

    /// The tree as each view reports itself now, walked independently of sampleTree.
    private func expected(_ engine: AnimationEngine, _ root: View) -> [PresentationNode] {
        var out: [PresentationNode] = []
        func walk(_ v: View, _ parent: String?, _ z: Int, _ depth: Int) {
            out.append(PresentationNode(view: SampledView(v), parentID: parent, z: z, depth: depth, state: engine.presentation(of: v),
                                        isHidden: v.isHidden, layers: engine.sampleLayers(of: v)))
            for (i, s) in v.subviews.enumerated() { walk(s, v.id, i, depth + 1) }
        }
        walk(root, nil, 0, 0)
        return out
    }

    /// Samples three frames after `change` (the first walks the tree, the second builds a plan,
    /// the third reuses it) and checks each against the tree as it is.
    private func check(_ engine: AnimationEngine, _ root: View, _ what: String, time: inout Double,
                       file: StaticString = #filePath, line: UInt = #line, _ change: () -> Void) {
        change()
        for k in 0..<3 {
            time += 1.0 / 60
            engine.advance(to: time)
            let sampled = engine.sampleTree(root)
            let want = expected(engine, root)
            XCTAssertEqual(sampled.map(\.view.id), want.map(\.view.id), "\(what): views, frame \(k)", file: file, line: line)
            XCTAssertEqual(sampled, want, "\(what): frame \(k)", file: file, line: line)
        }
    }

    func testEveryKindOfChangeShowsInTheNextFrame() {
        let engine = AnimationEngine()
        engine.samplingPlanMinimumViews = 0   // plans for small trees too
        let root = View(engine: engine, frame: Rect(x: 0, y: 0, width: 320, height: 480), name: "root")
        let a = View(engine: engine, frame: Rect(x: 0, y: 0, width: 50, height: 50), name: "a")
        let b = View(engine: engine, frame: Rect(x: 60, y: 0, width: 50, height: 50), name: "b")
        let c = View(engine: engine, frame: Rect(x: 0, y: 60, width: 20, height: 20), name: "c")
        root.addSubview(a); root.addSubview(b); a.addSubview(c)
        engine.animate(AnimationParameters(duration: 2, options: linear)) { a.position = Point(x: 200, y: 200) }
        var t = 0.0
        check(engine, root, "a still tree", time: &t) {}
        check(engine, root, "a model value set outside animations", time: &t) { b.alpha = 0.3 }
        check(engine, root, "a hidden view", time: &t) { c.isHidden = true }
        check(engine, root, "a new subview", time: &t) { b.addSubview(View(engine: engine, frame: Rect(x: 1, y: 1, width: 5, height: 5), name: "d")) }
        check(engine, root, "a reordering", time: &t) { root.bringSubviewToFront(a) }
        check(engine, root, "a removed subview", time: &t) { c.removeFromSuperview() }
        check(engine, root, "a new animation", time: &t) {
            engine.animate(AnimationParameters(duration: 1, curve: .spring(dampingRatio: 0.5, initialVelocity: 3))) {
                b.transform = AffineTransform(rotationAngle: 1)
                b.backgroundColor = Color(red: 0, green: 1, blue: 0, alpha: 1)
            }
        }
        check(engine, root, "an animation replacing another", time: &t) {
            engine.animate(AnimationParameters(duration: 0.5)) { a.position = Point(x: 10, y: 300) }
        }
        check(engine, root, "a removed animation", time: &t) { engine.removeAnimation(of: b, .transform) }
        check(engine, root, "a rename and new content", time: &t) {
            b.name = "renamed"
            b.content = ViewContent(text: TextContent(string: "hi"))
        }
        let layer = Layer(engine: engine, name: "sublayer")
        check(engine, root, "a new sublayer", time: &t) { b.addSublayer(layer) }
        check(engine, root, "a sublayer's own change", time: &t) { layer.isHidden = true }
        check(engine, root, "a removed sublayer", time: &t) { layer.removeFromSuperlayer() }
        let later = t + 3
        check(engine, root, "animations ending", time: &t) { engine.advance(to: later) }
        t = later
    }

    func testAViewOfAnotherEngineInTheTreeShowsItsChanges() {
        let engine = AnimationEngine(), other = AnimationEngine()
        engine.samplingPlanMinimumViews = 0; other.samplingPlanMinimumViews = 0
        let root = View(engine: engine, frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let foreign = View(engine: other, frame: Rect(x: 0, y: 0, width: 10, height: 10))
        root.addSubview(foreign)
        var t = 0.0
        check(engine, root, "a still tree", time: &t) {}
        // Only the other engine hears of this change.
        check(engine, root, "a foreign view's change", time: &t) { foreign.alpha = 0.25 }
        XCTAssertEqual(engine.sampleTree(root)[1].state.alpha, 0.25)
    }

    func testATreeSampledThroughAnotherEngineShowsItsChanges() {
        let engine = AnimationEngine(), other = AnimationEngine()
        engine.samplingPlanMinimumViews = 0; other.samplingPlanMinimumViews = 0
        let root = View(engine: engine, frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let child = View(engine: engine, frame: Rect(x: 0, y: 0, width: 10, height: 10))
        root.addSubview(child)
        _ = engine.sampleTree(root)
        let planned = engine.samplingEpoch.value
        child.alpha = 0.5
        // The other engine's change count happens to stand where the tree's plan was made.
        other.samplingEpoch.value = planned
        XCTAssertEqual(other.sampleTree(root)[1].state.alpha, 0.5)
        XCTAssertEqual(engine.sampleTree(root)[1].state.alpha, 0.5)
    }

    func testAPlanKeepsNothingItsTreeLetGoOf() {
        let engine = AnimationEngine()
        engine.samplingPlanMinimumViews = 0   // plans for small trees too
        let root = View(engine: engine, frame: Rect(x: 0, y: 0, width: 100, height: 100))
        weak var removedView: View?
        weak var removedForm: SampledView.Storage?
        do {
            let snapshot = View(engine: engine, frame: Rect(x: 0, y: 0, width: 10, height: 10), name: "snapshot")
            snapshot.content = ViewContent(text: TextContent(string: "a large picture, say"))
            root.addSubview(snapshot)
            XCTAssertEqual(engine.sampleTree(root).count, 2)
            XCTAssertEqual(engine.sampleTree(root).count, 2)
            removedView = snapshot
            removedForm = snapshot.sampledStorage
            XCTAssertNotNil(removedForm)
            snapshot.removeFromSuperview()
        }
        // The root is not sampled again: its plan is out of date, and must not hold the view's form.
        XCTAssertNil(removedView)
        XCTAssertNil(removedForm)
    }

    func testALargeTreeGetsAPlanAndStillShowsItsChanges() {
        let engine = AnimationEngine()
        let root = View(engine: engine, frame: Rect(x: 0, y: 0, width: 320, height: 480))
        for i in 0..<engine.samplingPlanMinimumViews + 10 {
            root.addSubview(View(engine: engine, frame: Rect(x: Double(i % 30) * 10, y: Double(i / 30 % 40) * 10, width: 8, height: 8)))
        }
        engine.animate(AnimationParameters(duration: 1, options: linear)) { root.subviews[7].alpha = 0 }
        var t = 0.0
        check(engine, root, "a large still tree", time: &t) {}
        XCTAssertNotNil(root.samplingPlan, "enough views for a plan")
        check(engine, root, "a change in a large tree", time: &t) { root.subviews[300].alpha = 0.5 }
        XCTAssertNotNil(root.samplingPlan)
        check(engine, root, "a removal from a large tree", time: &t) { root.subviews[9].removeFromSuperview() }
        XCTAssertNotNil(root.samplingPlan)
    }
}
