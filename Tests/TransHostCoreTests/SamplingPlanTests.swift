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

    /// Every number of every node, bit for bit (== would take -0 for 0).
    private func bits(_ nodes: [PresentationNode]) -> [[UInt64]] {
        nodes.map { n in
            let s = n.state
            var out = [s.bounds.origin.x, s.bounds.origin.y, s.bounds.size.width, s.bounds.size.height, s.position.x, s.position.y,
                       s.anchorPoint.x, s.anchorPoint.y, s.alpha, s.cornerRadius].map(\.bitPattern)
            out += s.transform.values.map(\.bitPattern)
            if let c = s.backgroundColor { out += [c.red, c.green, c.blue, c.alpha].map(\.bitPattern) } else { out.append(1) }
            return out
        }
    }

    /// A plan keeps its own copy of each animation's constants; whatever kind of animation it is,
    /// every frame (before a delayed start, on the way, at the exact end) has the bits the
    /// animation gives itself.
    func testEveryKindOfAnimationShowsTheBitsItGivesItself() {
        let engine = AnimationEngine()
        engine.samplingPlanMinimumViews = 0
        let root = View(engine: engine, frame: Rect(x: 0, y: 0, width: 320, height: 480))
        let views = (0..<10).map { i in View(engine: engine, frame: Rect(x: Double(i) * 30, y: 10, width: 20, height: 20), name: "\(i)") }
        for v in views { root.addSubview(v) }
        views[0].backgroundColor = Color(red: 1, green: 0, blue: 0, alpha: 1)
        engine.animate(AnimationParameters(duration: 1)) {
            views[0].frame = Rect(x: 40, y: 90, width: 60, height: 10)
            views[0].anchorPoint = Point(x: 0, y: 1)
            views[0].backgroundColor = nil
            views[0].alpha = 0.3
        }
        engine.animate(AnimationParameters(duration: 0.8, delay: 0.2, curve: .spring(dampingRatio: 0.3, initialVelocity: 4))) {
            views[1].transform = AffineTransform(rotationAngle: 2.5)
            views[1].cornerRadius = 6
        }
        // Not decomposable (a zero scale): the component-wise blend.
        engine.animate(AnimationParameters(duration: 1)) { views[2].transform3D = Transform3D(AffineTransform(a: 0, b: 0, c: 0, d: 0, tx: 5, ty: 0)) }
        for (i, mode) in KeyframeCalculationMode.allCases.enumerated() {
            let v = views[3 + i]
            engine.animateKeyframes(AnimationParameters(duration: 1), mode: mode, animations: {
                engine.addKeyframe(relativeStart: 0, relativeDuration: 0.4) {
                    var t = Transform3D.identity
                    t.m34 = -1.0 / 500
                    v.transform3D = t.rotated(70, 0, 1, 0)
                    v.position = Point(x: v.position.x, y: 200)
                }
                // Held until 0.6: a segment between two equal transforms.
                engine.addKeyframe(relativeStart: 0.6, relativeDuration: 0.4) {
                    v.alpha = 0.1
                    v.transform3D = Transform3D(AffineTransform(scaleX: 2, y: 0.5))
                }
            })
        }
        let animator = PropertyAnimator(engine: engine, duration: 1, timing: .spring(dampingRatio: 0.4, initialVelocity: 0))
        animator.addAnimations { views[8].position = Point(x: 300, y: 400); views[8].transform = AffineTransform(rotationAngle: 1) }
        animator.startAnimation()
        let timeline = AnimationTimeline(name: "scrubbed", startingAt: 0)
        engine.withTimeline(timeline) {
            engine.animate(AnimationParameters(duration: 1)) { views[9].transform = AffineTransform(rotationAngle: -1); views[9].alpha = 0 }
        }
        var sampledWithPlans = 0
        for k in 0...70 {
            let t = Double(k) / 60
            engine.advance(to: t)
            if k == 30 { timeline.pause(now: t) }
            if k > 30 && k < 40 { timeline.setLocalTime(Double(k - 30) / 10, now: t) }
            if k == 40 { timeline.setSpeed(-1, now: t) }
            let sampled = engine.sampleTree(root)
            if root.samplingPlan != nil { sampledWithPlans += 1 }
            let got = bits(sampled), want = bits(expected(engine, root))
            let differing = want.indices.filter { $0 >= got.count || got[$0] != want[$0] }.map { sampled[$0].view.name }
            XCTAssertEqual(differing, [], "views whose numbers differ at t = \(k)/60")
        }
        XCTAssertGreaterThan(sampledWithPlans, 50, "the frames were sampled from plans")
    }

    /// A tree's first frame has no size to go by: it is planned when the engine has enough views
    /// alive for it to be large (and shows the tree as it is), and walked when it has not.
    func testATreesFirstFrameIsPlannedWhenTheEngineHasEnoughViewsAlive() {
        let engine = AnimationEngine()
        engine.samplingPlanMinimumViews = 40
        let root = View(engine: engine, frame: Rect(x: 0, y: 0, width: 320, height: 480))
        for i in 0..<30 { root.addSubview(View(engine: engine, frame: Rect(x: Double(i), y: 0, width: 8, height: 8))) }
        do {
            let others = (0..<20).map { _ in View(engine: engine) }   // alive, in no tree of this root
            engine.animate(AnimationParameters(duration: 1, options: linear)) { root.subviews[3].alpha = 0 }
            engine.advance(to: 0.25)
            XCTAssertEqual(engine.sampleTree(root), expected(engine, root))
            XCTAssertNotNil(root.samplingPlan, "51 views alive: the first frame is planned")
            XCTAssertEqual(others.count, 20)
        }
        let small = View(engine: engine, frame: Rect(x: 0, y: 0, width: 10, height: 10))
        small.addSubview(View(engine: engine))
        XCTAssertEqual(engine.sampleTree(small), expected(engine, small))
        XCTAssertNil(small.samplingPlan, "33 views alive once the others are gone: walked")
    }
}
