import Foundation
import TransHostCoordinators
import TransHostCore
import TransHostPluginHost
import TransHostRouting
import TransHostManifest
import TransHostFFI
import TransHostDiscovery
import TransHostScenario
import XCTest

/// A pan released below half the width cancels the transition (seed 001's rule). After the
/// cancel, every plugin must leave the from-view as it was (bounds, position, anchor point,
/// transform, alpha, superview), the to-view out of the hierarchy, and the stack / presented list
/// unchanged — whether the animator restores that itself or the host does.
final class InteractiveCancelTests: XCTestCase {
    /// A pan that reaches 120 pt (37% of 320) and is released there: cancelled.
    let shortPan: [String: Any] = ["samples": [[0.05, 20], [0.15, 60], [0.3, 100]], "release": [0.4, 120]]

    /// The demo of `plugin` with its script replaced by `script`.
    func scenario(_ plugin: String, script: [[String: Any]]) throws -> Scenario {
        try Products.demo(plugin, test: self) { $0["script"] = script }
    }

    struct Snapshot: Equatable {
        var bounds: Rect, position: Point, anchor: Point, transform: Transform3D, alpha: Double, superview: String?
        init(_ v: View) {
            bounds = v.bounds; position = v.position; anchor = v.anchorPoint; transform = v.transform3D; alpha = v.alpha
            superview = v.superview?.name
        }
        init(_ s: PresentationState, superview: String?) {
            bounds = s.bounds; position = s.position; anchor = s.anchorPoint; transform = s.transform; alpha = s.alpha
            self.superview = superview
        }
    }

    enum FromView { case controller(String), navigationContainer }

    func view(_ which: FromView, in app: App) throws -> View {
        switch which {
        case .controller(let id): return try XCTUnwrap(app.controllers[id]).view
        case .navigationContainer: return try XCTUnwrap(app.navigation).view
        }
    }

    /// Plays `scenario` (one gesture-driven action, then `followUp` actions) and checks the cancel.
    func checkCancel(plugin: String, animator: String, scenario: Scenario, from: FromView, toID: String,
                     file: StaticString = #filePath, line: UInt = #line) throws {
        // The state before: the same scenario's app, freshly built.
        let fresh = App(scenario: scenario)
        let before = Snapshot(try view(from, in: fresh))
        let beforeState = fresh.finalState

        let p = try Products.play(scenario, plugins: [plugin], test: self)
        let tr = try XCTUnwrap(p.run.transitions.first, file: file, line: line)
        XCTAssertEqual(tr.record.animator, AnimatorIdentity(plugin: plugin, id: animator), file: file, line: line)
        XCTAssertTrue(tr.record.interactive, file: file, line: line)
        XCTAssertEqual(tr.record.outcome, .cancelled, file: file, line: line)
        XCTAssertTrue(p.run.breaches.isEmpty, "\(p.run.breaches)", file: file, line: line)

        let fromView = try view(from, in: p.app)
        // The first-party ports undo their own changes on a cancel, as a UIKit animator must;
        // the host's safety net should have had nothing of the from-view's to put back.
        XCTAssertEqual(tr.record.restored.filter { $0.hasPrefix("from.") }, [], "the plugin left the from-view changed", file: file, line: line)
        XCTAssertEqual(Snapshot(fromView), before, "model values after the cancel (host restored: \(tr.record.restored))", file: file, line: line)
        XCTAssertEqual(Snapshot(p.app.engine.presentation(of: fromView), superview: fromView.superview?.name), before,
                       "what the screen shows after the cancel", file: file, line: line)
        XCTAssertNil(try XCTUnwrap(p.app.controllers[toID]).view.superview, "the to-view is removed", file: file, line: line)
        XCTAssertEqual(p.run.finalStack, beforeState.stack, file: file, line: line)
        XCTAssertEqual(p.run.finalPresented, beforeState.presented, file: file, line: line)
        // Snapshots an animator adds go into its container, which may sit deeper than the window.
        func snapshots(_ v: View) -> [String] { (v.isSnapshot ? [v.name] : []) + v.subviews.flatMap(snapshots) }
        XCTAssertEqual(snapshots(p.app.window), [], "snapshots left in the window's tree", file: file, line: line)
        // The last frame (the instant the cancel ended) shows the from-view as before.
        let last = try XCTUnwrap(tr.frames.last, file: file, line: line)
        let node = try XCTUnwrap(last.nodes.first { $0.view.id == fromView.id }, "from-view not on screen after the cancel", file: file, line: line)
        XCTAssertEqual(node.state.transform, before.transform, file: file, line: line)
        XCTAssertEqual(node.state.position, before.position, file: file, line: line)
        XCTAssertEqual(node.state.alpha, before.alpha, file: file, line: line)
    }

    func testFadeScalePushCancel() throws {
        let s = try scenario("fade-scale", script: [["action": "push", "controller": "b", "gesture": shortPan]])
        try checkCancel(plugin: "fade-scale", animator: "fade-scale", scenario: s, from: .controller("a"), toID: "b")
    }

    func testRotateSpringPushCancel() throws {
        let s = try scenario("rotate-spring", script: [["action": "push", "controller": "image", "gesture": shortPan]])
        try checkCancel(plugin: "rotate-spring", animator: "rotate-spring", scenario: s, from: .controller("master"), toID: "image")
    }

    func testCornerFlyPushCancel() throws {
        let s = try scenario("corner-fly", script: [["action": "push", "controller": "second", "gesture": shortPan]])
        try checkCancel(plugin: "corner-fly", animator: "push", scenario: s, from: .controller("first"), toID: "second")
    }

    func testSplitModalPresentCancel() throws {
        let s = try scenario("split-modal", script: [["action": "present", "controller": "image", "gesture": shortPan]])
        try checkCancel(plugin: "split-modal", animator: "split-modal", scenario: s, from: .navigationContainer, toID: "image")
    }

    func testCornerFlyPresentCancel() throws {
        let s = try scenario("corner-fly", script: [["action": "present", "controller": "third", "gesture": shortPan]])
        try checkCancel(plugin: "corner-fly", animator: "present", scenario: s, from: .navigationContainer, toID: "third")
    }

    func testSnapshotSearchPushCancel() throws {
        let s = try scenario("snapshot-search", script: [["action": "push", "controller": "search", "gesture": shortPan]])
        try checkCancel(plugin: "snapshot-search", animator: "snapshot-search", scenario: s, from: .controller("home"), toID: "search")
    }

    /// After a cancelled push, the same push (not interactive) still runs and completes: nothing
    /// in the plugin or the app was left half-way.
    func testPushAfterACancelledPushCompletes() throws {
        let s = try scenario("corner-fly", script: [["action": "push", "controller": "second", "gesture": shortPan],
                                                    ["action": "push", "controller": "second"]])
        let p = try Products.play(s, plugins: ["corner-fly"], test: self)
        XCTAssertEqual(p.run.transitions.map(\.record.outcome), [.cancelled, .completed])
        XCTAssertEqual(p.run.finalStack, ["FirstViewController", "SecondViewController"])
        let push = p.run.transitions[1]
        XCTAssertTransform(try push.frame(at: 0).node(named: "SecondViewController").state.transform, Transform3D.translation(320, 568, 0))
        XCTAssertTransform(try push.frame(at: 3.0).node(named: "FirstViewController").state.transform, Transform3D.translation(-320, -568, 0))
    }
}
