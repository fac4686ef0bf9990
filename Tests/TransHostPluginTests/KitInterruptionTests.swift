import Foundation
import TransHostCoordinators
import TransHostCore
import TransHostScenario
import XCTest

/// The kit's wantsInteractiveStart = false (Tests/KitProbe/Swift/PullAnimator.swift): the
/// presentation starts on its own on a linear 0.6 s property animator; a pan at 0.3 s reaches the
/// recognizer on the presented view, whose handler calls UIPercentDrivenInteractiveTransition's
/// pause(), drags it with update(_:) and finishes it.
extension KitCompatTests {
    static let pullJSON = """
    {
      "format": "transhost-scenario/1",
      "name": "kit-probe-pull",
      "types": {"HomeController": "UIViewController", "PullController": "UIViewController"},
      "controllers": {
        "home": {"type": "HomeController", "view": {"background": "#ffffff"}},
        "pull": {"type": "PullController", "view": {"background": "#ff9500"}}
      },
      "root": {"container": "single", "controller": "home"},
      "script": [
        {"action": "present", "controller": "pull", "at": "0s"},
        {"action": "gesture", "at": "0.3s", "gesture": {"start": [160, 500], "samples": [[0.05, 0, -30], [0.1, 0, -60]], "release": [0.15, 0, -80]}}
      ]
    }
    """

    func testPauseTakesATransitionThatStartedOnItsOwn() throws {
        let run = try play(Self.pullJSON).run
        XCTAssertEqual(run.breaches, [], "\(run.breaches)")
        let present = try XCTUnwrap(run.transitions.first)
        XCTAssertEqual(present.record.outcome, .completed)
        XCTAssertTrue(present.record.interactive, "paused: interactive from then on")
        XCTAssertTrue(run.logs.contains { $0.contains("paused at 0.5") }, "\(run.logs)")
        let h = 568.0
        func ty(_ k: Int) throws -> Double { try present.frames[k].node(named: "PullController").state.transform.m42 }
        XCTAssertEqual(try ty(9), h * (1 - 0.15 / 0.6), accuracy: 1e-6, "on its own before the pan")
        XCTAssertEqual(try ty(19), h * 0.5, accuracy: 1e-6, "held where the pan found it (0.317 s)")
        XCTAssertEqual(try ty(22), h * 0.5 - 30, accuracy: 1e-6, "dragged up 30 pt by the 0.35 s sample")
        XCTAssertEqual(try ty(present.frames.count - 1), 0, accuracy: 1e-6)
        XCTAssertEqual(run.finalPresented, ["PullController"])
        // runningPropertyAnimator: already started, with its delay and the options' curve.
        func badge(_ k: Int) -> PresentationNode? { present.frames[k].nodes.first { $0.state.bounds.size == Size(width: 10, height: 10) } }
        XCTAssertEqual(badge(3)?.state.alpha ?? .nan, 1, accuracy: 1e-9, "within its delay")
        XCTAssertEqual(badge(12)?.state.alpha ?? .nan, 0.75, accuracy: 1e-9, "half way at 0.2 s")
        XCTAssertNil(badge(19), "removed by its completion at 0.3 s")
        XCTAssertTrue(run.logs.contains { $0.contains("running animator ended at end") }, "\(run.logs)")
    }
}
