import XCTest
import TransHostCore
@testable import TransHostCoordinators

/// Present/dismiss with UIKit's full-screen rules, stacked presentations, the default.
final class ModalCoordinatorTests: XCTestCase {
    func testPresentRemovesThePresentingViewAndDismissBringsItBack() {
        let f = Fixture(.modal)
        f.modal.present(f.b)
        f.run()
        XCTAssertEqual(f.model, ["b"])
        XCTAssertNil(f.a.view.superview, "full screen: the presenting view leaves after the present")
        XCTAssertTrue(f.b.view.superview === f.window)
        XCTAssertEqual(f.b.view.frame, screen)
        f.modal.dismiss()
        f.run()
        XCTAssertEqual(f.model, [])
        XCTAssertTrue(f.a.view.superview === f.window, "the presenting view is back after the dismiss")
        XCTAssertEqual(f.a.view.frame, screen)
        XCTAssertNil(f.b.view.superview)
        XCTAssertEqual(f.b.view.frame, screen, "the default dismiss puts the presented view's frame back")
        XCTAssertEqual(f.provider.requests.map(\.operation), [.present, .dismiss])
        XCTAssertEqual(f.provider.requests.map(\.container), [.modal, .modal])
        XCTAssertNil(f.invariantProblem)
    }

    func testAnimatorIsToldWhetherItPresents() {
        let f = Fixture(.modal)
        var seen: [Bool] = []
        final class Probe: TransitionAnimator {
            let report: (Bool) -> Void
            init(_ report: @escaping (Bool) -> Void) { self.report = report }
            var identity: AnimatorIdentity? { AnimatorIdentity(plugin: "probe", id: "probe") }
            func transitionDuration(_ context: TransitionContext) -> Double { 0 }
            func animateTransition(_ ctx: TransitionContext) {
                report(ctx.isPresenting)
                ctx.containerView.addSubview(ctx.view(forKey: .to)!)
                ctx.completeTransition(true)
            }
        }
        f.route { Probe { seen.append($0) } }
        f.modal.present(f.b); f.run()
        f.modal.dismiss(); f.run()
        XCTAssertEqual(seen, [true, false])
    }

    func testDefaultCoverVerticalTiming() {
        let f = Fixture(.modal)
        f.modal.present(f.b)
        XCTAssertEqual(f.engine.presentation(of: f.b.view).frame.minY, 568, accuracy: 1e-9, "starts one height below")
        f.engine.advance(by: DefaultModalAnimator.duration / 2)
        XCTAssertEqual(f.engine.presentation(of: f.b.view).frame.minY, 284, accuracy: 1e-6, "ease-in-out: half-way at half time")
        f.run()
        XCTAssertEqual(f.recorder.records.first?.duration, 0.3)
        XCTAssertEqual(f.recorder.records.first?.end ?? -1, 0.3, accuracy: 1e-9)
        f.modal.dismiss()
        let t0 = f.engine.now
        f.engine.advance(by: DefaultModalAnimator.duration / 2)
        XCTAssertEqual(f.engine.presentation(of: f.b.view).frame.minY, 284, accuracy: 1e-6, "dismiss slides the presented view down")
        XCTAssertEqual(f.engine.presentation(of: f.a.view).frame.minY, 0, accuracy: 1e-9, "the presenting view does not move")
        XCTAssertEqual(f.window.subviews.map(\.id), [f.a.view.id, f.b.view.id], "the presenting view is below the presented one")
        f.run()
        XCTAssertEqual(f.recorder.records.last?.start ?? -1, t0, accuracy: 1e-9)
    }

    func testPresentOverPresentedAndDismissTheTop() {
        let f = Fixture(.modal)
        f.modal.present(f.b); f.run()
        f.modal.present(f.c); f.run()
        XCTAssertEqual(f.model, ["b", "c"])
        XCTAssertEqual(f.provider.requests.last.map { [$0.from.id, $0.to.id] }, ["b", "c"])
        XCTAssertEqual(f.window.subviews.map(\.id), [f.c.view.id])
        XCTAssertNil(f.invariantProblem)
        f.modal.dismiss(); f.run()
        XCTAssertEqual(f.model, ["b"])
        XCTAssertEqual(f.provider.requests.last.map { [$0.from.id, $0.to.id] }, ["c", "b"])
        XCTAssertEqual(f.window.subviews.map(\.id), [f.b.view.id])
        f.modal.dismiss(); f.run()
        XCTAssertEqual(f.model, [])
        XCTAssertEqual(f.window.subviews.map(\.id), [f.a.view.id])
        XCTAssertNil(f.invariantProblem)
    }

    func testRefusals() {
        let f = Fixture(.modal)
        f.modal.dismiss(); f.modal.present(f.a); f.run()
        f.modal.present(f.b); f.run()
        f.modal.present(f.b); f.run()
        XCTAssertEqual(f.model, ["b"])
        XCTAssertEqual(f.warnings.count, 3, "\(f.warnings)")
    }
}
