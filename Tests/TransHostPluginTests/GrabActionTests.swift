import Foundation
import TransHostCore
import TransHostCoordinators
import TransHostScenario
import XCTest

/// The scenario's grab action (docs/scenario.md, "Grabbing a running transition") on the host's
/// default pop: 0.35 s, ease-in-out, B slides out to x = +320. A grab holds the pop at its time
/// fraction p0, each sample scrubs it to p0 + dx / 320, and the release finishes or cancels it
/// by the back swipe's rule.
final class GrabActionTests: XCTestCase {
    private func play(_ script: String) throws -> RunResult {
        let scenario = try Products.scenario("""
        {"format": "transhost-scenario/1", "name": "grab", "device": "iphone-5",
         "types": {"A": "UIViewController", "B": "UIViewController"},
         "controllers": {"a": {"type": "A", "view": {"background": "#2f6fdf"}}, "b": {"type": "B", "view": {"background": "#e0533c"}}},
         "root": {"container": "navigation", "stack": ["a"]},
         "script": \(script)}
        """, test: self)
        return ScenarioRunner(app: App(scenario: scenario), provider: nil).run()
    }

    private let push = #"{"action": "push", "controller": "b", "animated": false}"#
    private func x(_ frame: TraceFrame) throws -> Double { try frame.node(named: "B").state.frame.minX }

    func testAGrabbedPopFollowsThePanAndFinishes() throws {
        let r = try play(#"[\#(push), {"action": "pop", "at": "0s"}, {"action": "grab", "at": "0.1s", "gesture": {"samples": [[0.05, 40]], "release": [0.1, 100]}}]"#)
        let pop = try XCTUnwrap(r.transitions.last)
        XCTAssertEqual(pop.record.operation, .pop)
        XCTAssertEqual(pop.record.outcome, .completed)
        XCTAssertTrue(pop.record.interactive, "grabbed: interactive")
        let d = DefaultNavigationAnimator.duration
        let p0 = 0.1 / d
        // Before the grab the pop runs on its own; held at p0 until the sample at 0.15 s.
        XCTAssertEqual(try x(pop.frames[3]), 320 * Reference.easeInOut(0.05 / d), accuracy: 1e-6)
        XCTAssertEqual(try x(pop.frames[8]), 320 * Reference.easeInOut(p0), accuracy: 1e-6, "held at 0.133 s")
        XCTAssertEqual(try x(pop.frames[10]), 320 * Reference.easeInOut(p0 + 40.0 / 320), accuracy: 1e-6, "scrubbed by the 0.15 s sample")
        XCTAssertEqual(r.finalStack, ["A"])
        XCTAssertEqual(r.warnings, [])
    }

    func testAGrabDraggedBackCancelsThePop() throws {
        let r = try play(#"[\#(push), {"action": "pop", "at": "0s"}, {"action": "grab", "at": "0.1s", "gesture": {"samples": [[0.05, -40]], "release": [0.1, -60]}}]"#)
        let pop = try XCTUnwrap(r.transitions.last)
        XCTAssertEqual(pop.record.outcome, .cancelled)
        XCTAssertTrue(pop.record.interactive)
        XCTAssertEqual(try x(pop.frames.last!), 0, accuracy: 1e-6, "run back to where it began")
        XCTAssertEqual(r.finalStack, ["A", "B"])
    }

    func testGrabbingTheDefaultPushOrNothingIsSkippedWithAWarning() throws {
        let r = try play(#"[{"action": "push", "controller": "b", "at": "0s"}, {"action": "grab", "at": "0.1s", "gesture": {"samples": [[0.05, 40]]}}, {"action": "grab", "at": "5s", "gesture": {"samples": [[0.05, 40]]}}]"#)
        XCTAssertEqual(r.transitions.first?.record.interactive, false)
        XCTAssertEqual(r.transitions.first?.record.outcome, .completed)
        XCTAssertEqual(r.warnings.count, 2, "\(r.warnings)")
        XCTAssertTrue(r.warnings[0].contains("cannot be grabbed"), r.warnings[0])
        XCTAssertTrue(r.warnings[1].contains("no transition is running"), r.warnings[1])
    }

    func testDirectionBelongsToGrabsAndAGrabHasNoStart() throws {
        XCTAssertThrowsError(try play(#"[{"action": "pop", "gesture": {"samples": [[0.1, 40]], "direction": "backward"}}]"#)) { error in
            XCTAssertTrue("\(error)".contains("direction") && "\(error)".contains("belongs to grab"), "\(error)")
        }
        XCTAssertThrowsError(try play(#"[{"action": "grab", "gesture": {"samples": [[0.1, 40]], "start": [0, 0]}}]"#)) { error in
            XCTAssertTrue("\(error)".contains("start"), "\(error)")
        }
        XCTAssertThrowsError(try play(#"[{"action": "grab", "gesture": {"samples": [[0.1, 40]], "direction": "up"}}]"#)) { error in
            XCTAssertTrue("\(error)".contains("forward or backward"), "\(error)")
        }
    }
}
