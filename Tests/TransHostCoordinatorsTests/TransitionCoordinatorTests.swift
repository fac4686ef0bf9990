import XCTest
import TransHostCore
@testable import TransHostCoordinators

/// The transition coordinator: a dimming view animated alongside a present follows the
/// transition frame by frame, is scrubbed with an interactive one and rolled back on a cancel;
/// completions, animationEnded and a participant's DidEnd come in UIKit's order with the
/// outcome.
final class TransitionCoordinatorTests: XCTestCase {
    /// Runs `before(ctx)` as a presentation controller's willBegin would (before the animator
    /// starts), then the inner animator.
    final class WithAlongside: TransitionAnimator {
        let inner: TransitionAnimator
        let before: (TransitionContext) -> Void
        init(_ inner: TransitionAnimator, _ before: @escaping (TransitionContext) -> Void) { self.inner = inner; self.before = before }
        var identity: AnimatorIdentity? { inner.identity }
        func transitionDuration(_ context: TransitionContext) -> Double { inner.transitionDuration(context) }
        func animateTransition(_ ctx: TransitionContext) { before(ctx); inner.animateTransition(ctx) }
        func animationEnded(_ transitionCompleted: Bool) { inner.animationEnded(transitionCompleted) }
    }

    /// A dimming view outside the container's controllers, at alpha 0, faded to 1 alongside.
    func dimmed(_ f: Fixture, log: @escaping (String) -> Void = { _ in }) -> View {
        let dimming = View(engine: f.engine, frame: screen, name: "dimming")
        dimming.alpha = 0
        f.window.addSubview(dimming)
        f.route {
            WithAlongside(FadeScaleAnimator()) { ctx in
                ctx.coordinator.animate(alongsideTransition: { dimming.alpha = 1 }, completion: { c in
                    log("completion cancelled=\(c.isCancelled)")
                })
            }
        }
        return dimming
    }

    func testDimmingFollowsThePresentFrameByFrame() {
        let f = Fixture(.modal)
        let dimming = dimmed(f)
        f.forward()
        let d = FadeScaleAnimator.duration
        for step in 0...5 {
            let t = Double(step) * 0.05
            if step > 0 { f.engine.advance(by: 0.05) }
            let expected = TimingCurve.easeInOut.progress(t / d, duration: d)
            assertClose(f.engine.presentation(of: dimming).alpha, expected, accuracy: 1e-9, "t = \(t)")
            // It keeps pace with the animator's own ease-in-out fade of the presented view.
            assertClose(f.engine.presentation(of: dimming).alpha, f.engine.presentation(of: f.b.view).alpha, accuracy: 1e-9)
        }
        f.run()
        XCTAssertEqual(dimming.alpha, 1)
        XCTAssertNil(f.host.active)
    }

    func testInteractiveScrubsTheDimmingAndCancelRollsItBack() {
        let f = Fixture(.modal)
        var log: [String] = []
        let dimming = dimmed(f) { log.append($0) }
        let ic = InteractionController()
        ic.completionSpeed = 2
        f.forward(interaction: ic)
        f.run(1)
        ic.update(0.5)
        assertClose(f.engine.presentation(of: dimming).alpha, 0.5, accuracy: 1e-9, "ease-in-out is 0.5 at half time")
        let coordinator = f.host.active!.context.coordinator!
        var heard: [(Bool, Bool, Double, Double)] = []
        coordinator.notifyWhenInteractionChanges { c in heard.append((c.isInteractive, c.isCancelled, c.percentComplete, c.completionVelocity)) }
        XCTAssertTrue(coordinator.isInteractive)
        assertClose(coordinator.percentComplete, 0.5)
        ic.cancel()
        XCTAssertEqual(heard.count, 1, "the handler runs once, at the release")
        XCTAssertEqual(heard.first?.0, false, "no longer interactive")
        XCTAssertEqual(heard.first?.1, true, "cancelled")
        assertClose(heard.first?.2 ?? -1, 0.5)
        assertClose(heard.first?.3 ?? -1, 2, accuracy: 0, "completionVelocity is the completion speed")
        XCTAssertEqual(log, [], "completions wait for the end")
        f.run()
        XCTAssertEqual(f.recorder.records.last?.outcome, .cancelled)
        XCTAssertEqual(log, ["completion cancelled=true"])
        XCTAssertEqual(dimming.alpha, 0, "the model alpha is back where it was before the alongside block")
        XCTAssertEqual(f.engine.presentation(of: dimming).alpha, 0)
        XCTAssertFalse(coordinator.animate(alongsideTransition: { dimming.alpha = 1 }), "nothing is accepted once the transition ended")
        XCTAssertEqual(dimming.alpha, 0)
    }

    func testFinishedInteractiveKeepsTheDimming() {
        let f = Fixture(.modal)
        var log: [String] = []
        let dimming = dimmed(f) { log.append($0) }
        let ic = InteractionController()
        f.forward(interaction: ic)
        ic.update(0.3)
        ic.finish()
        f.run()
        XCTAssertEqual(f.recorder.records.last?.outcome, .completed)
        XCTAssertEqual(log, ["completion cancelled=false"])
        XCTAssertEqual(dimming.alpha, 1)
    }

    func testUnanimatedTransitionAppliesAlongsideAtOnce() {
        let f = Fixture(.modal)
        let dimming = View(engine: f.engine, frame: screen)
        dimming.alpha = 0
        var completed = 0
        let p = Participant { ctx in ctx.coordinator.animate(alongsideTransition: { dimming.alpha = 0.4 }, completion: { _ in completed += 1 }) }
        f.host.begin(container: .modal, operation: .present, from: f.a, to: f.b, containerView: f.window, animated: false,
                     initialFrames: [:], finalFrames: [ObjectIdentifier(f.b): screen], participants: [p],
                     defaultAnimator: DefaultModalAnimator(operation: .present), finish: { _ in })
        XCTAssertEqual(dimming.alpha, 0.4)
        XCTAssertFalse(f.engine.isAnimating(dimming, .alpha))
        XCTAssertEqual(completed, 1)
        XCTAssertEqual(p.log, ["willBegin", "didEnd true"])
    }

    final class Participant: TransitionParticipant {
        var log: [String] = []
        let onBegin: (TransitionContext) -> Void
        init(_ onBegin: @escaping (TransitionContext) -> Void = { _ in }) { self.onBegin = onBegin }
        func transitionWillBegin(_ context: TransitionContext) { log.append("willBegin"); onBegin(context) }
        func transitionDidEnd(_ context: TransitionContext, completed: Bool) { log.append("didEnd \(completed)") }
    }

    /// UIKit's order: willBegin before animateTransition; at the end the coordinator's
    /// completions, then animationEnded, then DidEnd, each with the outcome.
    func testEndOrderAndValues() {
        for cancel in [false, true] {
            let f = Fixture(.modal)
            var log: [String] = []
            final class Logging: TransitionAnimator {
                let inner = FadeScaleAnimator()
                let log: (String) -> Void
                init(_ log: @escaping (String) -> Void) { self.log = log }
                var identity: AnimatorIdentity? { inner.identity }
                func transitionDuration(_ context: TransitionContext) -> Double { inner.transitionDuration(context) }
                func animateTransition(_ ctx: TransitionContext) { log("animateTransition"); inner.animateTransition(ctx) }
                func animationEnded(_ transitionCompleted: Bool) { log("animationEnded \(transitionCompleted)") }
            }
            let p = Participant { ctx in
                log.append("willBegin")
                ctx.coordinator.animate(alongsideTransition: nil, completion: { c in log.append("completion cancelled=\(c.isCancelled)") })
            }
            let ic = cancel ? InteractionController() : nil
            f.route { Logging { log.append($0) } }
            f.host.begin(container: .modal, operation: .present, from: f.a, to: f.b, containerView: f.window, animated: true,
                         initialFrames: [:], finalFrames: [ObjectIdentifier(f.b): screen], interaction: ic, participants: [p],
                         defaultAnimator: DefaultModalAnimator(operation: .present), finish: { done in log.append("finish \(done)") })
            ic?.update(0.4)
            ic?.cancel()
            f.run()
            let didEnd = p.log.last!
            XCTAssertEqual(log + [didEnd], ["willBegin", "animateTransition", "finish \(!cancel)", "completion cancelled=\(cancel)",
                                            "animationEnded \(!cancel)", "didEnd \(!cancel)"], "cancel: \(cancel)")
        }
    }
}
