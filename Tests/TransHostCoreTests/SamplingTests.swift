import XCTest
@testable import TransHostCore

/// The sampled tree (what traces record and renderers draw) shows each view as it is at the
/// sampled instant, although the engine reuses a view's sampled form between frames and writes
/// animated values straight into the presentation state.
final class SamplingTests: XCTestCase {
    private let linear = UInt32(3) << 16

    func testASampleShowsRenamesAndNewContentWhileEarlierSamplesKeepTheOld() {
        let engine = AnimationEngine()
        let root = View(engine: engine, frame: Rect(x: 0, y: 0, width: 100, height: 100), name: "root")
        let child = View(engine: engine, frame: Rect(x: 0, y: 0, width: 10, height: 10), name: "before")
        root.addSubview(child)
        let first = engine.sampleTree(root)
        let again = engine.sampleTree(root)
        XCTAssertEqual(first, again, "an unchanged view samples the same")
        child.name = "after"
        child.content = ViewContent(text: TextContent(string: "hello"))
        let second = engine.sampleTree(root)
        XCTAssertEqual(first[1].view.name, "before")
        XCTAssertNil(first[1].view.content.text)
        XCTAssertEqual(second[1].view.name, "after")
        XCTAssertEqual(second[1].view.content.text?.string, "hello")
        XCTAssertGreaterThan(second[1].view.contentVersion, first[1].view.contentVersion)
        child.clipsToBounds = true
        XCTAssertTrue(engine.sampleTree(root)[1].view.clipsToBounds)
        XCTAssertFalse(second[1].view.clipsToBounds)
        XCTAssertNotEqual(first[1].view, second[1].view)
    }

    func testSampledValuesEqualEachPropertysAnimatedValueClampedAsTheScreenShowsIt() {
        let engine = AnimationEngine()
        let v = View(engine: engine, frame: Rect(x: 0, y: 0, width: 100, height: 50))
        v.backgroundColor = Color(red: 1, green: 0, blue: 0, alpha: 1)
        v.alpha = 0
        v.cornerRadius = 4
        // A spring that overshoots alpha and the radius, linear geometry and colour, and keyframed
        // 3D transforms (decomposed per segment).
        engine.animate(AnimationParameters(duration: 1, curve: .spring(dampingRatio: 0.3, initialVelocity: 8))) {
            v.alpha = 1
            v.cornerRadius = 0
        }
        engine.animate(AnimationParameters(duration: 1, options: linear)) {
            v.bounds = Rect(x: 0, y: 0, width: 200, height: 80)
            v.position = Point(x: 120, y: 40)
            v.anchorPoint = Point(x: 0, y: 1)
            v.backgroundColor = nil
        }
        engine.animateKeyframes(AnimationParameters(duration: 1), mode: .linear, animations: {
            engine.addKeyframe(relativeStart: 0, relativeDuration: 0.5) {
                var t = Transform3D.identity
                t.m34 = -1.0 / 500
                v.transform3D = t.rotated(1.2, 0, 1, 0)
            }
            engine.addKeyframe(relativeStart: 0.5, relativeDuration: 0.5) { v.transform3D = Transform3D.identity.rotated(0.4, 0, 0, 1) }
        })
        var sawOvershoot = false, sawUndershoot = false
        for k in 0...40 {
            engine.advance(to: Double(k) / 40)
            let state = engine.presentation(of: v)
            for p in AnimatableProperty.allCases {
                var expected = engine.presentationValue(v, p)
                if p == .alpha { expected[0] = min(max(expected[0], 0), 1) }
                if p == .cornerRadius { expected[0] = max(expected[0], 0) }
                XCTAssertEqual(state[p], expected, "\(p) at frame \(k)")
            }
            if engine.presentationValue(v, .alpha)[0] > 1 { sawOvershoot = true; XCTAssertEqual(state.alpha, 1) }
            if engine.presentationValue(v, .cornerRadius)[0] < 0 { sawUndershoot = true; XCTAssertEqual(state.cornerRadius, 0) }
        }
        XCTAssertTrue(sawOvershoot && sawUndershoot, "the spring leaves [0, 1] and goes below radius 0, so both clamps were exercised")
        XCTAssertEqual(engine.presentation(of: v).transform, Transform3D.identity.rotated(0.4, 0, 0, 1))
    }

    /// Keyframed values of every width in each calculation mode, and a transform whose second
    /// segment holds still, show the keyframe track's value at every frame, whether the view is
    /// sampled alone or through a tree's plan (which reads the animations ahead).
    func testKeyframedValuesInEveryModeEqualTheTracksValueAlsoThroughAPlan() {
        for mode in KeyframeCalculationMode.allCases {
            let engine = AnimationEngine()
            engine.samplingPlanMinimumViews = 0   // plans for small trees too
            let root = View(engine: engine, frame: Rect(x: 0, y: 0, width: 320, height: 480))
            let v = View(engine: engine, frame: Rect(x: 0, y: 0, width: 100, height: 50))
            root.addSubview(v)
            v.backgroundColor = Color(red: 1, green: 0, blue: 0, alpha: 1)
            let turned = Transform3D.identity.rotated(0.9, 0, 1, 0)
            engine.animateKeyframes(AnimationParameters(duration: 1), mode: mode, animations: {
                engine.addKeyframe(relativeStart: 0, relativeDuration: 0.3) {
                    v.alpha = 0.2
                    v.bounds = Rect(x: 0, y: 0, width: 160, height: 90)
                    v.transform3D = turned
                }
                engine.addKeyframe(relativeStart: 0.3, relativeDuration: 0.4) {
                    v.position = Point(x: 200, y: 300)
                    v.backgroundColor = Color(red: 0, green: 0.5, blue: 1, alpha: 0.5)
                    v.cornerRadius = 12
                }
                engine.addKeyframe(relativeStart: 0.7, relativeDuration: 0.3) { v.alpha = 0.9 }
            })
            for k in 0...30 {
                engine.advance(to: Double(k) / 30)
                let alone = engine.presentation(of: v)
                let inTree = engine.sampleTree(root)[1].state
                for p in AnimatableProperty.allCases {
                    var expected = engine.presentationValue(v, p)
                    if p == .alpha { expected[0] = min(max(expected[0], 0), 1) }
                    if p == .cornerRadius { expected[0] = max(expected[0], 0) }
                    XCTAssertEqual(alone[p], expected, "\(mode): \(p) at frame \(k)")
                    XCTAssertEqual(inTree[p], expected, "\(mode): \(p) at frame \(k), through a plan")
                }
            }
            XCTAssertEqual(engine.presentation(of: v).transform, turned, "\(mode): the held transform at the end")
            XCTAssertEqual(engine.presentation(of: v).alpha, 0.9, "\(mode)")
        }
    }
}
