import XCTest
import TransHostCore
@testable import TransHostCoordinators

/// Appearance forwarding in a controller tree (a tab bar of two navigation controllers under a
/// window), and containers that change while off screen.
final class ControllerTreeAppearanceTests: XCTestCase {
    final class Tree {
        let engine = AnimationEngine()
        let host: TransitionHost
        let window: View
        let tabBar: ViewController, nav0: ViewController, nav1: ViewController
        let x: ViewController, y: ViewController, z: ViewController, m: ViewController
        let modal: ModalCoordinator
        let provider = TestProvider()
        let recorder = Recorder()
        init() {
            host = TransitionHost(engine: engine)
            window = View(engine: engine, frame: screen, name: "window")
            let engine = self.engine
            func vc(_ id: String, _ type: String) -> ViewController {
                ViewController(id: id, typeName: type, view: View(engine: engine, frame: screen))
            }
            tabBar = vc("tabs", "UITabBarController"); nav0 = vc("nav0", "UINavigationController"); nav1 = vc("nav1", "UINavigationController")
            x = vc("x", "X"); y = vc("y", "Y"); z = vc("z", "Z"); m = vc("m", "M")
            _ = NavigationCoordinator(root: x, view: nav0.view, host: host, owner: nav0)
            _ = NavigationCoordinator(root: y, view: nav1.view, host: host, owner: nav1)
            _ = TabCoordinator(controllers: [nav0, nav1], view: tabBar.view, host: host, owner: tabBar)
            modal = ModalCoordinator(root: tabBar, view: window, host: host)
            host.provider = provider
            host.observer = recorder
        }
        func run() { engine.advance(by: 5); engine.settle() }
        func events(_ i: Int) -> [String] { recorder.records[i].appearance.map { "\($0.controller).\($0.kind.rawValue)" } }
    }

    func testTheTreeIsLinked() {
        let t = Tree()
        XCTAssertTrue(t.x.parent === t.nav0)
        XCTAssertTrue(t.nav0.parent === t.tabBar)
        XCTAssertTrue(t.x.navigationController === t.nav0)
        XCTAssertEqual(t.tabBar.children.map(\.id), ["nav0", "nav1"])
        XCTAssertEqual(t.tabBar.visibleLeaf.id, "x")
        t.nav0.navigationCoordinator!.push(t.z); t.run()
        XCTAssertTrue(t.z.parent === t.nav0)
        t.nav0.navigationCoordinator!.pop(); t.run()
        XCTAssertNil(t.z.parent, "a popped controller leaves the tree")
    }

    func testACancelledTabSwitchStaysBalancedDownTheTree() {
        let t = Tree()
        t.provider.make = { _ in FadeScaleAnimator() }
        let ic = InteractionController()
        t.tabBar.tabCoordinator!.select(1, interaction: ic)
        ic.update(0.5); ic.cancel(); t.run()
        XCTAssertEqual(t.events(0), ["nav0.willDisappear", "x.willDisappear", "nav1.willAppear", "y.willAppear",
                                     "nav1.willDisappear", "y.willDisappear", "nav1.didDisappear", "y.didDisappear",
                                     "nav0.willAppear", "x.willAppear", "nav0.didAppear", "x.didAppear"])
        XCTAssertNil(appearanceProblem(t.recorder.records, initiallyVisible: ["nav0", "x"]))
    }

    func testATabSwitchUnderAFullScreenModalIsImmediateAndSilent() {
        let t = Tree()
        t.modal.present(t.m); t.run()
        XCTAssertFalse(t.host.isOnScreen(t.tabBar.view))
        t.tabBar.tabCoordinator!.select(1); t.run()
        XCTAssertEqual(t.recorder.records.count, 1, "no transition off screen")
        XCTAssertEqual(t.tabBar.tabCoordinator!.selectedIndex, 1)
        XCTAssertTrue(t.nav1.view.superview === t.tabBar.view)
        XCTAssertNil(t.nav0.view.superview)
        t.modal.dismiss(); t.run()
        XCTAssertEqual(t.events(1), ["m.willDisappear", "tabs.willAppear", "nav1.willAppear", "y.willAppear",
                                     "m.didDisappear", "tabs.didAppear", "nav1.didAppear", "y.didAppear"],
                       "the tab selected meanwhile appears with the tab bar controller")
    }

    func testPushingAControllerThatContainsTheNavigationControllerIsAnError() {
        let t = Tree()
        var errors: [String] = []
        t.host.errorHandler = { errors.append($0) }
        t.host.placement = { _, _ in nil }
        t.nav0.navigationCoordinator!.push(t.tabBar); t.run()
        XCTAssertEqual(t.nav0.navigationCoordinator!.stack.map(\.id), ["x"])
        XCTAssertTrue(errors.first?.contains("it contains the navigation controller UINavigationController (nav0)") ?? false, "\(errors)")
    }
}
