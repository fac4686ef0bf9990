import XCTest
@testable import TransHostCore

/// Explicit and implicit layer animations frame by frame against Core Animation's closed forms
/// (CAMediaTiming's time mapping, the Bezier and spring curves worked independently here).
final class CoreAnimationTests: XCTestCase {
    /// Ease-in-out y at x = 0.25 (bisection on the Bernstein form, as AnimationEngineTests).
    private let easeInOutQuarter = 0.1291619310473198

    private func setUp(_ kind: LayerKind = .plain) -> (AnimationEngine, Layer) {
        let engine = AnimationEngine()
        let layer = Layer(engine: engine, kind: kind)
        return (engine, layer)
    }

    private func opacity(_ e: AnimationEngine, _ l: Layer, at t: Double) -> Double {
        e.advance(to: t)
        guard case .number(let x)? = LayerProperty.opacity.value(in: e.coreAnimation.presentation(of: l)) else { return .nan }
        return x
    }

    private func basic(_ key: String, from: Double, to: Double, duration: Double = 1) -> LayerAnimation {
        LayerAnimation(kind: .basic(from: .number(from), to: .number(to), by: nil), keyPath: key, duration: duration)
    }

    /// A cubic Bezier's y at x by bisection on the Bernstein form (independent of UnitBezier).
    private func bezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at x: Double) -> Double {
        func b(_ p1: Double, _ p2: Double, _ t: Double) -> Double { 3 * (1 - t) * (1 - t) * t * p1 + 3 * (1 - t) * t * t * p2 + t * t * t }
        var lo = 0.0, hi = 1.0
        for _ in 0..<200 { let m = (lo + hi) / 2; if b(x1, x2, m) < x { lo = m } else { hi = m } }
        return b(y1, y2, (lo + hi) / 2)
    }

    func testModelStaysAndPresentationFollowsTheBasicAnimation() {
        let (e, l) = setUp()
        e.coreAnimation.add(basic("opacity", from: 1, to: 0, duration: 2), forKey: "fade", to: .layer(l))
        for (t, want) in [(0.0, 1.0), (0.5, 0.75), (1.0, 0.5), (2.0, 0.0)] {
            XCTAssertEqual(opacity(e, l, at: t), want, accuracy: 1e-9, "t \(t)")
        }
        XCTAssertEqual(l.modelValue(.opacity), .number(1), "animating never changes the model")
        XCTAssertEqual(opacity(e, l, at: 2.001), 1, "removed on completion: the model value shows again")
        XCTAssertEqual(e.coreAnimation.keys(of: .layer(l)), [])
    }

    func testFillModeForwardsKeepsTheEndWhenNotRemoved() {
        let (e, l) = setUp()
        var a = basic("opacity", from: 1, to: 0.2)
        a.fillMode = .forwards
        a.isRemovedOnCompletion = false
        e.coreAnimation.add(a, forKey: "fade", to: .layer(l))
        XCTAssertEqual(opacity(e, l, at: 5), 0.2, accuracy: 1e-12)
        XCTAssertEqual(e.coreAnimation.keys(of: .layer(l)), ["fade"])
        var b = basic("opacity", from: 1, to: 0.2)
        b.isRemovedOnCompletion = false
        e.coreAnimation.add(b, forKey: "fade", to: .layer(l))
        XCTAssertEqual(opacity(e, l, at: 7), 1, accuracy: 1e-12, "kept but not filled: the model shows")
    }

    func testBeginTimeAndBackwardsFill() {
        let (e, l) = setUp()
        e.advance(to: 10)
        var a = basic("opacity", from: 0.5, to: 0)
        a.beginTime = e.now + 1           // CACurrentMediaTime() + 1
        e.coreAnimation.add(a, forKey: "late", to: .layer(l))
        XCTAssertEqual(opacity(e, l, at: 10.5), 1, "before its begin without backwards fill: the model")
        XCTAssertEqual(opacity(e, l, at: 11.5), 0.25, accuracy: 1e-9)
        var b = basic("opacity", from: 0.5, to: 0)
        b.beginTime = e.now + 1
        b.fillMode = .backwards
        e.coreAnimation.add(b, forKey: "late", to: .layer(l))
        XCTAssertEqual(opacity(e, l, at: 12), 0.5, accuracy: 1e-12, "backwards fill shows the start")
    }

    func testTimingFunctionShapesEachPass() {
        let (e, l) = setUp()
        var a = basic("opacity", from: 0, to: 1, duration: 4)
        a.timingFunction = .easeInEaseOut
        e.coreAnimation.add(a, forKey: nil, to: .layer(l))
        XCTAssertEqual(opacity(e, l, at: 1), easeInOutQuarter, accuracy: 1e-9)
        XCTAssertEqual(opacity(e, l, at: 3), 1 - easeInOutQuarter, accuracy: 1e-9)
    }

    func testAutoreverseAndRepeatCount() {
        let (e, l) = setUp()
        var a = basic("opacity", from: 0, to: 1, duration: 1)
        a.autoreverses = true
        a.repeatCount = 1.5
        a.fillMode = .forwards
        a.isRemovedOnCompletion = false
        e.coreAnimation.add(a, forKey: nil, to: .layer(l))
        // Active 1.5 x 2 s: up (0-1), down (1-2), up again to the middle (2-3).
        for (t, want) in [(0.25, 0.25), (1.25, 0.75), (1.75, 0.25), (2.25, 0.25), (3.0, 1.0), (4.0, 1.0)] {
            XCTAssertEqual(opacity(e, l, at: t), want, accuracy: 1e-9, "t \(t)")
        }
        let (e2, l2) = setUp()
        var b = basic("opacity", from: 0, to: 1, duration: 1)
        b.autoreverses = true
        b.repeatCount = 2
        b.fillMode = .forwards
        b.isRemovedOnCompletion = false
        e2.coreAnimation.add(b, forKey: nil, to: .layer(l2))
        XCTAssertEqual(opacity(e2, l2, at: 3.5), 0.5, accuracy: 1e-12)
        XCTAssertEqual(opacity(e2, l2, at: 4), 0, accuracy: 1e-12, "ends where a reversed pass ends: at the start value")
    }

    func testRepeatDurationAndSpeedAndTimeOffset() {
        let (e, l) = setUp()
        var a = basic("opacity", from: 0, to: 1, duration: 1)
        a.repeatDuration = 2.5
        e.coreAnimation.add(a, forKey: nil, to: .layer(l))
        XCTAssertEqual(opacity(e, l, at: 2.25), 0.25, accuracy: 1e-9)
        XCTAssertEqual(opacity(e, l, at: 2.5), 0.5, accuracy: 1e-9, "the end instant shows the end value")
        XCTAssertEqual(opacity(e, l, at: 2.6), 1, "then the model")

        let (e2, l2) = setUp()
        var b = basic("opacity", from: 0, to: 1, duration: 1)
        b.speed = 2
        var stoppedAt: Double?
        e2.coreAnimation.add(b, forKey: nil, to: .layer(l2), onStop: { _ in stoppedAt = e2.now })
        XCTAssertEqual(opacity(e2, l2, at: 0.25), 0.5, accuracy: 1e-9)
        e2.advance(to: 1)
        XCTAssertEqual(stoppedAt ?? -1, 0.5, accuracy: 1e-12, "twice as fast: over in half the time")

        let (e3, l3) = setUp()
        var c = basic("opacity", from: 0, to: 1, duration: 1)
        c.timeOffset = 0.5
        e3.coreAnimation.add(c, forKey: nil, to: .layer(l3))
        XCTAssertEqual(opacity(e3, l3, at: 0), 0.5, accuracy: 1e-9, "time offset: starts half way")
        XCTAssertEqual(opacity(e3, l3, at: 0.25), 0.75, accuracy: 1e-9)
        XCTAssertEqual(opacity(e3, l3, at: 0.75), 0.25, accuracy: 1e-9, "wraps to the start of the pass")
    }

    func testSpringAnimationsFollowTheClosedForms() {
        for (mass, k, c, v) in [(1.0, 100.0, 10.0, 0.0), (2.0, 200.0, 60.0, 0.0), (1.0, 100.0, 20.0, 3.0)] {
            let (e, l) = setUp()
            let spring = LayerAnimation.SpringParameters(mass: mass, stiffness: k, damping: c, initialVelocity: v)
            let a = LayerAnimation(kind: .spring(from: .number(0), to: .number(1), by: nil, spring: spring), keyPath: "opacity",
                                   duration: 3)
            e.coreAnimation.add(a, forKey: nil, to: .layer(l))
            let w0 = (k / mass).squareRoot(), zeta = c / (2 * (k * mass).squareRoot())
            for t in stride(from: 0.05, through: 1.0, by: 0.05) {
                let x: Double
                if zeta < 1 {
                    let wd = w0 * (1 - zeta * zeta).squareRoot()
                    x = exp(-zeta * w0 * t) * (cos(wd * t) + (zeta * w0 - v) / wd * sin(wd * t))
                } else if zeta == 1 {
                    x = (1 + (w0 - v) * t) * exp(-w0 * t)
                } else {
                    let b = zeta * w0, g = w0 * (zeta * zeta - 1).squareRoot()
                    x = (b + g - v) / (2 * g) * exp((g - b) * t) + (g - b + v) / (2 * g) * exp(-(b + g) * t)
                }
                // Opacity is clamped to [0, 1] on screen, as the under-damped spring overshoots.
                XCTAssertEqual(opacity(e, l, at: t), min(max(1 - x, 0), 1), accuracy: 1e-9, "m \(mass) k \(k) c \(c) t \(t)")
            }
        }
        let overDamped = LayerAnimation.SpringParameters(mass: 2, stiffness: 200, damping: 60)
        XCTAssertGreaterThan(overDamped.settlingDuration, 0.5)
        let s = overDamped.solver
        XCTAssertLessThan(abs(1 - s.progress(at: overDamped.settlingDuration)), 0.001)
        XCTAssertGreaterThanOrEqual(abs(1 - s.progress(at: overDamped.settlingDuration - 0.002)), 0.001)
    }

    func testKeyframeTimingPerSegment() {
        let (e, l) = setUp()
        let k = LayerAnimation.Keyframes(values: [.number(0), .number(0.4), .number(1)], keyTimes: [0, 0.25, 1],
                                         timingFunctions: [.easeIn, .easeOut])
        e.coreAnimation.add(LayerAnimation(kind: .keyframe(k), keyPath: "opacity", duration: 4), forKey: nil, to: .layer(l))
        // t 0.5: progress 0.125, half of segment 0 (ease-in); t 2.5: half of segment 1 (ease-out).
        XCTAssertEqual(opacity(e, l, at: 0.5), 0.4 * bezier(0.42, 0, 1, 1, at: 0.5), accuracy: 1e-9)
        XCTAssertEqual(opacity(e, l, at: 1), 0.4, accuracy: 1e-9)
        XCTAssertEqual(opacity(e, l, at: 2.5), 0.4 + 0.6 * bezier(0, 0, 0.58, 1, at: 0.5), accuracy: 1e-9)

        let (e2, l2) = setUp()
        let d = LayerAnimation.Keyframes(values: [.number(0.1), .number(0.6), .number(0.9)], mode: .discrete)
        e2.coreAnimation.add(LayerAnimation(kind: .keyframe(d), keyPath: "opacity", duration: 2), forKey: nil, to: .layer(l2))
        XCTAssertEqual(opacity(e2, l2, at: 0.9), 0.1)
        XCTAssertEqual(opacity(e2, l2, at: 1.1), 0.6)
    }

    func testPathKeyframesMoveAlongThePathAndTurnWithIt() {
        let (e, l) = setUp()
        var path = Path()
        path.move(to: .zero); path.addLine(to: Point(x: 100, y: 0)); path.addLine(to: Point(x: 100, y: 300))
        let k = LayerAnimation.Keyframes(mode: .paced, path: path, rotationMode: .auto)
        e.coreAnimation.add(LayerAnimation(kind: .keyframe(k), keyPath: "position", duration: 4), forKey: nil, to: .layer(l))
        e.advance(to: 2)   // half of 400 points: 100 along the second segment
        let s = e.coreAnimation.presentation(of: l)
        XCTAssertEqual(s.position.x, 100, accuracy: 1e-9)
        XCTAssertEqual(s.position.y, 100, accuracy: 1e-9)
        XCTAssertEqual(atan2(s.transform.m12, s.transform.m11), .pi / 2, accuracy: 1e-6, "turned down the path")
    }

    func testTransformSubPathAndPathMorph() {
        let (e, l) = setUp(.shape)
        let rot = LayerAnimation(kind: .basic(from: .number(0), to: .number(.pi), by: nil), keyPath: "transform.rotation.z", duration: 1)
        e.coreAnimation.add(rot, forKey: "spin", to: .layer(l))
        let small = Path.ellipse(in: Rect(x: 45, y: 45, width: 10, height: 10)), big = Path.ellipse(in: Rect(x: 0, y: 0, width: 100, height: 100))
        var morph = LayerAnimation(kind: .basic(from: .path(small), to: .path(big), by: nil), keyPath: "path", duration: 1)
        morph.timingFunction = .easeInEaseOut
        e.coreAnimation.add(morph, forKey: "grow", to: .layer(l))
        e.advance(to: 0.25)
        let s = e.coreAnimation.presentation(of: l)
        XCTAssertEqual(atan2(s.transform.m12, s.transform.m11), .pi / 4, accuracy: 1e-9)
        let w = 10 + 90 * easeInOutQuarter
        XCTAssertEqual(s.shape!.path!.pathBoundingBox.width, w, accuracy: 1e-9)
        XCTAssertNil(l.modelState.shape!.path, "the model path is still unset")
    }

    func testGroupRunsItsAnimationsInItsTime() {
        let (e, l) = setUp()
        let fade = basic("opacity", from: 0, to: 1, duration: 0.5)
        var late = LayerAnimation(kind: .basic(from: .number(0), to: .number(100), by: nil), keyPath: "position.x", duration: 0.5)
        late.beginTime = 0.5
        var g = LayerAnimation(kind: .group([fade, late]), keyPath: nil, duration: 1)
        g.speed = 0.5
        e.coreAnimation.add(g, forKey: nil, to: .layer(l))
        XCTAssertEqual(opacity(e, l, at: 0.5), 0.5, accuracy: 1e-9, "half speed: the child's 0.25 s at 0.5 s")
        e.advance(to: 1.5)
        XCTAssertEqual(e.coreAnimation.presentation(of: l).position.x, 50, accuracy: 1e-9)
        XCTAssertEqual(opacity(e, l, at: 1.5), 1, "the ended child without fill: the model")

        let (e2, l2) = setUp()
        let unset = LayerAnimation(kind: .basic(from: .number(0), to: .number(1), by: nil), keyPath: "opacity")
        var timed = LayerAnimation(kind: .group([unset]), keyPath: nil, duration: 2)
        timed.timingFunction = .easeInEaseOut
        e2.coreAnimation.add(timed, forKey: nil, to: .layer(l2))
        XCTAssertEqual(opacity(e2, l2, at: 0.5), easeInOutQuarter, accuracy: 1e-9,
                       "a member without a duration lasts the group's 2 s, on the group's timing")
    }

    func testDelegateAndTransactionCompletionTimes() {
        let (e, l) = setUp()
        e.advance(to: 1)
        var log: [String] = []
        let ca = e.coreAnimation
        ca.beginTransaction()
        ca.setCompletionBlock { log.append("tx \(e.now)") }
        var a = basic("opacity", from: 0, to: 1, duration: 2)
        a.beginTime = e.now + 0.5
        ca.add(a, forKey: "a", to: .layer(l), onStart: { log.append("start \(e.now)") }, onStop: { log.append("stop \($0) \(e.now)") })
        ca.commitTransaction()
        e.advance(to: 10)
        XCTAssertEqual(log, ["start 1.5", "stop true 3.5", "tx 3.5"])

        log.removeAll()
        ca.beginTransaction()
        ca.setCompletionBlock { log.append("tx \(e.now)") }
        ca.add(basic("opacity", from: 0, to: 1, duration: 2), forKey: "b", to: .layer(l), onStop: { log.append("stop \($0) \(e.now)") })
        ca.commitTransaction()
        e.advance(to: 11)
        ca.remove(key: "b", from: .layer(l))
        e.advance(to: 20)
        XCTAssertEqual(log, ["stop false 11.0", "tx 11.0"], "a removal stops it early, unfinished")

        log.removeAll()
        ca.beginTransaction()
        ca.setCompletionBlock { log.append("empty \(e.now)") }
        ca.commitTransaction()
        e.advance(to: 21)
        XCTAssertEqual(log, ["empty 20.0"], "no animations: the block runs on the next step")
    }

    func testImplicitAnimationsOfStandaloneLayers() {
        let (e, l) = setUp()
        let v = View(engine: e)
        l.setModelValue(.number(0.5), for: .opacity)
        v.addSublayer(l)
        l.setModelValue(.number(1), for: .opacity)
        XCTAssertEqual(opacity(e, l, at: 0), 1, "set up in the instant it joined the tree: no animation")
        e.advance(to: 1e-9)
        l.removeFromSuperlayer()
        l.setModelValue(.number(0.2), for: .opacity)
        XCTAssertEqual(opacity(e, l, at: 1e-9), 0.2, "not in a view's tree: no animation")
        l.setModelValue(.number(1), for: .opacity)
        v.addSublayer(l)
        e.advance(to: 2e-9)
        l.setModelValue(.number(0), for: .opacity)
        XCTAssertEqual(opacity(e, l, at: 0.125 + 2e-9), 1 - bezier(0.25, 0.1, 0.25, 1, at: 0.5), accuracy: 1e-9, "0.25 s, the default curve")
        XCTAssertEqual(opacity(e, l, at: 0.25 + 2e-9), 0)
        let ca = e.coreAnimation
        ca.beginTransaction()
        ca.animationDuration = 1
        ca.animationTimingFunction = .linear
        l.setModelValue(.number(1), for: .opacity)
        ca.commitTransaction()
        XCTAssertEqual(opacity(e, l, at: 0.75), 0.5, accuracy: 1e-8)
        // A running implicit animation heads for the current model value (it has no toValue).
        ca.disableActions = true
        l.setModelValue(.number(0.3), for: .opacity)
        XCTAssertEqual(opacity(e, l, at: 1.0), 0.3 * 0.75, accuracy: 1e-8)
        e.advance(to: 2)
        ca.beginTransaction()
        ca.disableActions = true
        l.setModelValue(.number(0.7), for: .opacity)
        ca.commitTransaction()
        XCTAssertEqual(opacity(e, l, at: 2), 0.7, "actions disabled: at once")
    }

    func testViewLayerAnimationsShowInItsPresentationOnly() {
        let e = AnimationEngine()
        let v = View(engine: e, frame: Rect(x: 0, y: 0, width: 10, height: 10))
        e.coreAnimation.add(basic("opacity", from: 1, to: 0), forKey: nil, to: .view(v))
        e.coreAnimation.add(LayerAnimation(kind: .basic(from: nil, to: .number(0.8), by: nil), keyPath: "shadowOpacity", duration: 1),
                            forKey: nil, to: .view(v))
        v.layerStyle.shadow.radius = 4
        e.advance(to: 0.5)
        XCTAssertEqual(e.presentation(of: v).alpha, 0.5, accuracy: 1e-9)
        XCTAssertEqual(v.alpha, 1)
        XCTAssertEqual(e.sampleTree(v)[0].layers?.style.shadow.opacity ?? -1, 0.4, accuracy: 1e-9)
        v.alpha = 0.2
        XCTAssertEqual(e.presentation(of: v).alpha, 0.5, accuracy: 1e-9, "a view's own layer has no implicit animation; the explicit one covers the model")
        e.advance(to: 2)
        XCTAssertEqual(e.presentation(of: v).alpha, 0.2)
    }

    func testRemovingAViewsAnimationsStopsItsLayerAnimationsUnfinished() {
        let e = AnimationEngine()
        let v = View(engine: e)
        var heard: [Bool] = []
        e.coreAnimation.add(basic("opacity", from: 0, to: 1), forKey: "fade", to: .view(v), onStop: { heard.append($0) })
        e.advance(to: 0.5)
        e.removeAllAnimations(of: v)
        XCTAssertEqual(e.presentation(of: v).alpha, 1, "the model shows at once")
        e.advance(to: 0.6)
        XCTAssertEqual(heard, [false])
    }

    func testReversedTimelineStopsLayerAnimationsAtTheirStart() {
        let e = AnimationEngine()
        let l = Layer(engine: e)
        let tl = AnimationTimeline(name: "transition", startingAt: 0)
        var stops: [(Bool, Double)] = []
        _ = e.withTimeline(tl) {
            e.coreAnimation.add(basic("opacity", from: 0, to: 1, duration: 1), forKey: nil, to: .layer(l),
                                onStop: { stops.append(($0, e.now)) })
        }
        tl.pause(now: 0)
        tl.setLocalTime(0.6, now: 0)
        XCTAssertEqual(opacity(e, l, at: 5), 0.6, accuracy: 1e-9, "a paused timeline holds the scrubbed value")
        tl.setSpeed(-1, now: e.now)
        XCTAssertEqual(opacity(e, l, at: 5.3), 0.3, accuracy: 1e-9, "cancelling runs it back")
        e.advance(to: 7)
        XCTAssertEqual(stops.count, 1)
        XCTAssertEqual(stops.first?.1 ?? -1, 5.6, accuracy: 1e-9, "stops when time is back at its start")
        XCTAssertEqual(opacity(e, l, at: 7), 1, "removed: the model value")
    }
}
