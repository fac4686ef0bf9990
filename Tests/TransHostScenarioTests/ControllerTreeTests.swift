import TransHostCoordinators
import TransHostCore
import TransHostScenario
import XCTest

/// Scenarios with a controller tree: nested containers, presentation styles, the operations
/// that act on the right container, and UIKit's appearance forwarding.
final class ControllerTreeTests: XCTestCase {
    /// Plain controllers a, b, c, d, e, m (types A...), plus `extra` entries, under `root`.
    func play(_ root: String, extra: String = "", script: String, file: StaticString = #filePath, line: UInt = #line) throws -> (App, RunResult) {
        let plain = ["a", "b", "c", "d", "e", "m"].map { "\"\($0)\": {\"type\": \"\($0.uppercased())\"}" }.joined(separator: ", ")
        let text = """
        {"name": "tree", "controllers": {\(plain)\(extra.isEmpty ? "" : ", " + extra)},
         "root": \(root), "script": \(script)}
        """
        let scenario = try Scenario.parse(text, file: "tree.json")
        let app = App(scenario: scenario)
        let result = ScenarioRunner(app: app, provider: nil).run()
        return (app, result)
    }

    func stack(_ app: App, _ id: String) -> [String] { app.controllers[id]?.navigationCoordinator?.stack.map(\.id) ?? [] }

    func events(_ r: RunResult, _ i: Int) -> [String] {
        r.transitions[i].record.appearance.map { "\($0.controller).\($0.kind.rawValue)" }
    }

    let twoNavs = """
    "nav0": {"container": "navigation", "stack": ["a"]}, "nav1": {"container": "navigation", "stack": ["c"]}
    """

    func testATabOfNavigationControllersPushesOntoTheSelectedTab() throws {
        let (app, r) = try play(#"{"container": "tab", "tabs": ["nav0", "nav1"]}"#, extra: twoNavs, script: """
        [{"action": "push", "controller": "b"}, {"action": "select", "index": 1}, {"action": "push", "controller": "d"}]
        """)
        XCTAssertEqual(stack(app, "nav0"), ["a", "b"])
        XCTAssertEqual(stack(app, "nav1"), ["c", "d"])
        XCTAssertEqual(r.transitions.map { "\($0.record.container.rawValue).\($0.record.fromID)->\($0.record.toID)" },
                       ["navigation.a->b", "tab.nav0->nav1", "navigation.c->d"], "routing sees the real from and to controllers")
        XCTAssertEqual(events(r, 1), ["nav0.willDisappear", "b.willDisappear", "nav1.willAppear", "c.willAppear",
                                      "nav0.didDisappear", "b.didDisappear", "nav1.didAppear", "c.didAppear"],
                       "a tab switch forwards appearance to each tab's top controller")
        XCTAssertTrue(app.controllers["d"]!.view.isDescendant(of: app.window))
        XCTAssertFalse(app.controllers["b"]!.view.isDescendant(of: app.window))
        XCTAssertEqual(r.errors, [])
    }

    func testANavigationControllerInAModalGetsThePush() throws {
        let (app, r) = try play(#"{"container": "navigation", "stack": ["a"]}"#,
                                extra: #""modalNav": {"container": "navigation", "stack": ["m"]}"#, script: """
        [{"action": "present", "controller": "modalNav"}, {"action": "push", "controller": "b"}, {"action": "pop"}, {"action": "push", "controller": "c"}]
        """)
        XCTAssertEqual(stack(app, "modalNav"), ["m", "c"])
        XCTAssertEqual(app.navigation?.stack.map(\.id), ["a"], "the root navigation controller is not touched")
        XCTAssertEqual(r.transitions[1].record.container, .navigation)
        XCTAssertEqual(r.finalPresented, ["UINavigationController"])
        XCTAssertEqual(events(r, 0), ["navigation.willDisappear", "a.willDisappear", "modalNav.willAppear", "m.willAppear",
                                      "navigation.didDisappear", "a.didDisappear", "modalNav.didAppear", "m.didAppear"])
    }

    func testADismissedModalsPresenterTopChildGetsViewWillAppear() throws {
        let (_, r) = try play(#"{"container": "navigation", "stack": ["a"]}"#, script: """
        [{"action": "present", "controller": "m"}, {"action": "dismiss"}]
        """)
        XCTAssertEqual(events(r, 1), ["m.willDisappear", "navigation.willAppear", "a.willAppear", "m.didDisappear",
                                      "navigation.didAppear", "a.didAppear"])
    }

    func testAPushUnderAFullScreenModalSendsNoCallbacksUntilItShows() throws {
        let (app, r) = try play(#"{"container": "navigation", "stack": ["a"]}"#, script: """
        [{"action": "present", "controller": "m"}, {"action": "push", "controller": "b", "target": "navigation"}, {"action": "dismiss"}]
        """)
        XCTAssertEqual(r.transitions.count, 2, "off screen the push happens at once, without a transition")
        XCTAssertEqual(app.navigation?.stack.map(\.id), ["a", "b"])
        XCTAssertEqual(events(r, 1), ["m.willDisappear", "navigation.willAppear", "b.willAppear", "m.didDisappear",
                                      "navigation.didAppear", "b.didAppear"], "the new top appears with its navigation controller")
        XCTAssertFalse(r.transitions.flatMap(\.record.appearance).contains { $0.controller == "a" && $0.time > 0 && $0.kind == .willAppear })
    }

    func testATabBarInAModalAndChildControllers() throws {
        let (app, r) = try play(#"{"container": "single", "controller": "host"}"#, extra: """
        "host": {"type": "Host", "children": ["c"]}, "modalTabs": {"container": "tab", "tabs": ["d", "e"]}
        """, script: """
        [{"action": "present", "controller": "modalTabs"}, {"action": "select", "index": 1}, {"action": "dismiss"}]
        """)
        XCTAssertEqual(app.controllers["modalTabs"]?.tabCoordinator?.selectedIndex, 1)
        XCTAssertEqual(r.transitions[1].record.container, .tab)
        XCTAssertEqual(events(r, 0).prefix(4), ["host.willDisappear", "c.willDisappear", "modalTabs.willAppear", "d.willAppear"],
                       "embedded children hear their parent's callbacks")
        XCTAssertTrue(app.controllers["c"]!.view.superview === app.controllers["host"]!.view)
        XCTAssertEqual(events(r, 2).suffix(3), ["modalTabs.didDisappear", "e.didDisappear", "host.didAppear", "c.didAppear"].suffix(3))
    }

    func testSetViewControllersPushesOrPopsAsUIKitDoes() throws {
        let (app, r) = try play(#"{"container": "navigation", "stack": ["a", "b"]}"#, script: """
        [{"action": "setViewControllers", "controllers": ["a", "b", "c"]},
         {"action": "setViewControllers", "controllers": ["a"]},
         {"action": "setViewControllers", "controllers": ["d", "a"]}]
        """)
        XCTAssertEqual(r.transitions.map(\.record.operation), [.push, .pop], "same top: replaced without a transition")
        XCTAssertEqual(app.navigation?.stack.map(\.id), ["d", "a"])
    }

    func testPopToViewControllerAndInteractivePopToRoot() throws {
        let (app, r) = try play(#"{"container": "navigation", "stack": ["a", "b", "c", "d"]}"#, script: """
        [{"action": "popTo", "controller": "b"},
         {"action": "push", "controller": "e"},
         {"action": "popToRoot", "gesture": {"samples": [[0.1, 60]], "release": [0.2, 80]}},
         {"action": "popToRoot", "gesture": {"samples": [[0.1, 120], [0.2, 200]], "release": [0.3, 260]}}]
        """)
        XCTAssertEqual(r.transitions.map { "\($0.record.operation.rawValue):\($0.record.fromID)->\($0.record.toID)" },
                       ["pop:d->b", "push:b->e", "pop:e->a", "pop:e->a"])
        XCTAssertEqual(r.transitions[2].record.outcome, .cancelled)
        XCTAssertTrue(r.transitions[2].record.interactive)
        XCTAssertEqual(r.transitions[3].record.outcome, .completed)
        XCTAssertEqual(app.navigation?.stack.map(\.id), ["a"])
    }

    func testDismissFromALowerPresenterInTheScript() throws {
        let (app, r) = try play(#"{"container": "navigation", "stack": ["a"]}"#, script: """
        [{"action": "present", "controller": "b"}, {"action": "present", "controller": "c", "style": "overFullScreen"},
         {"action": "dismiss", "controller": "a"}]
        """)
        XCTAssertEqual(r.transitions.count, 3)
        XCTAssertEqual([r.transitions[2].record.fromID, r.transitions[2].record.toID], ["c", "navigation"])
        XCTAssertEqual(r.finalPresented, [])
        XCTAssertTrue(app.controllers["a"]!.view.isDescendant(of: app.window))
    }

    func testPresentationStylesFromTheScenario() throws {
        let (app, r) = try play(#"{"container": "tab", "tabs": ["nav0", "nav1"]}"#, extra: """
        "nav0": {"container": "navigation", "stack": ["a"], "definesPresentationContext": true},
        "nav1": {"container": "navigation", "stack": ["c"]},
        "pop": {"type": "Popup", "modalPresentationStyle": "overCurrentContext"}
        """, script: """
        [{"action": "present", "controller": "pop"}]
        """)
        let nav0 = app.controllers["nav0"]!, popup = app.controllers["pop"]!
        XCTAssertTrue(popup.view.superview === nav0.view, "over current context: inside the context's view")
        XCTAssertTrue(popup.presentingViewController === nav0)
        XCTAssertTrue(app.controllers["a"]!.view.superview === nav0.view, "the views beneath stay")
        XCTAssertEqual(events(r, 0), ["pop.willAppear", "pop.didAppear"])
    }

    func testAControllerInTwoContainersIsAnErrorNamingIt() throws {
        let (app, r) = try play(#"{"container": "tab", "tabs": ["nav0", "nav1"]}"#, extra: twoNavs, script: """
        [{"action": "push", "controller": "c"}, {"action": "present", "controller": "a"}, {"action": "push", "controller": "nav1"}]
        """)
        XCTAssertEqual(r.errors.count, 3, "\(r.errors)")
        XCTAssertTrue(r.errors[0].contains("C (c) refused: it is on the navigation stack of UINavigationController (nav1)"), r.errors[0])
        XCTAssertTrue(r.errors[1].contains("A (a) refused: it is on the navigation stack"), r.errors[1])
        XCTAssertTrue(r.errors[2].contains("(nav1) refused: it is a tab of the tab bar controller UITabBarController (tabs)"), r.errors[2])
        XCTAssertEqual(stack(app, "nav0"), ["a"])
        XCTAssertEqual(r.transitions.count, 0)
    }

    func testTreeMistakesAreRefusedWhenRead() {
        func problem(_ root: String, _ extra: String, _ script: String = "[]") -> String {
            do { _ = try play(root, extra: extra, script: script); return "" } catch { return "\(error)" }
        }
        XCTAssertTrue(problem(#"{"container": "tab", "tabs": ["nav0", "nav1"]}"#,
                              #""nav0": {"container": "navigation", "stack": ["a"]}, "nav1": {"container": "navigation", "stack": ["a"]}"#)
                      .contains("controller \"a\" is placed twice"))
        XCTAssertTrue(problem(#"{"container": "single", "controller": "a"}"#, #""p": {"type": "P", "children": ["q"]}, "q": {"type": "Q", "children": ["p"]}"#)
                      .contains("contains itself"))
        XCTAssertTrue(problem(#"{"container": "single", "controller": "a"}"#, #""p": {"type": "P", "modalPresentationStyle": "overFullscreen"}"#)
                      .contains("did you mean \"overFullScreen\""))
        XCTAssertTrue(problem(#"{"container": "single", "controller": "a"}"#, "", #"[{"action": "present", "controller": "b", "target": "a"}]"#)
                      .contains("take a \"target\""))
        XCTAssertTrue(problem(#"{"container": "single", "controller": "a"}"#, #""p": {"type": "P", "stack": ["b"]}"#)
                      .contains("add \"container\": \"navigation\""))
        XCTAssertTrue(problem(#"{"container": "single", "controller": "a"}"#, #""p": {"container": "navigation", "stack": ["b"], "children": ["c"]}"#)
                      .contains("children are its stack or tabs"))
    }

    func testAPushWithNoNavigationControllerInViewIsSkippedWithAWarning() throws {
        let (_, r) = try play(#"{"container": "tab", "tabs": ["a", "b"]}"#, script: #"[{"action": "push", "controller": "c"}]"#)
        XCTAssertEqual(r.transitions.count, 0)
        XCTAssertTrue(r.warnings.contains { $0.contains("no navigation controller in the visible context") }, "\(r.warnings)")
        let (_, t) = try play(#"{"container": "tab", "tabs": ["a", "b"]}"#, script: #"[{"action": "pop", "target": "a"}, {"action": "select", "index": 1, "target": "a"}]"#)
        XCTAssertEqual(t.warnings, ["pop skipped: a is not a navigation controller (its \"target\")",
                                    "select 1 skipped: a is not a tab bar controller (its \"target\")"])
    }

    func testAContextPresentationInAnUnselectedTabIsNotTheVisibleContext() throws {
        let (app, r) = try play(#"{"container": "tab", "tabs": ["nav0", "nav1"]}"#, extra: """
        "nav0": {"container": "navigation", "stack": ["a"], "definesPresentationContext": true},
        "nav1": {"container": "navigation", "stack": ["c"]}
        """, script: """
        [{"action": "present", "controller": "m", "style": "overCurrentContext"}, {"action": "select", "index": 1},
         {"action": "push", "controller": "d"}, {"action": "select", "index": 0}]
        """)
        XCTAssertEqual(stack(app, "nav1"), ["c", "d"], "the push goes to the selected tab, not under the hidden presentation")
        XCTAssertTrue(app.controllers["m"]!.view.isDescendant(of: app.window), "the presentation comes back with its tab")
        XCTAssertEqual(r.finalPresented, ["M"])
    }

    /// What the screen shows once each presentation has completed (the trace's `after`).
    func testThePresentersViewIsInTheWindowAfterThePresentationOnlyWhenItStays() throws {
        for (style, stays) in [("fullScreen", false), ("overFullScreen", true), ("custom", true)] {
            let (_, r) = try play(#"{"container": "navigation", "stack": ["a"]}"#, script: """
            [{"action": "present", "controller": "m", "style": "\(style)"}, {"action": "dismiss"}]
            """)
            let shown = Set(r.transitions[0].after.nodes.map(\.view.name))
            XCTAssertEqual(shown.contains("A"), stays, style)
            XCTAssertEqual(shown.contains("UINavigationController"), stays, style)
            XCTAssertTrue(shown.contains("M"), style)
            let afterDismiss = Set(r.transitions[1].after.nodes.map(\.view.name))
            XCTAssertTrue(afterDismiss.contains("A") && !afterDismiss.contains("M"), style)
        }
    }
}
