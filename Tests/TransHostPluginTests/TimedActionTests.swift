import Foundation
import TransHostCore
import TransHostCoordinators
import TransHostScenario
import XCTest

/// Timed actions ("at") arrive during transitions and follow UIKit's rule per case (docs/scenario.md,
/// "Timed actions"); interaction parameters (completionSpeed, completionCurve, release velocity,
/// the built-in back swipe, signed progress) come from scenarios. The host's defaults run here:
/// push and pop 0.35 s, present and dismiss 0.4 s.
final class TimedActionTests: XCTestCase {
    private func play(_ script: String, root: String = #"{"container": "navigation", "stack": ["a"]}"#) throws -> RunResult {
        let scenario = try Products.scenario("""
        {"format": "transhost-scenario/1", "name": "timed", "device": "iphone-5",
         "types": {"A": "UIViewController", "B": "UIViewController", "C": "UIViewController"},
         "controllers": {"a": {"type": "A", "view": {"background": "#2f6fdf"}},
                         "b": {"type": "B", "view": {"background": "#e0533c"}},
                         "c": {"type": "C", "view": {"background": "#33aa55"}}},
         "root": \(root),
         "script": \(script)}
        """, test: self)
        return ScenarioRunner(app: App(scenario: scenario), provider: nil).run()
    }

    private var pushDuration: Double { DefaultNavigationAnimator.duration }

    func testAPopThatArrivesDuringAPushIsQueuedBehindIt() throws {
        let r = try play(#"[{"action": "push", "controller": "b"}, {"action": "pop", "at": "0.1s"}]"#)
        XCTAssertEqual(r.transitions.map(\.record.operation), [.push, .pop])
        let push = r.transitions[0].record, pop = r.transitions[1].record
        XCTAssertEqual(push.start, 0)
        XCTAssertEqual(pop.start, push.end, "the pop waited for the push and started the instant it ended")
        XCTAssertLessThan(0.1, push.end)
        XCTAssertEqual(r.finalStack, ["A"])
        XCTAssertEqual(r.errors, [])
    }

    func testTimedActionsArriveAtTheirTimeNotAfterTheRunningTransition() throws {
        // Untimed, the second push would start at 0.35 s; at 0.5 s it starts at 0.5 s.
        let r = try play(#"[{"action": "push", "controller": "b"}, {"action": "pop", "at": "500ms"}, {"action": "push", "controller": "c", "at": 0.2}]"#)
        XCTAssertEqual(r.transitions.map(\.record.start), [0, 0.5, 0.5 + pushDuration])
        XCTAssertEqual(r.finalStack, ["A", "C"], "an `at` already past arrives at once, in script order")
    }

    func testPresentOrDismissDuringAPresentationIsRefusedWithAWarning() throws {
        let r = try play(#"[{"action": "present", "controller": "b"}, {"action": "present", "controller": "c", "at": "0.1s"}, {"action": "dismiss", "at": "0.2s"}]"#)
        XCTAssertEqual(r.transitions.map(\.record.operation), [.present])
        XCTAssertEqual(r.finalPresented, ["B"])
        XCTAssertTrue(r.warnings.contains { $0.contains("present of C (c) refused: a presentation or dismissal is in progress") }, "\(r.warnings)")
        XCTAssertTrue(r.warnings.contains { $0.contains("dismiss refused: a presentation or dismissal is in progress") }, "\(r.warnings)")
    }

    func testAControllerInTwoContainersIsAnErrorNamingIt() throws {
        let presentStacked = try play(#"[{"action": "push", "controller": "b"}, {"action": "present", "controller": "b"}]"#)
        XCTAssertEqual(presentStacked.errors.count, 1)
        XCTAssertTrue(presentStacked.errors[0].contains("present of B (b) refused: it is on the navigation stack"), presentStacked.errors[0])
        XCTAssertEqual(presentStacked.finalPresented, [])
        let pushPresented = try play(#"[{"action": "present", "controller": "c"}, {"action": "push", "controller": "c"}]"#)
        XCTAssertTrue(pushPresented.errors.first?.contains("push of C (c) refused: it is presented modally") ?? false, "\(pushPresented.errors)")
        XCTAssertEqual(pushPresented.finalStack, ["A"])
        let tabs = try play(#"[{"action": "present", "controller": "b"}]"#, root: #"{"container": "tab", "tabs": ["a", "b"]}"#)
        XCTAssertTrue(tabs.errors.first?.contains("it is a tab of the tab bar controller") ?? false, "\(tabs.errors)")
    }

    func testTheCLIExitsWithInvalidInputOnSuchAnError() throws {
        let dir = try Products.temporaryDirectory(self)
        try """
        {"name": "twice", "types": {"A": "UIViewController", "B": "UIViewController"},
         "controllers": {"a": {"type": "A"}, "b": {"type": "B"}},
         "root": {"container": "navigation", "stack": ["a", "b"]}, "script": [{"action": "present", "controller": "b"}]}
        """.write(toFile: dir + "/twice.json", atomically: true, encoding: .utf8)
        let r = try Products.run(Products.transhost, ["run", "--scenario", dir + "/twice.json", "--out", dir + "/out", "--trace-only"])
        XCTAssertEqual(r.status, 5, r.stderr)
        XCTAssertTrue(r.stderr.contains("error: twice: present of B (b) refused"), r.stderr)
    }

    func testBadTimesAreRefusedWithTheField() throws {
        for bad in [#""-1s""#, #""soon""#, "-2"] {
            XCTAssertThrowsError(try play(#"[{"action": "pop", "at": \#(bad)}]"#)) { error in
                XCTAssertTrue("\(error)".contains("script[0].at"), "\(error)")
            }
        }
        XCTAssertThrowsError(try play(#"[{"action": "wait", "seconds": 1, "at": "1s"}]"#)) { error in
            XCTAssertTrue("\(error)".contains("script[0].at") && "\(error)".contains("cannot be timed"), "\(error)")
        }
    }

    // MARK: Interaction parameters

    private func pop(_ gesture: String) throws -> TransitionRecord {
        let r = try play(#"[{"action": "push", "controller": "b", "animated": false}, {"action": "pop", "gesture": \#(gesture)}]"#)
        return try XCTUnwrap(r.transitions.last?.record)
    }

    func testCompletionSpeedFromTheScenarioShortensTheRest() throws {
        // Released at 75% at 0.3 s: the remaining 25% of 0.35 s take half as long at speed 2.
        let base = #""samples": [[0.1, 120], [0.2, 240]], "release": [0.3, 240], "velocity": [0]"#
        let normal = try pop("{\(base)}")
        let fast = try pop(#"{\#(base), "completionSpeed": 2, "completionCurve": "linear"}"#)
        XCTAssertEqual(normal.outcome, .completed)
        XCTAssertEqual(normal.end - normal.start, 0.3 + 0.25 * pushDuration, accuracy: 1e-9)
        XCTAssertEqual(fast.end - fast.start, 0.3 + 0.25 * pushDuration / 2, accuracy: 1e-9)
        XCTAssertThrowsError(try pop(#"{\#(base), "completionCurve": "bouncy"}"#))
        XCTAssertThrowsError(try pop(#"{\#(base), "completionSpeed": 0}"#))
    }

    func testTheBackSwipeFinishesAFastFlickAtThirtyPercent() throws {
        // 96 pt of 320 = 30%: a flick at 800 pt/s pops, a slow release at 30% cancels.
        XCTAssertEqual(try pop(#"{"samples": [[0.1, 40]], "release": [0.2, 96], "velocity": [800]}"#).outcome, .completed)
        XCTAssertEqual(try pop(#"{"samples": [[0.1, 40]], "release": [0.2, 96], "velocity": [20]}"#).outcome, .cancelled)
        // Without a stated velocity it is measured from the last sample: 56 pt in 0.05 s.
        XCTAssertEqual(try pop(#"{"samples": [[0.1, 40]], "release": [0.15, 96]}"#).outcome, .completed)
        // Past half, moving back fast: cancelled.
        XCTAssertEqual(try pop(#"{"samples": [[0.1, 200]], "release": [0.2, 180], "velocity": [-900]}"#).outcome, .cancelled)
        // A rule of the scenario's own ignores velocity unless it names finishVelocity.
        XCTAssertEqual(try pop(#"{"samples": [[0.1, 40]], "release": [0.2, 96], "velocity": [800], "threshold": 0.5}"#).outcome, .cancelled)
    }

    func testAPanThatGoesNegativeDoesNotCountItsMagnitude() throws {
        // 200 pt to the left: |progress| would be 0.625 and finish; signed it is clamped at 0.
        let r = try pop(#"{"samples": [[0.1, -100], [0.2, -200]], "release": [0.3, -200], "velocity": [0]}"#)
        XCTAssertEqual(r.outcome, .cancelled)
        XCTAssertEqual(r.end - r.start, 0.3, accuracy: 1e-9, "nothing to run back from 0")
    }

    func testAGestureOnTheDefaultPushDoesNotClaimToBeInteractive() throws {
        let r = try play(#"[{"action": "push", "controller": "b", "gesture": {"samples": [[0.1, 200]], "release": [0.2, 250]}}]"#)
        let t = try XCTUnwrap(r.transitions.first)
        XCTAssertFalse(t.record.interactive)
        XCTAssertNil(t.record.animator)
        XCTAssertEqual(t.record.outcome, .completed)
        XCTAssertTrue(r.warnings.contains { $0.contains("not interactive; the gesture was ignored") }, "\(r.warnings)")
    }
}
