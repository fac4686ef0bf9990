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

    /// A view outside the transition's container (a bar beside a navigation controller's view)
    /// animates alongside a push just the same, and the push's controllers see the coordinator.
    func testViewsOutsideTheContainerAnimateAlongside() {
        let f = Fixture(.navigation)
        let bar = View(engine: f.engine, frame: Rect(x: 0, y: 0, width: 320, height: 44), name: "bar")
        bar.alpha = 1
        XCTAssertFalse(bar.isDescendant(of: f.window))
        f.route { WithAlongside(FadeScaleAnimator()) { ctx in
            XCTAssertTrue(ctx.coordinator.animate(alongsideTransition: { bar.alpha = 0 }))
            XCTAssertEqual(ctx.coordinator.presentationStyle, .fullScreen, "not a presentation")
            XCTAssertTrue(ctx.coordinator.isAnimated)
            XCTAssertFalse(ctx.coordinator.isInteractive)
            assertClose(ctx.coordinator.transitionDuration, FadeScaleAnimator.duration)
        } }
        f.forward()
        f.engine.advance(by: FadeScaleAnimator.duration / 2)
        assertClose(f.engine.presentation(of: bar).alpha, 0.5, accuracy: 1e-9, "ease-in-out is halfway at half time")
        assertClose(f.host.active?.context.coordinator.percentComplete ?? -1, 0.5, accuracy: 1e-9)
        f.run()
        XCTAssertEqual(bar.alpha, 0)
        XCTAssertEqual(f.engine.presentation(of: bar).alpha, 0)
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

    /// A custom presentation controller that dims the presenter alongside, logging its hooks.
    final class Dimming: PresentationController {
        var log: (String) -> Void = { _ in }
        var dimming: View?
        weak var host: TransitionHost?
        override var frameOfPresentedViewInContainerView: Rect {
            guard let c = containerView else { return .zero }
            return Rect(x: 0, y: c.bounds.height / 2, width: c.bounds.width, height: c.bounds.height / 2)
        }
        override func presentationTransitionWillBegin() {
            log("willBegin")
            guard let container = containerView, let ctx = host?.active?.context else { return }
            let v = View(engine: container.engine, frame: container.bounds, name: "dimming")
            v.alpha = 0
            container.addSubview(v)
            dimming = v
            ctx.coordinator.animate(alongsideTransition: { v.alpha = 1 }, completion: { [self] c in log("completion cancelled=\(c.isCancelled)") })
        }
        override func presentationTransitionDidEnd(_ completed: Bool) { log("didEnd \(completed)") }
    }

    /// A custom presentation's animator: only the sheet (the to-view) moves, up from below.
    final class SheetAnimator: TransitionAnimator {
        var identity: AnimatorIdentity? { AnimatorIdentity(plugin: "test-sheet", id: "sheet") }
        func transitionDuration(_ context: TransitionContext) -> Double { 0.25 }
        func animateTransition(_ ctx: TransitionContext) {
            let sheet = ctx.view(forKey: .to)!
            XCTAssertNil(ctx.view(forKey: .from), "custom: no from-view, the presenter's stays")
            sheet.frame = ctx.finalFrame(for: ctx.toViewController)
            ctx.containerView.addSubview(sheet)
            sheet.transform = AffineTransform(translationX: 0, y: 284)
            ctx.containerView.engine.animate(AnimationParameters(duration: 0.25), animations: { sheet.transform = .identity },
                                             completion: { _ in
                sheet.transform = .identity
                ctx.completeTransition(!ctx.transitionWasCancelled)
            })
        }
    }

    final class Vendor: PresentationControllerProvider {
        var made: [Dimming] = []
        var log: (String) -> Void = { _ in }
        weak var host: TransitionHost?
        func presentationController(forPresented presented: ViewController, presenting: ViewController,
                                    source: ViewController, style: ModalPresentationStyle) -> PresentationController? {
            guard style == .custom else { return nil }
            let pc = Dimming(presentedViewController: presented, presenting: presenting, source: source, style: style)
            pc.log = log
            pc.host = host
            made.append(pc)
            return pc
        }
    }

    func testUnanimatedPresentationAppliesAlongsideAtOnce() {
        let f = Fixture(.modal)
        let vendor = Vendor()
        var log: [String] = []
        vendor.log = { log.append($0) }
        vendor.host = f.host
        f.modal.presentationControllerProvider = vendor
        f.modal.present(f.b, style: .custom, animated: false)
        f.run()
        let dimming = try! XCTUnwrap(vendor.made.first?.dimming)
        XCTAssertEqual(dimming.alpha, 1)
        XCTAssertFalse(f.engine.isAnimating(dimming, .alpha))
        XCTAssertEqual(log, ["willBegin", "didEnd true", "completion cancelled=false"])
    }

    /// The order: willBegin before animateTransition (its alongside blocks start with the
    /// animator); at the end DidEnd with the outcome, the coordinator's completions, then
    /// animationEnded.
    func testEndOrderAndValues() {
        for cancel in [false, true] {
            let f = Fixture(.modal)
            var log: [String] = []
            final class Logging: TransitionAnimator {
                let inner = SheetAnimator()
                let log: (String) -> Void
                init(_ log: @escaping (String) -> Void) { self.log = log }
                var identity: AnimatorIdentity? { inner.identity }
                func transitionDuration(_ context: TransitionContext) -> Double { inner.transitionDuration(context) }
                func animateTransition(_ ctx: TransitionContext) { log("animateTransition"); inner.animateTransition(ctx) }
                func animationEnded(_ transitionCompleted: Bool) { log("animationEnded \(transitionCompleted)") }
            }
            let vendor = Vendor()
            vendor.log = { log.append($0) }
            vendor.host = f.host
            f.modal.presentationControllerProvider = vendor
            f.route { Logging { log.append($0) } }
            let ic = cancel ? InteractionController() : nil
            f.modal.present(f.b, style: .custom, interaction: ic)
            ic?.update(0.4)
            let dimming = try! XCTUnwrap(vendor.made.first?.dimming)
            if cancel { assertClose(f.engine.presentation(of: dimming).alpha, TimingCurve.easeInOut.progress(0.4, duration: 0.25), accuracy: 1e-9) }
            ic?.cancel()
            f.run()
            XCTAssertEqual(log, ["willBegin", "animateTransition", "didEnd \(!cancel)", "completion cancelled=\(cancel)",
                                 "animationEnded \(!cancel)"], "cancel: \(cancel)")
            XCTAssertEqual(dimming.alpha, cancel ? 0 : 1, "rolled back on a cancel, kept otherwise")
            XCTAssertEqual(f.engine.presentation(of: dimming).alpha, cancel ? 0 : 1)
            if !cancel {
                XCTAssertEqual(f.b.view.frame, Rect(x: 0, y: 284, width: 320, height: 284), "the presentation controller's frame")
                XCTAssertTrue(f.a.view.superview === f.window, "custom: the presenter's view stays")
            }
        }
    }
}
