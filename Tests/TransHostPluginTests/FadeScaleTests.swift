import TransHostCoordinators
import TransHostCore
import TransHostPluginHost
import TransHostRouting
import TransHostManifest
import TransHostFFI
import TransHostDiscovery
import TransHostRun
import TransHostScenario
import XCTest

/// fade-scale (C; seeds 003/004): push A -> B over 0.25 s with UIKit's default ease-in-out: B's
/// alpha 0 -> 1 while A's transform scales 1 -> 0.1.
final class FadeScaleTests: XCTestCase {
    let duration = 0.25

    /// At 120 fps the midpoint 0.125 s is a sampled frame (15 / 120).
    func playDemo() throws -> Playback {
        try Products.play(try Products.demo("fade-scale", test: self), plugins: ["fade-scale"], test: self, fps: 120)
    }

    func testPushFadesInAndScalesDownOnTheEaseInOutCurve() throws {
        let p = try playDemo()
        let push = try XCTUnwrap(p.run.transitions.first)
        XCTAssertEqual(push.record.animator, AnimatorIdentity(plugin: "fade-scale", id: "fade-scale"))
        XCTAssertEqual(push.record.duration, duration)
        XCTAssertEqual(push.record.outcome, .completed)

        XCTAssertEqual(try push.frame(at: 0).node(named: "B").state.alpha, 0, accuracy: 1e-12)
        XCTAssertEqual(try push.frame(at: duration).node(named: "B").state.alpha, 1, accuracy: 1e-12)

        // The midpoint: scale = 1 - 0.9 x easeInOut(0.5) (= 0.55, the curve being symmetric).
        let mid = try push.frame(at: duration / 2)
        let expectedMid = 1 - 0.9 * Reference.easeInOut(0.5)
        XCTAssertEqual(expectedMid, 0.55, accuracy: 1e-12)
        let midA = try mid.node(named: "A").state.transform
        XCTAssertTransform(midA, Transform3D.scale(expectedMid, expectedMid, 1), accuracy: 1e-9)
        XCTAssertEqual(try mid.node(named: "B").state.alpha, Reference.easeInOut(0.5), accuracy: 1e-9)

        // Every frame follows the curve, not only the ends and the midpoint.
        for f in push.frames {
            let e = Reference.easeInOut(f.t / duration)
            let a = try f.node(named: "A").state
            XCTAssertEqual(a.transform.m11, 1 - 0.9 * e, accuracy: 1e-9, "A's x scale at t = \(f.t)")
            XCTAssertEqual(a.transform.m22, 1 - 0.9 * e, accuracy: 1e-9, "A's y scale at t = \(f.t)")
            XCTAssertEqual(a.alpha, 1, "A does not fade")
            XCTAssertEqual(try f.node(named: "B").state.alpha, e, accuracy: 1e-9, "B's alpha at t = \(f.t)")
        }
        let end = try push.frame(at: duration).node(named: "A").state.transform
        XCTAssertTransform(end, Transform3D.scale(0.1, 0.1, 1), accuracy: 1e-12, "A ends at scale 0.1 (before the completion resets it)")
    }

    func testCompletionResetsTheFromViewAndOnlyPushIsRouted() throws {
        let p = try playDemo()
        XCTAssertEqual(p.run.transitions.count, 2)
        // The completion puts A's transform back to identity (seed: fromVC.view.transform = identity).
        XCTAssertEqual(try XCTUnwrap(p.app.controllers["a"]).view.transform3D, .identity)
        // The route says push only, reverse false: the pop gets the host's default.
        let pop = p.run.transitions[1]
        XCTAssertEqual(pop.record.operation, .pop)
        XCTAssertNil(pop.record.animator)
        XCTAssertEqual(p.run.finalStack, ["A"])
        XCTAssertTrue(p.run.breaches.isEmpty, "\(p.run.breaches)")
    }
}
