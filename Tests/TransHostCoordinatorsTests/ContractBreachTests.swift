import XCTest
import TransHostCore
@testable import TransHostCoordinators

/// Breaches of the completeTransition contract: reported with the plugin name, the host recovers.
final class ContractBreachTests: XCTestCase {
    func testNeverCompletedIsEndedByTheWatchdog() {
        for kind in ContainerKind.allCases {
            let f = Fixture(kind)
            f.route { NeverCompletingAnimator() }
            f.forward()
            let deadline = TransitionHost.watchdogFactor * 0.25 + TransitionHost.watchdogSlack
            f.engine.advance(to: deadline - 0.01); f.engine.settle()
            XCTAssertNotNil(f.host.active, "\(kind): still waiting before the deadline")
            f.engine.advance(to: deadline + 0.01); f.engine.settle()
            XCTAssertNil(f.host.active, "\(kind)")
            let r = f.recorder.records.first
            XCTAssertEqual(r?.outcome, .completed, "\(kind): completed as a correct animator would have")
            XCTAssertEqual(r?.end ?? -1, deadline, accuracy: 1e-9)
            XCTAssertEqual(r?.breaches.map(\.kind), ["never-completed"])
            XCTAssertEqual(r?.breaches.first?.plugin, "test-never")
            XCTAssertEqual(f.top.id, "b")
            XCTAssertNil(f.invariantProblem, "\(kind)")
            // Recovery: the next action works.
            f.route { FadeScaleAnimator() }
            f.back(); f.run()
            XCTAssertEqual(f.top.id, "a", "\(kind)")
            XCTAssertEqual(f.recorder.records.last?.breaches, [])
            XCTAssertEqual(f.host.allBreaches.map(\.kind), ["never-completed"])
        }
    }

    func testBreachMessagesPrintNumbersInTheirShortestForm() {
        let f = Fixture(.navigation)
        f.route { NeverCompletingAnimator(duration: Double(Float(0.6))) } // a C float: 0.6000000238418579
        f.forward(); f.run(10)
        let message = f.host.allBreaches.first?.message ?? ""
        XCTAssertTrue(message.contains("within 10 x 0.6 s + 1 s"), message)
        XCTAssertFalse(message.contains("0.6000000238"), message)
    }

    func testCompletedTwiceIsIgnoredAndReportedLate() {
        for kind in ContainerKind.allCases {
            let f = Fixture(kind)
            f.route { TwiceCompletingAnimator() }
            f.forward(); f.run()
            XCTAssertEqual(f.recorder.records.count, 1, "\(kind): ended once")
            XCTAssertEqual(f.recorder.records.first?.outcome, .completed)
            XCTAssertEqual(f.recorder.late.count, 1, "\(kind)")
            XCTAssertEqual(f.recorder.late.first?.0, 0)
            XCTAssertEqual(f.recorder.late.first?.1.kind, "completed-twice")
            XCTAssertEqual(f.recorder.late.first?.1.plugin, "test-twice")
            XCTAssertEqual(f.host.allBreaches.map(\.plugin), ["test-twice"])
            XCTAssertFalse(f.warnings.contains { $0.contains("completed-twice") }, "reported once, to the observer, not again as a warning")
            XCTAssertEqual(f.recorder.begun.first?.context.completionCount, 2)
            XCTAssertEqual(f.host.records.first?.breaches.map(\.kind), ["completed-twice"], "the host's record carries it")
            XCTAssertNil(f.invariantProblem, "\(kind)")
            f.route { FadeScaleAnimator() }
            f.back(); f.run()
            XCTAssertEqual(f.top.id, "a", "\(kind): the host recovered")
            XCTAssertEqual(f.recorder.records.count, 2)
        }
    }

    func testToViewMissingIsAddedByTheHost() {
        for kind in ContainerKind.allCases {
            let f = Fixture(kind)
            f.route { ForgetfulAnimator() }
            f.forward(); f.run()
            XCTAssertEqual(f.recorder.records.first?.breaches.map(\.kind), ["to-view-missing"])
            XCTAssertEqual(f.recorder.records.first?.breaches.first?.plugin, "test-forgetful")
            XCTAssertTrue(f.b.view.superview === f.window)
            XCTAssertNil(f.invariantProblem, "\(kind)")
        }
    }

    func testLateCompletionAfterTheWatchdogIsReportedAsLate() {
        final class Slow: TransitionAnimator {
            var identity: AnimatorIdentity? { AnimatorIdentity(plugin: "test-slow", id: "slow") }
            func transitionDuration(_ context: TransitionContext) -> Double { 0.1 }
            func animateTransition(_ ctx: TransitionContext) {
                let to = ctx.view(forKey: .to)!
                ctx.containerView.addSubview(to)
                // Lies about its duration: the animation takes 30 s.
                ctx.containerView.engine.animate(AnimationParameters(duration: 30), animations: { to.alpha = 0.5 },
                                                 completion: { _ in ctx.completeTransition(true) })
            }
        }
        let f = Fixture(.navigation)
        f.route { Slow() }
        f.nav.push(f.b)
        f.run(3)
        XCTAssertEqual(f.recorder.records.first?.breaches.map(\.kind), ["never-completed"])
        XCTAssertEqual(f.recorder.late.map(\.1.kind), ["completed-late"])
        XCTAssertEqual(f.model, ["a", "b"])
    }

    /// The late call comes from a block on a helper view, which the watchdog does not stop, so
    /// it arrives 30 s later, long after the host let go of the transition: still `completed-late`.
    func testLateCompletionLongAfterTheWatchdogIsStillLate() {
        final class SlowHelper: TransitionAnimator {
            var identity: AnimatorIdentity? { AnimatorIdentity(plugin: "test-slow", id: "slow") }
            func transitionDuration(_ context: TransitionContext) -> Double { 0.1 }
            func animateTransition(_ ctx: TransitionContext) {
                let to = ctx.view(forKey: .to)!
                ctx.containerView.addSubview(to)
                let helper = View(engine: ctx.containerView.engine, frame: Rect(x: 0, y: 0, width: 10, height: 10))
                ctx.containerView.addSubview(helper)
                ctx.containerView.engine.animate(AnimationParameters(duration: 30), animations: { helper.alpha = 0 },
                                                 completion: { _ in helper.removeFromSuperview(); ctx.completeTransition(true) })
            }
        }
        let f = Fixture(.navigation)
        f.route { SlowHelper() }
        f.nav.push(f.b)
        f.recorder.begun.removeAll()   // as the runner does: nothing but the host holds the transition
        f.run(40)
        XCTAssertEqual(f.recorder.records.first?.breaches.map(\.kind), ["never-completed"])
        XCTAssertEqual(f.recorder.late.map(\.1.kind), ["completed-late"])
        XCTAssertFalse(f.recorder.late.first?.1.message.contains("call 2") ?? true)
        XCTAssertEqual(f.model, ["a", "b"])
    }

    func testInvalidDurationIsReported() {
        final class NaNDuration: TransitionAnimator {
            var identity: AnimatorIdentity? { AnimatorIdentity(plugin: "test-nan", id: "nan") }
            func transitionDuration(_ context: TransitionContext) -> Double { .nan }
            func animateTransition(_ ctx: TransitionContext) {
                ctx.containerView.addSubview(ctx.view(forKey: .to)!); ctx.completeTransition(true)
            }
        }
        let f = Fixture(.tab)
        f.route { NaNDuration() }
        f.tab.select(1); f.run()
        XCTAssertEqual(f.recorder.records.first?.breaches.map(\.kind), ["invalid-value"])
        XCTAssertEqual(f.recorder.records.first?.breaches.first?.plugin, "test-nan")
        XCTAssertEqual(f.tab.selectedIndex, 1)
    }

    /// An animator that removes the container from the window: the host reports it and puts
    /// the container back where it was, so later frames still show the app.
    func testAnAnimatorThatRemovesTheContainerIsReportedAndRepaired() {
        final class Vandal: TransitionAnimator {
            var identity: AnimatorIdentity? { AnimatorIdentity(plugin: "test-vandal", id: "vandal") }
            func transitionDuration(_ context: TransitionContext) -> Double { 0.1 }
            func animateTransition(_ ctx: TransitionContext) {
                ctx.containerView.addSubview(ctx.view(forKey: .to)!)
                ctx.containerView.removeFromSuperview()
                ctx.completeTransition(true)
            }
        }
        final class Provider: TransitionAnimatorProvider {
            func animator(for request: TransitionRequest) -> TransitionAnimator? { Vandal() }
        }
        let engine = AnimationEngine()
        let window = View(engine: engine, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "window")
        let container = View(engine: engine, frame: window.bounds, name: "UINavigationController")
        window.addSubview(container)
        let host = TransitionHost(engine: engine)
        let provider = Provider()
        let recorder = Recorder()
        host.provider = provider
        host.observer = recorder
        let a = ViewController(id: "a", typeName: "Home", view: View(engine: engine))
        let b = ViewController(id: "b", typeName: "Detail", view: View(engine: engine))
        let nav = NavigationCoordinator(root: a, view: container, host: host)
        nav.push(b)
        engine.advance(by: 5)
        engine.settle()
        XCTAssertEqual(recorder.records.first?.breaches.map(\.kind), ["container-moved"])
        XCTAssertEqual(recorder.records.first?.breaches.first?.plugin, "test-vandal")
        XCTAssertTrue(container.superview === window, "the container is back in the window")
        XCTAssertEqual(nav.stack.map(\.id), ["a", "b"])
    }
}
