import XCTest
import TransHostCore
@testable import TransHostCoordinators

/// Actions that arrive while a transition runs are queued and run in arrival order.
final class QueueingTests: XCTestCase {
    func testQueuedActionsRunInOrder() {
        // Modal actions during a presentation are refused, not queued (see the next test).
        for kind in [ContainerKind.navigation, .tab] {
            let f = Fixture(kind)
            f.route { FadeScaleAnimator() }
            f.forward(f.b)
            f.forward(f.c)
            f.back()
            XCTAssertEqual(f.host.queuedActionCount, 2, "\(kind)")
            f.run()
            let expected: [String: [String]] = ["navigation": ["a", "b"], "tab": ["a"], "modal": ["b"]]
            XCTAssertEqual(f.model, expected[kind.rawValue], "\(kind)")
            XCTAssertEqual(f.recorder.records.map(\.toID), ["b", "c", kind == .tab ? "a" : "b"], "\(kind)")
            XCTAssertEqual(f.recorder.records.map(\.outcome), [.completed, .completed, .completed])
            // Each starts when the previous ended, on the same instant.
            for (p, n) in zip(f.recorder.records, f.recorder.records.dropFirst()) { XCTAssertEqual(n.start, p.end, "\(kind)") }
            XCTAssertFalse(f.host.hasQueuedActions)
            XCTAssertNil(f.invariantProblem, "\(kind)")
        }
    }

    /// UIKit refuses a present or a dismiss while a presentation or dismissal is in progress;
    /// navigation and tab actions that arrive then are queued (transhost's choice).
    func testPresentOrDismissDuringAPresentationIsRefused() {
        let f = Fixture(.modal)
        f.route { FadeScaleAnimator() }
        f.modal.present(f.b)
        f.modal.present(f.c)
        f.modal.dismiss()
        XCTAssertEqual(f.host.queuedActionCount, 0)
        XCTAssertEqual(f.warnings.filter { $0.contains("in progress") }.count, 2, "\(f.warnings)")
        f.run()
        XCTAssertEqual(f.model, ["b"])
        XCTAssertEqual(f.recorder.records.map(\.toID), ["b"])
        XCTAssertNil(f.invariantProblem)
        // Once it ended, the same actions are accepted.
        f.modal.present(f.c)
        f.run()
        XCTAssertEqual(f.model, ["b", "c"])
    }

    func testQueuedActionIsEvaluatedAgainstTheStateAfterACancel() {
        for kind in [ContainerKind.navigation, .tab] {
            let f = Fixture(kind)
            f.route { FadeScaleAnimator() }
            let ic = InteractionController()
            f.forward(f.b, interaction: ic)
            f.forward(f.c)
            f.run(1)
            XCTAssertNotNil(f.host.active, "\(kind): an interactive transition waits for its user")
            XCTAssertEqual(f.host.queuedActionCount, 1)
            ic.update(0.3); ic.cancel()
            f.run()
            XCTAssertEqual(f.recorder.records.map(\.outcome), [.cancelled, .completed], "\(kind)")
            XCTAssertEqual(f.recorder.records.last?.fromID, "a", "\(kind): the queued action started from the unchanged state")
            XCTAssertEqual(f.top.id, "c")
            XCTAssertNil(f.invariantProblem, "\(kind)")
        }
    }

    func testActionsQueuedBehindABreachStillRun() {
        let f = Fixture(.navigation)
        var first = true
        f.route { defer { first = false }; return first ? NeverCompletingAnimator() : FadeScaleAnimator() }
        f.nav.push(f.b)
        f.nav.push(f.c)
        f.nav.pop()
        f.run(10)
        XCTAssertEqual(f.model, ["a", "b"])
        XCTAssertEqual(f.recorder.records.count, 3)
        XCTAssertNil(f.invariantProblem)
    }

    func testAnActionArrivingBeforeTheQueueDrainsWaitsItsTurn() {
        let f = Fixture(.navigation)
        f.route { FadeScaleAnimator() }
        f.nav.push(f.b)
        f.nav.push(f.c)          // queued
        // An action that arrives when the first transition has ended but before the queue drained
        // (here: from the observer) must not overtake the queued push.
        var fired = false
        f.recorder.onEnd = { _ in
            guard !fired else { return }
            fired = true
            XCTAssertNil(f.host.active)
            XCTAssertTrue(f.host.hasQueuedActions)
            f.nav.pop()
        }
        f.run()
        XCTAssertEqual(f.recorder.records.map(\.operation), [.push, .push, .pop])
        XCTAssertEqual(f.model, ["a", "b"])
    }
}
