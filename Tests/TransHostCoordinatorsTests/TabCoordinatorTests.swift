import XCTest
import TransHostCore
@testable import TransHostCoordinators

/// Tab selection: by index or controller, the immediate default, routing's from/to.
final class TabCoordinatorTests: XCTestCase {
    func testDefaultSelectIsImmediate() {
        let f = Fixture(.tab)
        f.tab.select(2)
        XCTAssertEqual(f.tab.selectedIndex, 2, "no animation: the switch happens at once")
        XCTAssertTrue(f.c.view.superview === f.window)
        XCTAssertNil(f.a.view.superview)
        XCTAssertEqual(f.c.view.frame, screen)
        let r = f.recorder.records.first
        XCTAssertEqual(r?.duration, 0)
        XCTAssertNil(r?.animator)
        XCTAssertEqual(r?.start, r?.end)
        XCTAssertEqual(r?.container, .tab)
        XCTAssertEqual(r?.operation, .select)
        XCTAssertNil(f.invariantProblem)
    }

    func testSelectByControllerAndRoutingSeesFromAndTo() {
        let f = Fixture(.tab)
        f.route { FadeScaleAnimator() }
        f.tab.select(f.b)
        XCTAssertEqual(f.tab.selectedIndex, 0, "an animated selection changes on completion")
        f.run()
        XCTAssertEqual(f.tab.selectedViewController.id, "b")
        let req = f.provider.requests.first
        XCTAssertEqual(req?.container, .tab)
        XCTAssertEqual(req?.operation, .select)
        XCTAssertEqual(req?.from.id, "a")
        XCTAssertEqual(req?.to.id, "b")
        XCTAssertEqual(f.recorder.records.first?.duration, FadeScaleAnimator.duration)
        XCTAssertNil(f.invariantProblem)
    }

    func testSelectingTheSelectedTabDoesNothing() {
        let f = Fixture(.tab)
        f.tab.select(0); f.tab.select(f.a); f.run()
        XCTAssertTrue(f.recorder.records.isEmpty)
        XCTAssertTrue(f.provider.requests.isEmpty)
        XCTAssertTrue(f.warnings.isEmpty)
    }

    func testOutOfRangeAndUnknownControllersAreRefused() {
        let f = Fixture(.tab)
        let stranger = ViewController(id: "x", typeName: "X", view: View(engine: f.engine))
        f.tab.select(7); f.tab.select(-1); f.tab.select(stranger); f.run()
        XCTAssertEqual(f.tab.selectedIndex, 0)
        XCTAssertEqual(f.warnings.count, 3)
    }
}
