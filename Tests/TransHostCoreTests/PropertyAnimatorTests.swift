import XCTest
@testable import TransHostCore

/// UIViewPropertyAnimator semantics frame by frame against closed forms: the curve's Bezier
/// solved independently (bisection on the Bernstein form below), UIKit's spring from
/// SpringSolver's reference-tested closed form.
final class PropertyAnimatorTests: XCTestCase {
    /// y at x for a cubic Bezier (0,0) P1 P2 (1,1), by bisection on x(s): independent of UnitBezier.
    private func bezier(_ x: Double, _ p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double) -> Double {
        func b(_ s: Double, _ a: Double, _ c: Double) -> Double { 3 * (1 - s) * (1 - s) * s * a + 3 * (1 - s) * s * s * c + s * s * s }
        var lo = 0.0, hi = 1.0
        for _ in 0..<80 { let m = (lo + hi) / 2; if b(m, p1x, p2x) < x { lo = m } else { hi = m } }
        return b((lo + hi) / 2, p1y, p2y)
    }
    private func easeInOut(_ x: Double) -> Double { bezier(x, 0.42, 0, 0.58, 1) }

    private func setUp(_ timing: AnimatorTiming, duration: Double = 1) -> (AnimationEngine, View, PropertyAnimator) {
        let engine = AnimationEngine()
        let v = View(engine: engine, frame: Rect(x: 0, y: 0, width: 100, height: 100))   // center (50, 50)
        let a = PropertyAnimator(engine: engine, duration: duration, timing: timing)
        a.addAnimations { v.position = Point(x: 250, y: 50) }
        return (engine, v, a)
    }
    private func x(_ e: AnimationEngine, _ v: View) -> Double { e.presentation(of: v).position.x }

    func testRunFollowsTheCurveAndCompletesAtTheEnd() {
        let (e, v, a) = setUp(.easeInOut)
        var positions: [PropertyAnimator.Position] = []
        a.addCompletion { positions.append($0) }
        XCTAssertEqual(v.position.x, 50, "an inactive animator's blocks have not run yet")
        a.startAnimation()
        XCTAssertEqual(v.position.x, 250, "starting runs the blocks: the model value is the end value")
        XCTAssertTrue(a.isRunning)
        for k in 0...10 {
            let t = Double(k) / 10
            e.advance(to: t)
            XCTAssertEqual(x(e, v), 50 + 200 * easeInOut(t), accuracy: 1e-9, "t \(t)")
        }
        e.settle()
        XCTAssertEqual(positions, [.end])
        XCTAssertEqual(a.state, .inactive)
        XCTAssertEqual(x(e, v), 250)
    }

    func testReversingKeepsPositionContinuousAndEndsAtTheStart() {
        let (e, v, a) = setUp(.easeInOut)
        var positions: [PropertyAnimator.Position] = []
        a.addCompletion { positions.append($0) }
        a.startAnimation()
        e.advance(to: 0.4)
        let before = x(e, v)
        a.isReversed = true
        XCTAssertEqual(x(e, v), before, accuracy: 1e-9, "no jump at the reversal")
        // Back along the same curve: at 0.4 + s the time fraction is 0.4 - s.
        for k in 0...8 {
            let s = Double(k) * 0.05
            e.advance(to: 0.4 + s)
            XCTAssertEqual(x(e, v), 50 + 200 * easeInOut(0.4 - s), accuracy: 1e-9, "s \(s)")
        }
        e.advance(to: 0.81)
        XCTAssertEqual(positions, [.start])
        XCTAssertEqual(v.position.x, 50, "reversed to the start: the model value is the start value again")
        XCTAssertEqual(x(e, v), 50)
    }

    func testContinuingWithASpringKeepsVelocityContinuous() {
        let (e, v, a) = setUp(.cubic(.linear))
        a.startAnimation()
        e.advance(to: 0.5)
        XCTAssertEqual(a.velocity(at: 0.5), 1, accuracy: 1e-6, "linear over 1 s: df/dt = 1")
        a.continueAnimation(timing: .spring(dampingRatio: 0.7, initialVelocity: 0), durationFactor: 0.8)
        // The rest (half the distance) on UIKit's spring over 0.8 s, starting at df/dt = 1, i.e.
        // 1 / 0.5 = 2 remaining distances per second.
        let spring = SpringSolver(dampingRatio: 0.7, duration: 0.8, initialVelocity: 2)
        XCTAssertEqual(a.velocity(at: 0.5 + 1e-5), 1, accuracy: 1e-3, "the spring starts at the linear run's velocity")
        for k in 1...8 {
            let tau = Double(k) * 0.1
            e.advance(to: 0.5 + tau)
            let expected = 50 + 200 * (0.5 + 0.5 * (k == 8 ? 1 : spring.progress(at: tau)))
            XCTAssertEqual(x(e, v), expected, accuracy: 1e-9, "tau \(tau)")
        }
        var overshoot = false
        for k in 1..<80 { if 0.5 + 0.5 * spring.progress(at: Double(k) * 0.01) > 1 { overshoot = true } }
        XCTAssertTrue(overshoot, "damping 0.7 overshoots: the check above covers values past the end")
    }

    func testReversingASpringKeepsPositionAndVelocityContinuous() {
        let (e, v, a) = setUp(.spring(dampingRatio: 0.8, initialVelocity: 0))
        a.startAnimation()
        e.advance(to: 0.2)
        let f = a.fraction(at: 0.2), rate = a.velocity(at: 0.2)
        XCTAssertGreaterThan(rate, 0.5, "moving on toward the end")
        a.isReversed = true
        XCTAssertEqual(x(e, v), 50 + 200 * f, accuracy: 1e-9, "no jump")
        XCTAssertEqual(a.velocity(at: 0.2), rate, accuracy: 1e-3 * rate, "the spring back starts at the same velocity")
        // Back to 0 on UIKit's spring over f x duration, starting at rate / (0 - f) per distance.
        let back = SpringSolver(dampingRatio: 0.8, duration: f, initialVelocity: rate / -f)
        for k in 1...5 {
            let tau = Double(k) * f / 5
            e.advance(to: 0.2 + tau)
            let expected = k == 5 ? 0 : f - f * back.progress(at: tau)
            XCTAssertEqual(a.fraction(at: 0.2 + tau), expected, accuracy: 1e-9, "tau \(tau)")
        }
        e.settle()
        XCTAssertEqual(v.position.x, 50, "ended at the start")
    }

    func testFractionCompleteScrubsLinearlyOrThroughTheCurve() {
        let (e, v, a) = setUp(.easeInOut)
        a.pauseAnimation()
        XCTAssertEqual(a.state, .active)
        XCTAssertFalse(a.isRunning)
        a.fractionComplete = 0.25
        XCTAssertEqual(x(e, v), 100, accuracy: 1e-9, "scrubsLinearly: a quarter of the distance")
        XCTAssertEqual(a.fractionComplete, 0.25, accuracy: 1e-12)
        a.scrubsLinearly = false
        a.fractionComplete = 0.25
        XCTAssertEqual(x(e, v), 50 + 200 * easeInOut(0.25), accuracy: 1e-9, "through the curve: ease-in-out at 0.25")
        XCTAssertEqual(a.fractionComplete, 0.25, accuracy: 1e-12)
        // Resuming runs the rest of the curve from its time fraction 0.25: 0.75 s.
        a.startAnimation()
        e.advance(to: 0.5)
        XCTAssertEqual(x(e, v), 50 + 200 * easeInOut(0.75), accuracy: 1e-9)
        e.advance(to: 0.75)
        XCTAssertEqual(x(e, v), 250, accuracy: 1e-9)
    }

    func testResumingAfterAPauseContinuesOnTheCurve() {
        let (e, v, a) = setUp(.easeInOut)
        a.startAnimation()
        e.advance(to: 0.3)
        a.pauseAnimation()
        e.advance(to: 0.8)
        XCTAssertEqual(x(e, v), 50 + 200 * easeInOut(0.3), accuracy: 1e-9, "paused: held")
        XCTAssertEqual(a.fractionComplete, easeInOut(0.3), accuracy: 1e-9, "scrubsLinearly reads the value fraction")
        a.startAnimation()
        e.advance(to: 0.9)
        XCTAssertEqual(x(e, v), 50 + 200 * easeInOut(0.4), accuracy: 1e-9)
    }

    func testEveryCompletionPosition() {
        for position in [PropertyAnimator.Position.end, .start, .current] {
            let (e, v, a) = setUp(.cubic(.linear))
            var got: [PropertyAnimator.Position] = []
            a.addCompletion { got.append($0) }
            a.startAnimation()
            e.advance(to: 0.25)
            a.stopAnimation(false)
            XCTAssertEqual(a.state, .stopped)
            XCTAssertEqual(v.position.x, 100, accuracy: 1e-9, "stopped: the model value is the presentation value")
            XCTAssertEqual(x(e, v), 100, accuracy: 1e-9)
            e.advance(to: 0.5)
            XCTAssertEqual(x(e, v), 100, accuracy: 1e-9, "a stopped animator does not move")
            XCTAssertTrue(got.isEmpty, "no completion before finishAnimation")
            a.finishAnimation(at: position)
            XCTAssertEqual(got, [position])
            XCTAssertEqual(a.state, .inactive)
            let expected = [PropertyAnimator.Position.end: 250.0, .start: 50, .current: 100][position]!
            XCTAssertEqual(x(e, v), expected, accuracy: 1e-9, "\(position)")
        }
        let (e, v, a) = setUp(.cubic(.linear))
        var got: [PropertyAnimator.Position] = []
        a.addCompletion { got.append($0) }
        a.startAnimation()
        e.advance(to: 0.5)
        a.stopAnimation(true)
        e.advance(to: 2)
        XCTAssertTrue(got.isEmpty, "stopAnimation(true) runs no completion")
        XCTAssertEqual(a.state, .inactive)
        XCTAssertEqual(x(e, v), 150, accuracy: 1e-9)
    }

    func testDelayFactorStartsABlockLater() {
        let engine = AnimationEngine()
        let v = View(engine: engine, frame: Rect(x: 0, y: 0, width: 100, height: 100))
        let a = PropertyAnimator(engine: engine, duration: 2, timing: .cubic(.linear))
        a.addAnimations({ v.alpha = 0 }, delayFactor: 0.5)
        a.startAnimation()
        engine.advance(to: 0.5)
        XCTAssertEqual(engine.presentation(of: v).alpha, 1, "within the delay (1 s of 2)")
        engine.advance(to: 1.5)
        XCTAssertEqual(engine.presentation(of: v).alpha, 0.5, accuracy: 1e-9, "half of the remaining second")
    }

    func testPausesOnCompletionKeepsTheAnimatorActive() {
        let (e, v, a) = setUp(.cubic(.linear))
        var got: [PropertyAnimator.Position] = []
        a.addCompletion { got.append($0) }
        a.pausesOnCompletion = true
        a.startAnimation()
        e.advance(to: 1.5)
        e.settle()
        XCTAssertTrue(got.isEmpty)
        XCTAssertEqual(a.state, .active)
        XCTAssertFalse(a.isRunning)
        XCTAssertEqual(a.fractionComplete, 1)
        a.isReversed = true
        a.pausesOnCompletion = false
        a.startAnimation()
        e.advance(to: 2.0)
        XCTAssertEqual(x(e, v), 150, accuracy: 1e-9, "back half way in half a second")
        e.advance(to: 2.6)
        XCTAssertEqual(got, [.start])
    }

    func testAPhysicalSpringLastsUntilItSettles() {
        let a = PropertyAnimator(engine: AnimationEngine(), duration: 5, timing: .physicalSpring(mass: 1, stiffness: 200, damping: 20, initialVelocity: 0))
        // zeta = 20 / (2 sqrt 200) = 0.707; the envelope sqrt(1 + (zeta w0 / wd)^2) e^(-zeta w0 t)
        // falls under 0.001 at t = ln(1000 sqrt 2) / 10 = 0.7255 s; the last crossing is a little before.
        XCTAssertLessThan(a.duration, 0.7256)
        XCTAssertGreaterThan(a.duration, 0.55)
    }

    func testMisuseIsReportedNotFatal() {
        let (e, _, a) = setUp(.easeInOut)
        var warnings: [String] = []
        a.warningHandler = { warnings.append($0) }
        a.finishAnimation(at: .end)
        a.startAnimation()
        a.fractionComplete = 0.5
        e.advance(to: 0.2)
        XCTAssertEqual(warnings.count, 2, "\(warnings)")
        XCTAssertTrue(warnings[0].contains("finishAnimation"))
        XCTAssertTrue(warnings[1].contains("pause it first"))
    }
}
