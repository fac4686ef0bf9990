import XCTest
import TransHostCore
@testable import TransHostCoordinators

/// Every repair the host makes after an animator is recorded with what was left, and warned
/// about: an animator that would flicker or blank the screen on a device must not look correct.
final class HostRepairTests: XCTestCase {
    private func cancelledPush(_ animator: @escaping () -> TransitionAnimator) -> Fixture {
        let f = Fixture(.navigation)
        f.route(animator)
        let ic = InteractionController()
        f.nav.push(f.b, interaction: ic)
        ic.update(0.5); ic.cancel(); f.run()
        return f
    }

    func testASloppyCancelIsRecordedFieldByFieldWithTheValuesItLeft() throws {
        let f = cancelledPush { SloppyAnimator() }
        let r = try XCTUnwrap(f.recorder.records.first)
        XCTAssertEqual(r.outcome, .cancelled)
        let repaired = Set(r.repairs.filter { $0.kind == "field-restored" }.map(\.subject))
        XCTAssertTrue(repaired.isSuperset(of: ["from.alpha", "from.transform", "from.bounds", "from.position"]), "\(repaired)")
        XCTAssertFalse(repaired.contains("to.superview"), "the to-view leaving on a cancel is UIKit's postcondition, not a repair")
        let alpha = try XCTUnwrap(r.repairs.first { $0.subject == "from.alpha" })
        XCTAssertTrue(alpha.message.contains("at 0.2") && alpha.message.contains("put back 1"), alpha.message)
        XCTAssertTrue(f.warnings.contains { $0.contains("repaired") && $0.contains("test-sloppy") }, "\(f.warnings)")
    }

    func testACleanCancelNeedsNoRepair() {
        let f = cancelledPush { FadeScaleAnimator() }
        XCTAssertEqual(f.recorder.records.first?.outcome, .cancelled)
        XCTAssertEqual(f.recorder.records.first?.repairs ?? [HostRepair(kind: "?", subject: "?", message: "")], [])
        XCTAssertFalse(f.warnings.contains { $0.contains("repaired") }, "\(f.warnings)")
    }

    func testAFromViewRemovedBeforeACancelIsPutBackAndRecorded() throws {
        final class Remover: TransitionAnimator {
            var identity: AnimatorIdentity? { AnimatorIdentity(plugin: "test-remover", id: "remover") }
            func transitionDuration(_ context: TransitionContext) -> Double { 0.2 }
            func animateTransition(_ ctx: TransitionContext) {
                let from = ctx.view(forKey: .from)!, to = ctx.view(forKey: .to)!
                ctx.containerView.addSubview(to)
                ctx.containerView.engine.animate(AnimationParameters(duration: 0.2), animations: { to.alpha = 0.5 }, completion: { _ in
                    from.removeFromSuperview()   // a seed-style cleanup that ignores the cancel
                    to.removeFromSuperview()
                    to.alpha = 1
                    ctx.completeTransition(!ctx.transitionWasCancelled)
                })
            }
        }
        let f = cancelledPush { Remover() }
        let r = try XCTUnwrap(f.recorder.records.first)
        XCTAssertEqual(Set(r.repairs.map(\.subject)).intersection(["from.superview"]), ["from.superview"], "\(r.repairs)")
        XCTAssertTrue(f.a.view.superview === f.window, "the host put A back")
    }

    func testWatchdogToViewAndContainerRepairsAreRecorded() throws {
        final class Forgetful: TransitionAnimator {
            var identity: AnimatorIdentity? { AnimatorIdentity(plugin: "test-forgetful", id: "forgetful") }
            func transitionDuration(_ context: TransitionContext) -> Double { 0.1 }
            func animateTransition(_ ctx: TransitionContext) {}   // neither adds the to-view nor completes
        }
        let f = Fixture(.navigation)
        f.route { Forgetful() }
        f.nav.push(f.b)
        f.run(5)
        let r = try XCTUnwrap(f.recorder.records.first)
        XCTAssertEqual(r.repairs.map(\.kind), ["completed-by-host", "to-view-added"])
        XCTAssertEqual(r.breaches.map(\.kind), ["never-completed", "to-view-missing"])
    }
}
