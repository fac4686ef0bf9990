import XCTest
import TransHostCore
@testable import TransHostCoordinators

/// Percent-driven interaction: scrubbing, finish, cancel, exactly-once completion.
final class InteractionControllerTests: XCTestCase {
    func testInteractiveTransitionIsPausedFromTheStart() {
        for kind in ContainerKind.allCases {
            let f = Fixture(kind)
            f.route { FadeScaleAnimator() }
            let ic = InteractionController()
            f.forward(interaction: ic)
            XCTAssertEqual(f.recorder.begun.first?.context.isInteractive, true, "\(kind)")
            XCTAssertEqual(ic.state, .interacting)
            f.run(10)
            XCTAssertNotNil(f.host.active, "\(kind): the host does not advance it on its own")
            XCTAssertEqual(f.engine.presentation(of: f.b.view).alpha, 0, "\(kind)")
        }
    }

    func testUpdateScrubsLinearlyAndClamps() {
        for kind in ContainerKind.allCases {
            let f = Fixture(kind)
            f.route { FadeScaleAnimator() }
            let ic = InteractionController()
            f.forward(interaction: ic)
            f.run(0.7)
            ic.update(0.5)
            // Ease-in-out is symmetric: progress 0.5 at half time.
            assertClose(f.engine.presentation(of: f.b.view).alpha, 0.5, accuracy: 1e-6)
            ic.update(0.25)
            let expected = TimingCurve.easeInOut.progress(0.25, duration: 0.25)
            assertClose(f.engine.presentation(of: f.b.view).alpha, expected, accuracy: 1e-9)
            f.run(3)
            assertClose(f.engine.presentation(of: f.b.view).alpha, expected, accuracy: 1e-9)
            ic.update(7)
            XCTAssertEqual(ic.percentComplete, 1)
            assertClose(f.engine.presentation(of: f.b.view).alpha, 1)
            ic.update(-2)
            XCTAssertEqual(ic.percentComplete, 0)
            assertClose(f.engine.presentation(of: f.b.view).alpha, 0)
            ic.update(.nan)
            XCTAssertEqual(ic.percentComplete, 0)
            XCTAssertEqual(f.warnings.count, 1, "\(kind): a NaN update is reported")
        }
    }

    func testFinishRunsTheRestAtCompletionSpeed() {
        for kind in ContainerKind.allCases {
            let f = Fixture(kind)
            let anim = FadeScaleAnimator()
            f.route { anim }
            let ic = InteractionController()
            ic.completionSpeed = 2
            f.forward(interaction: ic)
            f.run(1)
            ic.update(0.2)
            let t0 = f.engine.now
            ic.finish()
            XCTAssertEqual(ic.state, .finishing)
            f.run()
            let r = f.recorder.records.first
            XCTAssertEqual(r?.outcome, .completed, "\(kind)")
            XCTAssertEqual(r?.interactive, true)
            XCTAssertEqual(r?.end ?? -1, t0 + 0.8 * 0.25 / 2, accuracy: 1e-9, "\(kind): (1 - p) x D / speed")
            XCTAssertEqual(anim.completions, 1, "\(kind): the completion ran once")
            XCTAssertEqual(f.recorder.begun.first?.context.completionCount, 1)
            XCTAssertEqual(f.recorder.records.count, 1)
            XCTAssertEqual(f.top.id, "b")
            XCTAssertEqual(ic.state, .ended)
            XCTAssertEqual(f.a.view.transform, .identity)
            XCTAssertNil(f.invariantProblem, "\(kind)")
        }
    }

    /// completionCurve shapes the run after release: with the default ease-in-out, a linear
    /// 1 s fade released at 50% is at 0.5 + 0.5 x y(0.25) a quarter of the way through the
    /// remaining 0.5 s, where y is the (0.42, 0, 0.58, 1) Bezier solved here by bisection.
    func testCompletionCurveShapesFinishAndCancel() {
        final class LinearFade: TransitionAnimator {
            var identity: AnimatorIdentity? { nil }
            func transitionDuration(_ context: TransitionContext) -> Double { 1 }
            func animateTransition(_ ctx: TransitionContext) {
                let to = ctx.view(forKey: .to)!
                to.frame = ctx.finalFrame(for: ctx.toViewController)
                ctx.containerView.addSubview(to)
                to.alpha = 0
                ctx.containerView.engine.animate(AnimationParameters(duration: 1, options: 3 << 16), animations: { to.alpha = 1 },
                                                 completion: { _ in ctx.completeTransition(!ctx.transitionWasCancelled) })
            }
        }
        func easeInOut(_ x: Double) -> Double {
            func bez(_ t: Double, _ p1: Double, _ p2: Double) -> Double { 3 * (1 - t) * (1 - t) * t * p1 + 3 * (1 - t) * t * t * p2 + t * t * t }
            var lo = 0.0, hi = 1.0
            for _ in 0..<100 { let m = (lo + hi) / 2; if bez(m, 0.42, 0.58) < x { lo = m } else { hi = m } }
            return bez((lo + hi) / 2, 0, 1)
        }
        let y = easeInOut(0.25)
        for (finishing, curve, expected) in [(true, TimingCurve.easeInOut, 0.5 + 0.5 * y), (true, .linear, 0.625),
                                             (false, .easeInOut, 0.5 - 0.5 * y), (false, .linear, 0.375)] {
            let f = Fixture(.navigation)
            f.route { LinearFade() }
            let ic = InteractionController()
            ic.completionCurve = curve
            f.forward(interaction: ic)
            f.run(1)
            ic.update(0.5)
            let t0 = f.engine.now
            if finishing { ic.finish() } else { ic.cancel() }
            f.engine.advance(to: t0 + 0.125)
            assertClose(f.engine.presentation(of: f.b.view).alpha, expected, accuracy: 1e-6)
            f.run()
            let r = f.recorder.records.first
            XCTAssertEqual(r?.outcome, finishing ? .completed : .cancelled)
            XCTAssertEqual(r?.end ?? -1, t0 + 0.5, accuracy: 1e-9, "the curve reshapes the run, not its length")
        }
    }

    func testUpdateToExactlyOneThenFinishCompletes() {
        for kind in ContainerKind.allCases {
            let f = Fixture(kind)
            let anim = FadeScaleAnimator()
            f.route { anim }
            let ic = InteractionController()
            f.forward(interaction: ic)
            f.run(0.5)
            ic.update(1.0)
            let t0 = f.engine.now
            ic.finish()
            f.engine.settle()
            XCTAssertEqual(f.recorder.records.first?.outcome, .completed, "\(kind): no 0.99 clamp needed")
            XCTAssertEqual(f.recorder.records.first?.end, t0, "\(kind): nothing left to run")
            XCTAssertEqual(anim.completions, 1)
            XCTAssertEqual(f.top.id, "b")
            assertClose(f.engine.presentation(of: f.b.view).alpha, 1)
        }
    }

    func testCancelRunsBackwardsThenCompletesCancelled() {
        for kind in ContainerKind.allCases {
            let f = Fixture(kind)
            let anim = FadeScaleAnimator()
            f.route { anim }
            let ic = InteractionController()
            f.forward(interaction: ic)
            ic.update(0.6)
            let t0 = f.engine.now
            ic.cancel()
            XCTAssertEqual(f.recorder.begun.first?.context.transitionWasCancelled, true, "reported at once")
            f.engine.advance(by: 0.6 * 0.25 / 2)
            let expected = TimingCurve.easeInOut.progress(0.3, duration: 0.25)
            assertClose(f.engine.presentation(of: f.b.view).alpha, expected, accuracy: 1e-9)
            f.run()
            let r = f.recorder.records.first
            XCTAssertEqual(r?.outcome, .cancelled, "\(kind)")
            XCTAssertEqual(r?.end ?? -1, t0 + 0.6 * 0.25, accuracy: 1e-9)
            XCTAssertEqual(anim.completions, 1)
            XCTAssertEqual(anim.ended, [false])
            XCTAssertEqual(f.recorder.begun.first?.context.didComplete, false)
            XCTAssertEqual(f.top.id, "a")
            XCTAssertNil(f.invariantProblem, "\(kind)")
        }
    }

    func testCallsAfterTheEndAreIgnored() {
        let f = Fixture(.navigation)
        f.route { FadeScaleAnimator() }
        let ic = InteractionController()
        f.nav.push(f.b, interaction: ic)
        ic.update(0.7); ic.finish(); ic.cancel(); ic.update(0.1)
        f.run()
        XCTAssertEqual(f.recorder.records.map(\.outcome), [.completed])
        ic.cancel(); ic.update(0.5); f.run()
        XCTAssertEqual(f.model, ["a", "b"])
        // A used controller drives nothing else.
        f.nav.pop(interaction: ic)
        f.run()
        XCTAssertEqual(f.model, ["a"])
        XCTAssertEqual(f.recorder.records.last?.interactive, false)
        XCTAssertEqual(f.warnings.count, 1)
    }

    func testCallsBeforeTheTransitionStartsAreApplied() {
        let f = Fixture(.navigation)
        f.route { FadeScaleAnimator() }
        let ic = InteractionController()
        f.nav.push(f.b)                  // running
        f.nav.push(f.c, interaction: ic) // queued
        ic.update(0.9)
        ic.finish()
        XCTAssertEqual(ic.state, .idle)
        f.run()
        XCTAssertEqual(f.model, ["a", "b", "c"])
        XCTAssertEqual(f.recorder.records.last?.interactive, true)
        XCTAssertEqual(f.recorder.records.last.map { $0.end - $0.start } ?? -1, 0.1 * 0.25, accuracy: 1e-9)
    }

    func testScrubbingPastABlocksEndAndCancellingBeforeABlockBegan() {
        // Finish after scrubbing past the end of the short block: both blocks end.
        let f = Fixture(.navigation)
        let anim = TwoBlockAnimator()
        f.route { anim }
        let ic = InteractionController()
        f.nav.push(f.b, interaction: ic)
        ic.update(0.8)
        XCTAssertEqual(anim.firstDone, 0, "no completion runs while paused")
        ic.finish()
        f.run()
        XCTAssertEqual(anim.firstDone, 1)
        XCTAssertEqual(anim.secondDone, 1)
        XCTAssertEqual(f.model, ["a", "b"])
        XCTAssertTrue(f.engine.isIdle || !f.engine.isAnimating(f.b.view, .alpha))

        // Cancel before the delayed block began: it still ends (at its beginning) and completes.
        let g = Fixture(.navigation)
        let anim2 = TwoBlockAnimator()
        g.route { anim2 }
        let ic2 = InteractionController()
        g.nav.push(g.b, interaction: ic2)
        ic2.update(0.2)   // local 0.05 s: the delayed block begins at 0.15 s
        ic2.cancel()
        g.run(0.5)
        XCTAssertEqual(anim2.secondDone, 1)
        XCTAssertEqual(g.recorder.records.map(\.outcome), [.cancelled])
        XCTAssertEqual(g.recorder.records.first?.breaches, [])
        XCTAssertEqual(g.a.view.alpha, 1)
    }

    func testInteractionFromTheProvider() {
        final class InteractiveProvider: TransitionAnimatorProvider, TransitionInteractionProvider {
            let ic = InteractionController()
            func animator(for request: TransitionRequest) -> TransitionAnimator? { FadeScaleAnimator() }
            func interactionController(for request: TransitionRequest, animator: TransitionAnimator) -> InteractionController? {
                request.operation == .present ? ic : nil
            }
        }
        let f = Fixture(.modal)
        let p = InteractiveProvider()
        f.host.provider = p
        f.modal.present(f.b)
        f.run()
        XCTAssertNotNil(f.host.active)
        XCTAssertTrue(f.host.active?.interaction === p.ic)
        p.ic.update(0.75); p.ic.finish(); f.run()
        XCTAssertEqual(f.model, ["b"])
        f.modal.dismiss(); f.run()
        XCTAssertEqual(f.recorder.records.map(\.interactive), [true, false])
    }

    func testNonAnimatedActionIgnoresItsInteraction() {
        let f = Fixture(.navigation)
        let ic = InteractionController()
        f.nav.push(f.b, animated: false, interaction: ic)
        XCTAssertEqual(f.model, ["a", "b"])
        XCTAssertEqual(f.warnings.count, 1)
        XCTAssertEqual(ic.state, .idle)
    }

    func testCancelledInteractiveTransitionWatchdogIsArmedOnRelease() {
        final class IgnoresCancel: TransitionAnimator {
            var identity: AnimatorIdentity? { AnimatorIdentity(plugin: "test-stuck", id: "stuck") }
            func transitionDuration(_ context: TransitionContext) -> Double { 0.5 }
            func animateTransition(_ ctx: TransitionContext) {
                let to = ctx.view(forKey: .to)!
                ctx.containerView.addSubview(to)
                ctx.containerView.engine.animate(AnimationParameters(duration: 0.5), animations: { to.alpha = 0.5 })
            }
        }
        let f = Fixture(.navigation)
        f.route { IgnoresCancel() }
        let ic = InteractionController()
        f.nav.push(f.b, interaction: ic)
        f.run(20)
        XCTAssertNotNil(f.host.active, "no deadline while the user interacts")
        ic.update(0.4); ic.cancel()
        let t0 = f.engine.now
        f.run(10)
        let r = f.recorder.records.first
        XCTAssertEqual(r?.breaches.map(\.kind), ["never-completed"])
        XCTAssertEqual(r?.outcome, .cancelled, "the watchdog completes as a correct animator: !transitionWasCancelled")
        XCTAssertEqual(r?.end ?? -1, t0 + TransitionHost.watchdogFactor * 0.4 * 0.5 + TransitionHost.watchdogSlack, accuracy: 1e-9)
        XCTAssertEqual(f.model, ["a"])
        XCTAssertNil(f.b.view.superview)
    }
}
