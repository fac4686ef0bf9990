import XCTest
@testable import TransHostCore

/// Engine behaviour against UIKit's rules (see AnimationEngine's documentation) with values
/// worked by hand; curve values are independently solved Bezier values (see UnitBezierTests).
final class AnimationEngineTests: XCTestCase {
    private let linear = UInt32(3) << 16
    /// Ease-in-out y at x = 0.25 and 0.75 (bisection on the Bernstein form).
    private let easeInOutQuarter = 0.1291619310473198
    private let easeInOutThreeQuarters = 0.8708380689526802

    private func frame100() -> Rect { Rect(x: 0, y: 0, width: 100, height: 100) }

    func testLinearAlphaAnimation() {
        let engine = AnimationEngine()
        let v = View(engine: engine, frame: frame100())
        engine.animate(AnimationParameters(duration: 2, options: linear), animations: { v.alpha = 0 })
        XCTAssertEqual(v.alpha, 0, "the model value changes at once")
        XCTAssertEqual(engine.presentation(of: v).alpha, 1)
        for (t, expected) in [(0.5, 0.75), (1.0, 0.5), (1.5, 0.25), (2.0, 0.0), (3.0, 0.0)] {
            engine.advance(to: t)
            XCTAssertEqual(engine.presentation(of: v).alpha, expected, accuracy: 1e-9, "t \(t)")
        }
    }

    func testDelayFillsBackwards() {
        let engine = AnimationEngine()
        let v = View(engine: engine, frame: frame100())
        engine.animate(AnimationParameters(duration: 1, delay: 0.5, options: linear), animations: { v.position = Point(x: 150, y: 50) })
        engine.advance(to: 0.25)
        XCTAssertEqual(engine.presentation(of: v).position, Point(x: 50, y: 50), "the start value shows during the delay")
        engine.advance(to: 1.0)
        XCTAssertEqual(engine.presentation(of: v).position.x, 100, accuracy: 1e-9)
        engine.advance(to: 1.5)
        XCTAssertEqual(engine.presentation(of: v).position.x, 150, accuracy: 1e-9)
    }

    func testEaseInOutIsTheDefaultCurve() {
        let engine = AnimationEngine()
        let v = View(engine: engine, frame: frame100())
        engine.animate(AnimationParameters(duration: 0.4), animations: { v.position = Point(x: 150, y: 50) })
        engine.advance(to: 0.1)   // u = 0.25
        XCTAssertEqual(engine.presentation(of: v).position.x, 50 + 100 * easeInOutQuarter, accuracy: 1e-9)
        engine.advance(to: 0.2)   // u = 0.5: the symmetric curve's midpoint
        XCTAssertEqual(engine.presentation(of: v).position.x, 100, accuracy: 1e-9)
        engine.advance(to: 0.3)
        XCTAssertEqual(engine.presentation(of: v).position.x, 50 + 100 * easeInOutThreeQuarters, accuracy: 1e-9)
    }

    func testNestedBlocksInheritDurationUnlessOverridden() {
        let engine = AnimationEngine()
        let a = View(engine: engine, frame: frame100()), b = View(engine: engine, frame: frame100())
        engine.animate(AnimationParameters(duration: 1, options: linear), animations: {
            engine.animate(AnimationParameters(duration: 0.2), animations: { a.alpha = 0 })   // inherits 1 s, linear
            engine.animate(AnimationParameters(duration: 0.2, options: AnimationParameters.overrideInheritedDuration),
                           animations: { b.alpha = 0 })   // 0.2 s, still the inherited linear curve
        })
        engine.advance(to: 0.1)
        XCTAssertEqual(engine.presentation(of: a).alpha, 0.9, accuracy: 1e-9)
        XCTAssertEqual(engine.presentation(of: b).alpha, 0.5, accuracy: 1e-9)
        engine.advance(to: 0.5)
        XCTAssertEqual(engine.presentation(of: a).alpha, 0.5, accuracy: 1e-9)
        XCTAssertEqual(engine.presentation(of: b).alpha, 0, accuracy: 1e-9)
    }

    func testReanimatingStartsFromPresentationAndCancelsTheOldBlock() {
        let engine = AnimationEngine()
        let v = View(engine: engine, frame: frame100())
        var results: [String] = []
        engine.animate(AnimationParameters(duration: 1, options: linear), animations: { v.position = Point(x: 150, y: 50) },
                       completion: { results.append("first \($0)") })
        engine.advance(to: 0.5)
        XCTAssertEqual(engine.presentation(of: v).position.x, 100, accuracy: 1e-9)
        engine.animate(AnimationParameters(duration: 1, options: linear), animations: { v.position = Point(x: 250, y: 50) },
                       completion: { results.append("second \($0)") })
        XCTAssertEqual(engine.presentation(of: v).position.x, 100, accuracy: 1e-9, "no jump")
        engine.advance(to: 1.0)
        XCTAssertEqual(results, ["first false"])
        XCTAssertEqual(engine.presentation(of: v).position.x, 175, accuracy: 1e-9)   // 100 + 150 x 0.5
        engine.advance(to: 2.0)
        engine.settle()
        XCTAssertEqual(results, ["first false", "second true"])
    }

    func testReanimatingToTheValueOnScreenStopsTheOldAnimation() {
        let engine = AnimationEngine()
        let v = View(engine: engine, frame: frame100())
        var results: [Bool] = []
        engine.animate(AnimationParameters(duration: 1, options: linear), animations: { v.position = Point(x: 150, y: 50) },
                       completion: { results.append($0) })
        engine.advance(to: 0.5)
        // The view is at 100 on screen; animating it to 100 leaves nothing to animate, and the
        // old animation (towards 150) must not carry on past the new model value.
        engine.animate(AnimationParameters(duration: 1, options: linear), animations: { v.position = Point(x: 100, y: 50) })
        engine.advance(to: 0.75)
        XCTAssertEqual(engine.presentation(of: v).position.x, 100, accuracy: 1e-9)
        XCTAssertEqual(results, [false])
    }

    func testCompletionOrderIsStopTimeThenCreation() {
        let engine = AnimationEngine()
        let views = (0..<4).map { _ in View(engine: engine, frame: Rect(x: 0, y: 0, width: 10, height: 10)) }
        var order: [String] = []
        engine.animate(AnimationParameters(duration: 1), animations: { views[0].alpha = 0 }, completion: { _ in order.append("A") })
        engine.animate(AnimationParameters(duration: 0.5), animations: { views[1].alpha = 0 }, completion: { _ in order.append("B") })
        engine.animate(AnimationParameters(duration: 1), animations: { views[2].alpha = 0 }, completion: { _ in order.append("C") })
        engine.animate(AnimationParameters(duration: 0.25, delay: 0.75), animations: { views[3].alpha = 0 }, completion: { _ in order.append("D") })
        engine.advance(to: 0.75)
        XCTAssertEqual(order, ["B"])
        engine.advance(to: 5)
        XCTAssertEqual(order, ["B", "A", "C", "D"], "A, C and D all stop at 1: creation order")
    }

    func testBlockThatChangesNothingCompletesOnNextAdvance() {
        let engine = AnimationEngine()
        let v = View(engine: engine, frame: frame100())
        var results: [Bool] = []
        engine.animate(AnimationParameters(duration: 1), animations: {}, completion: { results.append($0) })
        engine.animate(AnimationParameters(duration: 1), animations: { v.alpha = 1 }, completion: { results.append($0) })   // same value
        XCTAssertEqual(results, [], "not synchronously")
        engine.advance(to: 0.01)
        XCTAssertEqual(results, [true, true])
        XCTAssertTrue(engine.isIdle)
    }

    /// A busy scene: springs, delays, a keyframe block and a completion that chains a new animation.
    private func busyScene(_ engine: AnimationEngine) -> [View] {
        let a = View(engine: engine, frame: frame100()), b = View(engine: engine, frame: frame100())
        let c = View(engine: engine, frame: frame100())
        engine.animate(AnimationParameters(duration: 0.5, curve: .spring(dampingRatio: 0.4, initialVelocity: 2)),
                       animations: { a.position = Point(x: 300, y: 10); a.transform3D = .rotation(1, 0, 1, 0) })
        engine.animate(AnimationParameters(duration: 0.3, delay: 0.1), animations: { b.alpha = 0.2 }, completion: { _ in
            engine.animate(AnimationParameters(duration: 0.4), animations: { b.bounds = Rect(x: 0, y: 0, width: 30, height: 70) })
        })
        engine.animateKeyframes(AnimationParameters(duration: 0.9), mode: .cubic, animations: {
            engine.addKeyframe(relativeStart: 0, relativeDuration: 0.3) { c.position = Point(x: 10, y: 90) }
            engine.addKeyframe(relativeStart: 0.3, relativeDuration: 0.7) { c.position = Point(x: 200, y: 0) }
        })
        return [a, b, c]
    }

    func testSamplingDoesNotDependOnStepping() {
        let one = AnimationEngine(), many = AnimationEngine()
        let va = busyScene(one), vb = busyScene(many)
        one.advance(to: 0.8)
        for i in 1...37 { many.advance(to: i == 37 ? 0.8 : Double(i) * 0.8 / 37) }
        for (x, y) in zip(va, vb) { XCTAssertEqual(one.presentation(of: x), many.presentation(of: y)) }
        one.advance(to: 2)
        for i in 1...37 { many.advance(to: 0.8 + Double(i) * 1.2 / 37) }
        many.advance(to: 2)
        for (x, y) in zip(va, vb) { XCTAssertEqual(one.presentation(of: x), many.presentation(of: y)) }
    }

    func testKeyframesReproduceTheSeed000Timeline() {
        let engine = AnimationEngine()
        let first = View(engine: engine, frame: frame100()), second = View(engine: engine, frame: frame100())
        var finished: Bool?
        engine.animateKeyframes(AnimationParameters(duration: 1), mode: .linear, animations: {
            engine.addKeyframe(relativeStart: 0, relativeDuration: 0.5) { first.alpha = 0 }
            engine.addKeyframe(relativeStart: 0.5, relativeDuration: 0.5) { second.position = Point(x: 150, y: 50) }
        }, completion: { finished = $0 })
        // The whole animation eases in and out: at t the keyframe progress is easeInOut(t).
        engine.advance(to: 0.25)
        XCTAssertEqual(engine.presentation(of: first).alpha, 1 - easeInOutQuarter / 0.5, accuracy: 1e-9)
        XCTAssertEqual(engine.presentation(of: second).position.x, 50, "holds its start value until 0.5")
        engine.advance(to: 0.5)
        XCTAssertEqual(engine.presentation(of: first).alpha, 0, accuracy: 1e-9)
        XCTAssertEqual(engine.presentation(of: second).position.x, 50, accuracy: 1e-9)
        engine.advance(to: 0.75)
        XCTAssertEqual(engine.presentation(of: first).alpha, 0, "held after 0.5")
        XCTAssertEqual(engine.presentation(of: second).position.x, 50 + 100 * (easeInOutThreeQuarters - 0.5) / 0.5, accuracy: 1e-9)
        engine.advance(to: 1.0)
        XCTAssertEqual(engine.presentation(of: second).position.x, 150, accuracy: 1e-9)
        engine.advance(to: 1.1)
        XCTAssertEqual(finished, true)
        XCTAssertEqual(engine.presentation(of: first).alpha, 0)
    }

    func testKeyframeCurveBitsReplaceEaseInOut() {
        let engine = AnimationEngine()
        let v = View(engine: engine, frame: frame100())
        engine.animateKeyframes(AnimationParameters(duration: 1, options: linear), mode: .linear, animations: {
            engine.addKeyframe(relativeStart: 0, relativeDuration: 0.5) { v.alpha = 0 }
        })
        engine.advance(to: 0.25)
        XCTAssertEqual(engine.presentation(of: v).alpha, 0.5, accuracy: 1e-9)
    }

    func testSpringPresentationMatchesSpringSolver() {
        let engine = AnimationEngine()
        let v = View(engine: engine, frame: frame100())
        engine.animate(AnimationParameters(duration: 0.5, curve: .spring(dampingRatio: 0.7, initialVelocity: 0)),
                       animations: { v.position = Point(x: 150, y: 50) })
        let solver = SpringSolver(dampingRatio: 0.7, duration: 0.5, initialVelocity: 0)
        for t in [0.05, 0.1, 0.2, 0.35, 0.45] {
            engine.advance(to: t)
            XCTAssertEqual(engine.presentation(of: v).position.x, 50 + 100 * solver.progress(at: t), accuracy: 1e-9, "t \(t)")
        }
        engine.advance(to: 0.5)
        XCTAssertEqual(engine.presentation(of: v).position.x, 150, accuracy: 1e-9)
        // An under-damped spring overshoots: zeta 0.25 over 3 s peaks past the target.
        let w = View(engine: engine, frame: frame100())
        engine.animate(AnimationParameters(duration: 3, curve: .spring(dampingRatio: 0.25, initialVelocity: 0)),
                       animations: { w.position = Point(x: 150, y: 50) })
        // k 54.83363359078326, c 3.702486785620688 (docs/animation.md): first peak at wd t = pi.
        let w0 = 54.83363359078326.squareRoot(), zeta = 3.702486785620688 / (2 * w0)
        let tPeak = Double.pi / (w0 * (1 - zeta * zeta).squareRoot())
        engine.advance(to: 0.5 + tPeak)
        XCTAssertGreaterThan(engine.presentation(of: w).position.x, 150)
    }

    func testSnapshotIsIndependentOfItsSource() {
        let engine = AnimationEngine()
        let v = View(engine: engine, frame: Rect(x: 20, y: 30, width: 200, height: 100), name: "card")
        v.backgroundColor = .white
        let child = View(engine: engine, frame: Rect(x: 10, y: 10, width: 50, height: 50))
        v.addSubview(child)
        let snap = v.snapshotView(afterScreenUpdates: true)
        XCTAssertTrue(snap.isSnapshot)
        XCTAssertEqual(snap.frame, Rect(x: 0, y: 0, width: 200, height: 100))
        XCTAssertEqual(snap.subviews.count, 1)
        // Change the source after the snapshot.
        v.backgroundColor = .black
        child.position = Point(x: 500, y: 500)
        child.alpha = 0.3
        v.addSubview(View(engine: engine, frame: frame100()))
        v.bounds = Rect(x: 0, y: 0, width: 10, height: 10)
        XCTAssertEqual(snap.backgroundColor, .white)
        XCTAssertEqual(snap.subviews.count, 1)
        XCTAssertEqual(snap.subviews[0].position, Point(x: 35, y: 35))
        XCTAssertEqual(snap.subviews[0].alpha, 1)
        XCTAssertEqual(snap.bounds.size, Size(width: 200, height: 100))
        XCTAssertFalse(snap.subviews[0] === child)
    }

    func testSnapshotBeforeScreenUpdatesCapturesPresentation() {
        let engine = AnimationEngine()
        let v = View(engine: engine, frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let child = View(engine: engine, frame: Rect(x: 0, y: 0, width: 50, height: 50))
        v.addSubview(child)
        engine.animate(AnimationParameters(duration: 1, options: linear), animations: {
            child.alpha = 0
            child.position = Point(x: 125, y: 25)
        })
        engine.advance(to: 0.5)
        let before = v.snapshotView(afterScreenUpdates: false)
        let after = v.snapshotView(afterScreenUpdates: true)
        XCTAssertEqual(before.subviews[0].alpha, 0.5, accuracy: 1e-9)
        XCTAssertEqual(before.subviews[0].position.x, 75, accuracy: 1e-9)
        XCTAssertEqual(after.subviews[0].alpha, 0)
        XCTAssertEqual(after.subviews[0].position.x, 125)
        // The snapshot does not animate on.
        engine.advance(to: 2)
        XCTAssertEqual(engine.presentation(of: before.subviews[0]).alpha, 0.5, accuracy: 1e-9)
        XCTAssertEqual(engine.presentation(of: before.subviews[0]).position.x, 75, accuracy: 1e-9)
    }

    func testResizableSnapshotCrops() {
        let engine = AnimationEngine()
        let v = View(engine: engine, frame: Rect(x: 0, y: 0, width: 200, height: 100))
        let insets = EdgeInsets(top: 1, left: 2, bottom: 3, right: 4)
        let crop = v.resizableSnapshotView(from: Rect(x: 50, y: 20, width: 80, height: 40), afterScreenUpdates: true, withCapInsets: insets)
        XCTAssertEqual(crop.bounds.size, Size(width: 80, height: 40))
        XCTAssertEqual(crop.frame, Rect(x: 0, y: 0, width: 80, height: 40))
        XCTAssertTrue(crop.clipsToBounds)
        XCTAssertTrue(crop.isSnapshot)
        XCTAssertEqual(crop.capInsets, insets)
        XCTAssertEqual(crop.subviews.count, 1)
        let inner = crop.subviews[0]
        XCTAssertEqual(inner.frame, Rect(x: -50, y: -20, width: 200, height: 100))
    }

    func testNonFiniteValuesAreRejectedWithAWarning() {
        let engine = AnimationEngine()
        var warnings: [String] = []
        engine.warningHandler = { warnings.append($0) }
        let v = View(engine: engine, frame: frame100())
        v.alpha = .nan
        XCTAssertEqual(warnings.count, 1)
        v.alpha = .infinity
        XCTAssertEqual(warnings.count, 2, "an infinite alpha is rejected, not clamped silently")
        XCTAssertEqual(v.alpha, 1)
        v.alpha = -.infinity
        v.cornerRadius = -.infinity
        XCTAssertEqual(warnings.count, 4)
        XCTAssertEqual(v.alpha, 1)
        XCTAssertEqual(v.cornerRadius, 0)
        warnings.removeFirst(2)
        var bad = Transform3D.identity
        bad.m34 = .nan
        engine.animate(AnimationParameters(duration: 1), animations: {
            v.position = Point(x: .infinity, y: 0)
            v.transform3D = bad
            v.bounds = Rect(x: 0, y: 0, width: .nan, height: 1)
            v.cornerRadius = .infinity
        })
        XCTAssertEqual(warnings.count, 6)
        XCTAssertFalse(engine.isAnimating(v, .position))
        engine.animate(AnimationParameters(duration: .nan, delay: -.infinity), animations: { v.alpha = 0.5 })
        XCTAssertEqual(warnings.count, 8, "the duration and the delay")
        for t in [0.0, 0.5, 1] {
            engine.advance(to: t)
            let p = engine.presentation(of: v)
            XCTAssertTrue(p.transform.isFinite && p.position.isFinite && p.bounds.isFinite && p.alpha.isFinite && p.cornerRadius.isFinite)
        }
        XCTAssertEqual(engine.presentation(of: v).alpha, 0.5)
        XCTAssertEqual(engine.presentation(of: v).position, Point(x: 50, y: 50))
    }

    /// A block that begins at an arbitrary time ends exactly on its final value, although
    /// (5.0 + 1.3) - 5.0 rounds below 1.3 (corner-fly's present spring, begun at t = 5 s).
    func testEveryCurveShowsItsFinalValueAtItsEndTime() {
        let curves: [TimingCurve] = [.spring(dampingRatio: 0.5, initialVelocity: 0), .spring(dampingRatio: 1, initialVelocity: 3),
                                     .easeInOut, .linear, .easeOut]
        for curve in curves {
            for (start, duration) in [(5.0, 1.3), (0.1, 0.7), (2.2, 0.35), (7.3, 0.1)] {
                let engine = AnimationEngine(clock: VirtualClock(now: start))
                let v = View(engine: engine, frame: frame100())
                engine.animate(AnimationParameters(duration: duration, curve: curve), animations: {
                    v.position = Point(x: 350, y: 50)
                    v.transform3D = Transform3D.translation(-310, 0, 0)
                })
                engine.advance(to: start + duration)
                XCTAssertEqual(engine.presentation(of: v).position, Point(x: 350, y: 50), "\(curve) from \(start) for \(duration)")
                XCTAssertEqual(engine.presentation(of: v).transform, Transform3D.translation(-310, 0, 0), "\(curve) from \(start) for \(duration)")
            }
        }
    }

    /// The next event follows every change that moves a block's stop, although the engine keeps
    /// the earliest stop between advances: a timeline's speed, pause, scrubbing, reversal and
    /// reverse stop, and blocks starting and being removed.
    func testTheNextEventFollowsTimelineAndBlockChanges() {
        let engine = AnimationEngine()
        let v = View(engine: engine, frame: Rect(x: 0, y: 0, width: 10, height: 10))
        let timeline = AnimationTimeline(name: "transition", startingAt: 0)
        var finished: [Bool] = []
        engine.withTimeline(timeline) {
            engine.animate(AnimationParameters(duration: 1, options: linear), animations: { v.alpha = 0 }, completion: { finished.append($0) })
        }
        XCTAssertEqual(engine.nextEventTime(), 1)
        engine.advance(to: 0.25)
        XCTAssertEqual(engine.nextEventTime(), 1)
        timeline.setSpeed(2, now: engine.now)   // 0.75 s of local time left, at double speed
        XCTAssertEqual(engine.nextEventTime(), 0.625)
        timeline.pause(now: engine.now)
        XCTAssertNil(engine.nextEventTime(), "a paused timeline's block never ends by itself")
        timeline.setLocalTime(0.5, now: engine.now)
        XCTAssertNil(engine.nextEventTime())
        timeline.setSpeed(-1, now: engine.now)   // back from local 0.5 to the block's start
        XCTAssertEqual(engine.nextEventTime(), 0.75)
        timeline.reverseStop = -0.5
        XCTAssertEqual(engine.nextEventTime(), 1.25)
        engine.animate(AnimationParameters(duration: 0.125, options: linear)) { v.bounds = Rect(x: 0, y: 0, width: 20, height: 20) }
        XCTAssertEqual(engine.nextEventTime(), 0.375, "a new block on the global timeline ends first")
        engine.removeAnimation(of: v, .bounds)
        XCTAssertEqual(engine.nextEventTime(), 0.25, "a removed block completes at once")
        engine.advance(to: 0.3)
        XCTAssertEqual(engine.nextEventTime(), 1.25)
        XCTAssertEqual(finished, [])
        engine.advance(to: 2)
        XCTAssertEqual(finished, [true])
        XCTAssertNil(engine.nextEventTime())
    }
}
