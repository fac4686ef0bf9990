import XCTest
import TransHostCore
@testable import TransHostCoordinators

/// "State after cancel equals state before, field by field", on all three containers.
final class CancelRestorationTests: XCTestCase {
    struct Snapshot: Equatable {
        var frame: Rect, transform: Transform3D, alpha: Double, superview: String?
        var fromState: ViewState, toState: ViewState, model: [String], subviews: [String]
    }

    func snapshot(_ f: Fixture, from: ViewController, to: ViewController) -> Snapshot {
        Snapshot(frame: from.view.frame, transform: from.view.transform3D, alpha: from.view.alpha,
                 superview: from.view.superview?.id, fromState: ViewState(of: from.view), toState: ViewState(of: to.view),
                 model: f.model, subviews: f.window.subviews.map(\.id))
    }

    /// Runs an interactive forward transition routed to `animator`, cancels at `p`, and checks
    /// that everything is as before.
    func check(_ kind: ContainerKind, p: Double, _ animator: @escaping () -> TransitionAnimator?, line: UInt = #line) {
        let f = Fixture(kind)
        f.route(animator)
        let before = snapshot(f, from: f.a, to: f.b)
        let ic = InteractionController()
        f.forward(interaction: ic)
        f.run(0.2)
        ic.update(p)
        f.run(0.1)
        ic.cancel()
        f.run()
        let after = snapshot(f, from: f.a, to: f.b)
        XCTAssertEqual(after.frame, before.frame, "\(kind) frame", line: line)
        XCTAssertEqual(after.transform, before.transform, "\(kind) transform", line: line)
        XCTAssertEqual(after.alpha, before.alpha, "\(kind) alpha", line: line)
        XCTAssertEqual(after.superview, before.superview, "\(kind) superview", line: line)
        XCTAssertEqual(after.fromState.differences(from: before.fromState), [], "\(kind) from-view", line: line)
        XCTAssertEqual(after.toState.differences(from: before.toState), [], "\(kind) to-view", line: line)
        XCTAssertEqual(after.model, before.model, "\(kind) stack/selection/presented", line: line)
        XCTAssertEqual(after.subviews, before.subviews, "\(kind) container", line: line)
        XCTAssertEqual(f.engine.presentation(of: f.a.view).frame, before.frame, "\(kind): the screen shows it too", line: line)
        XCTAssertEqual(f.engine.presentation(of: f.a.view).alpha, before.alpha, line: line)
        XCTAssertEqual(f.recorder.records.map(\.outcome), [.cancelled], "\(kind)", line: line)
        XCTAssertEqual(f.recorder.begun.first?.context.completionCount, 1, "\(kind): completed exactly once", line: line)
        XCTAssertEqual(f.recorder.records.first?.breaches ?? [], [], "\(kind)", line: line)
        XCTAssertNil(f.invariantProblem, line: line)
        // The app still works: the same action completes afterwards.
        f.route { FadeScaleAnimator() }
        f.forward()
        f.run()
        XCTAssertEqual(f.top.id, "b", "\(kind)", line: line)
    }

    func testCancelWithTheSeed004AnimatorRestoresEverything() {
        for kind in ContainerKind.allCases { check(kind, p: 0.4, { FadeScaleAnimator() }) }
    }

    /// The default push and present are not interactive (UIKit consults an interaction controller
    /// only for a custom animator): a gesture on them is ignored with a warning. The one built-in
    /// interactive default, the navigation back swipe, cancels cleanly.
    func testCancelWithTheDefaultRestoresEverything() {
        for kind in [ContainerKind.navigation, .modal] {
            let f = Fixture(kind)
            f.forward(interaction: InteractionController())
            f.run()
            XCTAssertEqual(f.recorder.records.map(\.interactive), [false], "\(kind)")
            XCTAssertEqual(f.recorder.records.map(\.outcome), [.completed], "\(kind)")
            XCTAssertTrue(f.warnings.contains { $0.contains("not interactive") }, "\(kind): \(f.warnings)")
        }
        let f = Fixture(.navigation)
        f.nav.push(f.b, animated: false)
        f.run()
        let before = snapshot(f, from: f.b, to: f.a)
        let ic = InteractionController()
        f.nav.pop(interaction: ic)
        f.run(0.2); ic.update(0.6); f.run(0.1); ic.cancel(); f.run()
        let after = snapshot(f, from: f.b, to: f.a)
        XCTAssertEqual(f.recorder.records.last?.interactive, true)
        XCTAssertEqual(f.recorder.records.last?.outcome, .cancelled)
        XCTAssertEqual(after, before)
        XCTAssertEqual(f.recorder.records.last?.repairs ?? [], [])
        XCTAssertNil(f.invariantProblem)
    }

    func testHostRestoresWhatASloppyAnimatorLeftChanged() {
        for kind in ContainerKind.allCases {
            check(kind, p: 0.5, { SloppyAnimator() })
        }
        let f = Fixture(.navigation)
        f.route { SloppyAnimator() }
        let ic = InteractionController()
        f.nav.push(f.b, interaction: ic)
        ic.update(0.5); ic.cancel(); f.run()
        let restored = Set(f.recorder.records.first?.restored ?? [])
        XCTAssertTrue(restored.isSuperset(of: ["from.alpha", "from.transform", "from.bounds", "from.position", "to.superview"]), "\(restored)")
    }

    func testCancelAtZeroAndNonInteractiveCompleteFalse() {
        for kind in ContainerKind.allCases { check(kind, p: 0, { FadeScaleAnimator() }) }
        // An animator may itself decide to cancel (completeTransition(false)) without interaction.
        final class Refuser: TransitionAnimator {
            var identity: AnimatorIdentity? { AnimatorIdentity(plugin: "test-refuser", id: "refuser") }
            func transitionDuration(_ context: TransitionContext) -> Double { 0.2 }
            func animateTransition(_ ctx: TransitionContext) {
                let from = ctx.view(forKey: .from)!, to = ctx.view(forKey: .to)!
                ctx.containerView.addSubview(to)
                ctx.containerView.engine.animate(AnimationParameters(duration: 0.2), animations: { from.alpha = 0 },
                                                 completion: { _ in ctx.completeTransition(false) })
            }
        }
        for kind in ContainerKind.allCases {
            let f = Fixture(kind)
            f.route { Refuser() }
            let before = snapshot(f, from: f.a, to: f.b)
            f.forward(); f.run()
            XCTAssertEqual(snapshot(f, from: f.a, to: f.b), before, "\(kind)")
            XCTAssertEqual(f.recorder.records.map(\.outcome), [.cancelled])
        }
    }

    func testCompleteTrueAfterCancelIsABreachAndStillCancels() {
        final class Stubborn: TransitionAnimator {
            var identity: AnimatorIdentity? { AnimatorIdentity(plugin: "test-stubborn", id: "stubborn") }
            func transitionDuration(_ context: TransitionContext) -> Double { 0.2 }
            func animateTransition(_ ctx: TransitionContext) {
                let to = ctx.view(forKey: .to)!
                ctx.containerView.addSubview(to)
                ctx.containerView.engine.animate(AnimationParameters(duration: 0.2), animations: { to.alpha = 0.3 },
                                                 completion: { _ in to.alpha = 1; ctx.completeTransition(true) })
            }
        }
        for kind in ContainerKind.allCases {
            let f = Fixture(kind)
            f.route { Stubborn() }
            let ic = InteractionController()
            f.forward(interaction: ic)
            ic.update(0.5); ic.cancel(); f.run()
            XCTAssertEqual(f.recorder.records.first?.outcome, .cancelled)
            XCTAssertEqual(f.recorder.records.first?.breaches.map(\.kind), ["completed-after-cancel"])
            XCTAssertEqual(f.recorder.records.first?.breaches.first?.plugin, "test-stubborn")
            XCTAssertEqual(f.model, kind == .tab ? ["a"] : kind == .navigation ? ["a"] : [])
        }
    }
}
