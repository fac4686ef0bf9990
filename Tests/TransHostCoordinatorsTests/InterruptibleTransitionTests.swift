import XCTest
import TransHostCore
@testable import TransHostCoordinators

/// An animator written the iOS 10 way: one property animator (linear, 1 s) slides the to-view in
/// from x = +320 and is the interruptible animator; its completion calls
/// completeTransition(position == .end).
final class SlideInAnimator: TransitionAnimator {
    var identity: AnimatorIdentity? { AnimatorIdentity(plugin: "test-slide", id: "slide") }
    var animator: PropertyAnimator?
    var asked = 0
    var positions: [PropertyAnimator.Position] = []
    /// Misbehaviours under test.
    var changesAnimator = false
    var completesEarly = false
    var stopsWithoutFinishing = false
    func transitionDuration(_ context: TransitionContext) -> Double { 1 }
    func animateTransition(_ ctx: TransitionContext) {
        let a = make(ctx)
        a.startAnimation()
        if completesEarly { ctx.completeTransition(true) }
        if stopsWithoutFinishing { ctx.containerView.engine.schedule(at: 0.5) { a.stopAnimation(false) } }
    }
    func interruptibleAnimator(_ ctx: TransitionContext) -> PropertyAnimator? {
        asked += 1
        if changesAnimator && asked > 1 { return PropertyAnimator(engine: ctx.containerView.engine, duration: 1, timing: .cubic(.linear)) }
        return animator ?? make(ctx)
    }
    private func make(_ ctx: TransitionContext) -> PropertyAnimator {
        if let animator { return animator }
        let engine = ctx.containerView.engine
        let to = ctx.view(forKey: .to)!
        to.frame = ctx.finalFrame(for: ctx.toViewController)
        ctx.containerView.addSubview(to)
        to.transform = AffineTransform(translationX: 320, y: 0)
        let a = PropertyAnimator(engine: engine, duration: 1, timing: .cubic(.linear))
        a.addAnimations { to.transform = .identity }
        a.addCompletion { [self] position in
            positions.append(position)
            to.transform = .identity
            ctx.completeTransition(position == .end)
        }
        animator = a
        return a
    }
}

final class InterruptibleTransitionTests: XCTestCase {
    private func tx(_ f: Fixture) -> Double { f.engine.presentation(of: f.b.view).transform.m41 }

    func testTheHostAsksOnceForAnUninterruptedTransition() {
        let f = Fixture(.navigation)
        let slide = SlideInAnimator()
        f.route { slide }
        f.forward(); f.run()
        XCTAssertEqual(slide.asked, 1)
        XCTAssertEqual(slide.positions, [.end])
        XCTAssertEqual(f.recorder.records.first?.outcome, .completed)
        XCTAssertEqual(f.recorder.records.first?.interactive, false)
        XCTAssertEqual(f.recorder.records.first?.breaches, [])
    }

    func testAGrabScrubsFromWhereItIsAndAFinishRunsTheRest() {
        let f = Fixture(.navigation)
        let slide = SlideInAnimator()
        f.route { slide }
        f.forward()
        f.engine.advance(to: 0.25)
        XCTAssertEqual(tx(f), 240, accuracy: 1e-9)
        let grab = InteractionController()
        grab.completionCurve = .linear
        XCTAssertNil(f.host.grab(with: grab))
        XCTAssertEqual(slide.asked, 2, "asked again at the interruption")
        XCTAssertEqual(grab.percentComplete, 0.25, accuracy: 1e-9, "grabbed where it was")
        XCTAssertTrue(f.host.active?.context.isInteractive ?? false)
        f.engine.advance(to: 2)
        XCTAssertEqual(tx(f), 240, accuracy: 1e-9, "held while grabbed: no watchdog, no motion")
        grab.update(0.6)
        XCTAssertEqual(tx(f), 128, accuracy: 1e-9)
        grab.finish()
        // The rest, 0.4 of the distance, along the linear completion curve in 0.4 s.
        f.engine.advance(to: 2.2)
        XCTAssertEqual(tx(f), 64, accuracy: 1e-9)
        f.run()
        XCTAssertEqual(slide.positions, [.end])
        let r = f.recorder.records.first
        XCTAssertEqual(r?.outcome, .completed)
        XCTAssertEqual(r?.interactive, true)
        XCTAssertEqual(r?.end ?? 0, 2.4, accuracy: 1e-9)
        XCTAssertEqual(r?.breaches, [])
        XCTAssertEqual(f.top.id, "b")
    }

    func testAGrabReleasedBackReversesAndCancels() {
        let f = Fixture(.navigation)
        let slide = SlideInAnimator()
        f.route { slide }
        f.forward()
        f.engine.advance(to: 0.5)
        let grab = InteractionController()
        grab.completionCurve = .linear
        XCTAssertNil(f.host.grab(with: grab))
        grab.update(0.4)
        grab.cancel()
        XCTAssertTrue(f.host.active?.context.transitionWasCancelled ?? false, "cancelled at once, before the views ran back")
        f.engine.advance(to: 0.7)
        XCTAssertEqual(tx(f), 320 * (1 - 0.4 * 0.5), accuracy: 1e-9, "half way back after half of 0.4 s")
        f.run()
        XCTAssertEqual(slide.positions, [.start])
        XCTAssertEqual(f.recorder.records.first?.outcome, .cancelled)
        XCTAssertEqual(f.top.id, "a")
        XCTAssertNil(f.invariantProblem)
    }

    func testGrabbedAgainWhileRunningBackItCanStillFinish() {
        let f = Fixture(.navigation)
        let slide = SlideInAnimator()
        f.route { slide }
        f.forward()
        f.engine.advance(to: 0.5)
        let first = InteractionController()
        first.completionCurve = .linear
        XCTAssertNil(f.host.grab(with: first))
        first.cancel()
        f.engine.advance(to: 0.75)
        XCTAssertEqual(tx(f), 320 * 0.75, accuracy: 1e-9, "half way back")
        let second = InteractionController()
        second.completionCurve = .linear
        XCTAssertNil(f.host.grab(with: second), "a transition on its way back can be grabbed again")
        XCTAssertFalse(f.host.active?.context.transitionWasCancelled ?? true, "not cancelled any more while held")
        XCTAssertEqual(second.percentComplete, 0.25, accuracy: 1e-9, "grabbed where it was")
        XCTAssertEqual(tx(f), 320 * 0.75, accuracy: 1e-9, "no jump")
        XCTAssertEqual(first.state, .ended, "the first hand let go")
        second.update(0.9)
        second.finish()
        f.run()
        XCTAssertEqual(slide.positions, [.end])
        XCTAssertEqual(f.recorder.records.first?.outcome, .completed)
        XCTAssertEqual(f.top.id, "b")
    }

    func testAnInteractiveStartDrivesTheInterruptibleAnimator() {
        let f = Fixture(.navigation)
        let slide = SlideInAnimator()
        f.route { slide }
        let ic = InteractionController()
        ic.completionCurve = .linear
        f.forward(interaction: ic)
        XCTAssertEqual(slide.animator?.isRunning, false, "paused at 0 from the start")
        f.engine.advance(to: 1.5)
        XCTAssertEqual(tx(f), 320, accuracy: 1e-9)
        ic.update(0.3)
        XCTAssertEqual(tx(f), 224, accuracy: 1e-9, "scrubbed through the animator's fractionComplete")
        ic.finish()
        f.engine.advance(to: 1.85)
        XCTAssertEqual(tx(f), 320 * (1 - 0.65), accuracy: 1e-9, "the rest, 0.7 in 0.7 s: 0.35 of it after 0.35 s")
        f.run()
        XCTAssertEqual(slide.positions, [.end])
        XCTAssertEqual(f.recorder.records.first?.outcome, .completed)
        XCTAssertEqual(f.recorder.records.first?.end ?? 0, 2.2, accuracy: 1e-9)
    }

    func testASecondGrabWhileHeldIsRefused() {
        let f = Fixture(.navigation)
        f.route { SlideInAnimator() }
        f.forward()
        f.engine.advance(to: 0.2)
        XCTAssertNil(f.host.grab(with: InteractionController()))
        XCTAssertEqual(f.host.grab(with: InteractionController()), "the transition is already interactive")
    }

    func testADifferentAnimatorOnTheSecondCallIsABreach() {
        let f = Fixture(.navigation)
        let slide = SlideInAnimator()
        slide.changesAnimator = true
        f.route { slide }
        f.forward()
        f.engine.advance(to: 0.25)
        let grab = InteractionController()
        XCTAssertNil(f.host.grab(with: grab))
        grab.update(0.8)
        grab.finish()
        f.run()
        let r = f.recorder.records.first
        XCTAssertEqual(r?.breaches.map(\.kind), ["interruptible-animator-changed"])
        XCTAssertEqual(r?.outcome, .completed, "the first animator kept driving it")
        XCTAssertEqual(slide.positions, [.end])
    }

    func testCompletingWhileTheAnimatorRunsIsABreachAndStopsIt() {
        let f = Fixture(.navigation)
        let slide = SlideInAnimator()
        slide.completesEarly = true
        f.route { slide }
        f.forward(); f.run()
        let r = f.recorder.records.first
        XCTAssertEqual(r?.breaches.map(\.kind), ["completed-while-animating"])
        XCTAssertEqual(slide.animator?.state, .inactive)
        XCTAssertTrue(slide.positions.isEmpty, "its completion never runs (it would complete twice)")
        XCTAssertEqual(f.top.id, "b")
        XCTAssertEqual(f.b.view.transform.tx, 0, accuracy: 1e-9, "ended at its end: the pushed view is in place")
        f.engine.advance(to: 0.5)
        XCTAssertEqual(tx(f), 0, accuracy: 1e-9, "and nothing moves any more")
    }

    func testAnAnimatorStoppedWithoutFinishingIsABreachAndTheWatchdogEndsIt() {
        let f = Fixture(.navigation)
        let slide = SlideInAnimator()
        slide.stopsWithoutFinishing = true
        f.route { slide }
        f.forward(); f.run(30)
        let r = f.recorder.records.first
        XCTAssertEqual(r?.breaches.map(\.kind), ["never-completed", "animator-stopped-unfinished"])
        XCTAssertEqual(r?.outcome, .completed)
        XCTAssertEqual(r?.end ?? 0, 0.5 + TransitionHost.watchdogFactor * 1 + TransitionHost.watchdogSlack, accuracy: 1e-9,
                       "stopping armed the watchdog at the stop")
        XCTAssertNil(f.invariantProblem)
    }

    func testGrabbingWithoutARunningTransitionIsRefused() {
        let f = Fixture(.navigation)
        XCTAssertEqual(f.host.grab(with: InteractionController()), "no transition is running")
    }

    func testAGrabOnAPlainAnimatorScrubsItsTimeline() {
        let f = Fixture(.navigation)
        f.route { FadeScaleAnimator() }
        f.forward()
        f.engine.advance(to: 0.125)
        let grab = InteractionController()
        XCTAssertNil(f.host.grab(with: grab))
        XCTAssertEqual(grab.percentComplete, 0.5, accuracy: 1e-9)
        let alpha = f.engine.presentation(of: f.b.view).alpha
        f.engine.advance(to: 1)
        XCTAssertEqual(f.engine.presentation(of: f.b.view).alpha, alpha, accuracy: 1e-12, "held")
        grab.cancel()
        f.run()
        XCTAssertEqual(f.recorder.records.first?.outcome, .cancelled)
        XCTAssertEqual(f.top.id, "a")
    }
}
