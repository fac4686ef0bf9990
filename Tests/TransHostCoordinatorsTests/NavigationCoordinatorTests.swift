import XCTest
import TransHostCore
@testable import TransHostCoordinators

/// Stack operations of the navigation coordinator and the operation routing sees.
final class NavigationCoordinatorTests: XCTestCase {
    func makeStack(_ f: Fixture, _ extra: [ViewController]) {
        for vc in extra { f.nav.push(vc); f.run() }
    }

    func testPushAndPopChangeTheStackWhenTheyComplete() {
        let f = Fixture(.navigation)
        f.nav.push(f.b)
        XCTAssertEqual(f.model, ["a"], "the stack changes only when the transition completes")
        f.run()
        XCTAssertEqual(f.model, ["a", "b"])
        XCTAssertTrue(f.b.view.superview === f.window)
        XCTAssertNil(f.a.view.superview, "the from-view leaves the container after a push")
        XCTAssertEqual(f.b.view.frame, screen)
        f.nav.pop()
        f.run()
        XCTAssertEqual(f.model, ["a"])
        XCTAssertTrue(f.a.view.superview === f.window)
        XCTAssertNil(f.b.view.superview)
        XCTAssertEqual(f.a.view.frame, screen, "the default pop leaves the to-view at its final frame")
        XCTAssertEqual(f.provider.requests.map(\.operation), [.push, .pop])
        XCTAssertEqual(f.recorder.records.map(\.outcome), [.completed, .completed])
        XCTAssertNil(f.invariantProblem)
    }

    func testDefaultPushTimingIsDocumented() {
        let f = Fixture(.navigation)
        f.nav.push(f.b)
        f.engine.advance(by: DefaultNavigationAnimator.duration / 2)
        let mid = f.engine.presentation(of: f.b.view).frame.minX
        XCTAssertEqual(mid, 160, accuracy: 1e-6, "ease-in-out is half-way at half the duration")
        f.engine.advance(by: DefaultNavigationAnimator.duration / 2)
        f.engine.settle()
        XCTAssertEqual(f.recorder.records.first?.end ?? -1, DefaultNavigationAnimator.duration, accuracy: 1e-9)
        XCTAssertEqual(f.recorder.records.first?.duration, 0.35)
    }

    func testPopToRootAndPopToRemoveEverythingAboveInOnePop() {
        let f = Fixture(.navigation)
        let d = ViewController(id: "d", typeName: "Extra", view: View(engine: f.engine))
        makeStack(f, [f.b, f.c, d])
        XCTAssertEqual(f.model, ["a", "b", "c", "d"])
        f.nav.popTo(f.b)
        f.run()
        XCTAssertEqual(f.model, ["a", "b"])
        XCTAssertEqual(f.provider.requests.last.map { [$0.from.id, $0.to.id] }, ["d", "b"])
        XCTAssertEqual(f.provider.requests.last?.operation, .pop)
        f.nav.push(f.c); f.run()
        f.nav.popToRoot()
        f.run()
        XCTAssertEqual(f.model, ["a"])
        XCTAssertEqual(f.provider.requests.last.map { [$0.from.id, $0.to.id] }, ["c", "a"])
        XCTAssertEqual(f.window.subviews.map(\.id), [f.a.view.id])
        XCTAssertNil(f.invariantProblem)
    }

    func testPopToRefusalsAndNoOps() {
        let f = Fixture(.navigation)
        f.nav.popToRoot(); f.run()
        f.nav.popTo(f.c); f.run()
        f.nav.pop(); f.run()
        f.nav.push(f.a); f.run()
        XCTAssertEqual(f.model, ["a"])
        XCTAssertTrue(f.recorder.records.isEmpty)
        XCTAssertEqual(f.warnings.count, 3, "\(f.warnings)")
    }

    func testSetViewControllersPushesWhenTheNewTopIsNewElsePops() {
        let f = Fixture(.navigation)
        f.nav.setViewControllers([f.a, f.b, f.c])
        f.run()
        XCTAssertEqual(f.model, ["a", "b", "c"])
        XCTAssertEqual(f.provider.requests.last?.operation, .push)
        XCTAssertEqual(f.provider.requests.last.map { [$0.from.id, $0.to.id] }, ["a", "c"])

        f.nav.setViewControllers([f.b])
        f.run()
        XCTAssertEqual(f.model, ["b"])
        XCTAssertEqual(f.provider.requests.last?.operation, .pop, "b was in the old stack")
        XCTAssertEqual(f.provider.requests.last.map { [$0.from.id, $0.to.id] }, ["c", "b"])

        let count = f.recorder.records.count
        f.nav.setViewControllers([f.c, f.a, f.b])
        f.run()
        XCTAssertEqual(f.model, ["c", "a", "b"], "same top: replaced without a transition")
        XCTAssertEqual(f.recorder.records.count, count)

        f.nav.setViewControllers([]); f.nav.setViewControllers([f.a, f.a]); f.run()
        XCTAssertEqual(f.model, ["c", "a", "b"])
        XCTAssertEqual(f.warnings.count, 2)
        XCTAssertNil(f.invariantProblem)
    }

    func testSetViewControllersCancelledKeepsTheOldStack() {
        let f = Fixture(.navigation)
        f.route { FadeScaleAnimator() }
        let ic = InteractionController()
        f.nav.setViewControllers([f.c, f.b], interaction: ic)
        f.run(0.1)
        ic.update(0.3); ic.cancel()
        f.run()
        XCTAssertEqual(f.model, ["a"])
        XCTAssertEqual(f.recorder.records.last?.outcome, .cancelled)
        XCTAssertNil(f.invariantProblem)
    }

    func testNonAnimatedPushCompletesAtOnceWithoutAnimator() {
        let f = Fixture(.navigation)
        f.route { FadeScaleAnimator() }
        f.nav.push(f.b, animated: false)
        XCTAssertEqual(f.model, ["a", "b"])
        XCTAssertNil(f.recorder.records.first?.animator)
        XCTAssertEqual(f.recorder.records.first?.duration, 0)
        XCTAssertTrue(f.provider.requests.isEmpty, "a non-animated change asks no delegate")
    }

    func testRoutedAnimatorSeesTheContainerAndOperation() {
        let f = Fixture(.navigation)
        let anim = FadeScaleAnimator()
        f.route { anim }
        f.nav.push(f.b); f.run()
        XCTAssertEqual(f.provider.requests.first?.container, .navigation)
        XCTAssertEqual(f.recorder.records.first?.animator, AnimatorIdentity(plugin: "test-fade-scale", id: "fade-scale"))
        XCTAssertEqual(anim.completions, 1)
        XCTAssertEqual(anim.ended, [true])
        XCTAssertEqual(f.a.view.transform, .identity)
    }
}
