import XCTest
import TransHostCore
@testable import TransHostCoordinators

/// Presentation styles and the presentation controller, against UIKit's documented behaviour:
/// which views the context gives, whether the presenter's view stays in the window, who hears
/// appearance callbacks, and the presentation controller's hooks.
final class PresentationStyleTests: XCTestCase {
    /// Records what an animator was given, then runs the host's default.
    final class Spy: TransitionAnimator {
        var seen: [(op: TransitionOperation, from: View?, to: View?, container: View)] = []
        let inner = DefaultModalAnimator(operation: .present)
        var identity: AnimatorIdentity? { AnimatorIdentity(plugin: "spy", id: "spy") }
        func transitionDuration(_ context: TransitionContext) -> Double { 0.3 }
        func animateTransition(_ ctx: TransitionContext) {
            seen.append((ctx.operation, ctx.view(forKey: .from), ctx.view(forKey: .to), ctx.containerView))
            DefaultModalAnimator(operation: ctx.operation).animateTransition(ctx)
        }
    }

    /// A half-height sheet that logs its hooks.
    final class Sheet: PresentationController {
        var log: [String] = []
        override var frameOfPresentedViewInContainerView: Rect {
            let b = containerView?.bounds ?? .zero
            return Rect(x: 0, y: b.height / 2, width: b.width, height: b.height / 2)
        }
        override func presentationTransitionWillBegin() { log.append("present.willBegin") }
        override func presentationTransitionDidEnd(_ completed: Bool) { log.append("present.didEnd(\(completed))") }
        override func dismissalTransitionWillBegin() { log.append("dismiss.willBegin") }
        override func dismissalTransitionDidEnd(_ completed: Bool) { log.append("dismiss.didEnd(\(completed))") }
        override func containerViewWillLayoutSubviews() { log.append("layout") }
    }

    final class SheetProvider: PresentationControllerProvider {
        var made: [Sheet] = []
        func presentationController(forPresented presented: ViewController, presenting: ViewController, source: ViewController,
                                    style: ModalPresentationStyle) -> PresentationController? {
            guard style == .custom else { return nil }
            let s = Sheet(presentedViewController: presented, presenting: presenting, source: source, style: style)
            made.append(s)
            return s
        }
    }

    func events(_ f: Fixture, _ i: Int) -> [String] {
        f.recorder.records[i].appearance.map { "\($0.controller).\($0.kind.rawValue)" }
    }

    func testOverFullScreenKeepsThePresenterAndGivesNoPresenterView() {
        let f = Fixture(.modal)
        let spy = Spy()
        f.route { spy }
        f.modal.present(f.b, style: .overFullScreen); f.run()
        XCTAssertNil(spy.seen[0].from, "UIKit: view(forKey: .from) is nil when the presenter's view stays")
        XCTAssertTrue(spy.seen[0].to === f.b.view)
        XCTAssertTrue(f.a.view.superview === f.window, "over full screen: the presenter's view stays in the window")
        XCTAssertEqual(f.window.subviews.map(\.id), [f.a.view.id, f.b.view.id])
        XCTAssertEqual(events(f, 0), ["b.willAppear", "b.didAppear"], "the presenter gets no appearance callbacks")
        XCTAssertNil(f.invariantProblem)
        f.modal.dismiss(); f.run()
        XCTAssertTrue(spy.seen[1].from === f.b.view)
        XCTAssertNil(spy.seen[1].to, "UIKit: view(forKey: .to) is nil on dismissal when the presenter's view stayed")
        XCTAssertEqual(events(f, 1), ["b.willDisappear", "b.didDisappear"])
        XCTAssertEqual(f.window.subviews.map(\.id), [f.a.view.id])
    }

    func testFullScreenRemovesThePresenterAndGivesBothViews() {
        let f = Fixture(.modal)
        let spy = Spy()
        f.route { spy }
        f.b.modalPresentationStyle = .fullScreen
        f.modal.present(f.b); f.run()
        XCTAssertTrue(spy.seen[0].from === f.a.view)
        XCTAssertNil(f.a.view.superview)
        f.modal.dismiss(); f.run()
        XCTAssertTrue(spy.seen[1].to === f.a.view)
        XCTAssertTrue(f.a.view.superview === f.window)
    }

    func testCustomPresentationControllerLaysOutAndHearsItsHooks() {
        let f = Fixture(.modal)
        let provider = SheetProvider()
        f.modal.presentationControllerProvider = provider
        f.b.modalPresentationStyle = .custom
        f.modal.present(f.b); f.run()
        let sheet = try! XCTUnwrap(provider.made.first)
        XCTAssertEqual(sheet.log, ["present.willBegin", "layout", "present.didEnd(true)"])
        XCTAssertTrue(sheet.containerView === f.window)
        XCTAssertEqual(f.b.view.frame, Rect(x: 0, y: 284, width: 320, height: 284), "the final frame is the controller's")
        XCTAssertTrue(f.a.view.superview === f.window, "custom: shouldRemovePresentersView is false by default")
        XCTAssertTrue(f.b.presentingViewController === f.a)
        XCTAssertTrue(f.a.presentedViewController === f.b)
        f.modal.dismiss(); f.run()
        XCTAssertEqual(sheet.log.suffix(3), ["dismiss.willBegin", "layout", "dismiss.didEnd(true)"])
        XCTAssertNil(f.a.presentedViewController)
        XCTAssertEqual(provider.made.count, 1, "the dismissal uses the presentation's own controller")
    }

    func testCancelledCustomPresentationEndsWithCompletedFalseAndKeepsTheChain() {
        let f = Fixture(.modal)
        let provider = SheetProvider()
        f.modal.presentationControllerProvider = provider
        let spy = Spy()
        f.route { spy }
        let ic = InteractionController()
        f.modal.present(f.b, style: .custom, interaction: ic)
        ic.update(0.4); ic.cancel(); f.run()
        XCTAssertEqual(provider.made.first?.log, ["present.willBegin", "layout", "present.didEnd(false)"])
        XCTAssertEqual(f.model, [])
        XCTAssertNil(f.a.presentedViewController)
        XCTAssertNil(f.b.view.superview)
    }

    /// root (plain) embeds `context` (defines the presentation context) which embeds `leaf`.
    func contextTree(_ f: Fixture) -> (context: ViewController, leaf: ViewController) {
        let context = ViewController(id: "ctx", typeName: "Context", view: View(engine: f.engine, frame: Rect(x: 0, y: 100, width: 320, height: 300)))
        let leaf = ViewController(id: "leaf", typeName: "Leaf", view: View(engine: f.engine, frame: Rect(x: 0, y: 0, width: 320, height: 300)))
        context.definesPresentationContext = true
        f.a.addChild(context)
        context.addChild(leaf)
        return (context, leaf)
    }

    func testCurrentContextCoversTheContextAndPutsItsContentBack() {
        let f = Fixture(.modal)
        let (context, leaf) = contextTree(f)
        let spy = Spy()
        f.route { spy }
        f.modal.present(f.b, from: leaf, style: .currentContext); f.run()
        XCTAssertTrue(spy.seen[0].container === context.view, "the container is the view of the controller that defines the context")
        XCTAssertNil(spy.seen[0].from, "the presenter's view is the container itself")
        XCTAssertTrue(f.b.presentingViewController === context, "UIKit walks up to the controller that defines the context")
        XCTAssertEqual(f.provider.requests.last?.source?.id, "leaf", "routing sees the real source")
        XCTAssertEqual(f.provider.requests.last?.from.id, "ctx")
        XCTAssertEqual(f.b.view.frame, Rect(x: 0, y: 0, width: 320, height: 300), "the presented view fills the context")
        XCTAssertNil(leaf.view.superview, "currentContext: the context's content leaves once covered")
        XCTAssertTrue(context.view.superview === f.a.view, "the rest of the screen stays")
        XCTAssertEqual(events(f, 0), ["ctx.willDisappear", "leaf.willDisappear", "b.willAppear", "ctx.didDisappear", "leaf.didDisappear", "b.didAppear"])
        f.modal.dismiss(); f.run()
        XCTAssertTrue(leaf.view.superview === context.view, "the content is back for the dismissal")
        XCTAssertNil(f.b.view.superview)
        XCTAssertEqual(events(f, 1), ["b.willDisappear", "ctx.willAppear", "leaf.willAppear", "b.didDisappear", "ctx.didAppear", "leaf.didAppear"])
    }

    func testOverCurrentContextKeepsTheContent() {
        let f = Fixture(.modal)
        let (context, leaf) = contextTree(f)
        f.modal.present(f.b, from: leaf, style: .overCurrentContext); f.run()
        XCTAssertTrue(f.b.view.superview === context.view)
        XCTAssertTrue(leaf.view.superview === context.view, "overCurrentContext: the views beneath are not removed")
        XCTAssertEqual(events(f, 0), ["b.willAppear", "b.didAppear"])
    }

    func testContextStyleWithoutADefiningControllerCoversTheTreeRoot() {
        let f = Fixture(.modal)
        let (context, leaf) = contextTree(f)
        context.definesPresentationContext = false
        f.modal.present(f.b, from: leaf, style: .overCurrentContext); f.run()
        XCTAssertTrue(f.b.presentingViewController === f.a)
        XCTAssertTrue(f.b.view.superview === f.a.view)
    }

    func testPresentingFromAControllerThatAlreadyPresentsIsRefused() {
        let f = Fixture(.modal)
        f.modal.present(f.b); f.run()
        f.modal.present(f.c, from: f.a); f.run()
        XCTAssertEqual(f.model, ["b"])
        XCTAssertTrue(f.warnings.last?.contains("is already presenting Detail (b)") ?? false, "\(f.warnings)")
    }

    func testDismissingFromLowerInTheChainAnimatesOnlyTheTop() {
        let f = Fixture(.modal)
        let spy = Spy()
        f.route { spy }
        f.modal.present(f.b); f.run()
        f.modal.present(f.c, style: .overFullScreen); f.run()
        XCTAssertEqual(f.window.subviews.map(\.id), [f.b.view.id, f.c.view.id])
        f.modal.dismiss(f.a)
        XCTAssertNil(f.b.view.superview, "the middle of the chain leaves at once")
        f.run()
        XCTAssertEqual(f.recorder.records.count, 3, "one transition for the whole chain")
        let r = f.recorder.records[2]
        XCTAssertEqual([r.fromID, r.toID, r.operation.rawValue], ["c", "a", "dismiss"])
        XCTAssertTrue(spy.seen[2].to === f.a.view, "the root's view was removed by b's full-screen presentation, so it is given")
        XCTAssertEqual(events(f, 2), ["c.willDisappear", "b.willDisappear", "a.willAppear", "c.didDisappear", "b.didDisappear", "a.didAppear"])
        XCTAssertEqual(f.model, [])
        XCTAssertEqual(f.window.subviews.map(\.id), [f.a.view.id])
        XCTAssertNil(f.b.presentingViewController)
        XCTAssertNil(f.invariantProblem)
    }

    func testCancelledChainDismissalPutsTheMiddleBack() {
        let f = Fixture(.modal)
        f.modal.present(f.b); f.run()
        f.modal.present(f.c, style: .overFullScreen); f.run()
        let spy = Spy()
        f.route { spy }
        let ic = InteractionController()
        f.modal.dismiss(f.a, interaction: ic)
        ic.update(0.3); ic.cancel(); f.run()
        XCTAssertEqual(f.model, ["b", "c"])
        XCTAssertEqual(f.window.subviews.map(\.id), [f.b.view.id, f.c.view.id])
        XCTAssertNil(f.a.view.superview)
        XCTAssertEqual(events(f, 2), ["c.willDisappear", "b.willDisappear", "a.willAppear", "a.willDisappear", "a.didDisappear",
                                      "b.willAppear", "b.didAppear", "c.willAppear", "c.didAppear"], "balanced after the cancel")
    }

    func testDismissSentToAPresentedControllerThatPresentsNothingDismissesItself() {
        let f = Fixture(.modal)
        f.modal.present(f.b); f.run()
        f.modal.present(f.c); f.run()
        f.modal.dismiss(f.b); f.run()
        XCTAssertEqual(f.model, ["b"], "b presents c, so dismiss sent to b dismisses c")
        f.modal.dismiss(f.b); f.run()
        XCTAssertEqual(f.model, [])
    }
}
