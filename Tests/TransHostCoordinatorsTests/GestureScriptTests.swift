import XCTest
import TransHostCore
@testable import TransHostCoordinators

/// Scripted pans on virtual time, seed 001's rule, interactive back navigation.
final class GestureScriptTests: XCTestCase {
    /// A pan to the right reaching `maxX` points, released at 0.4 s.
    func pan(to maxX: Double) -> GestureScript {
        GestureScript(samples: [PanSample(time: 0.1, x: maxX * 0.3), PanSample(time: 0.2, x: maxX * 0.7),
                                PanSample(time: 0.3, x: maxX)], releaseTime: 0.4)
    }

    func drive(_ kind: ContainerKind, maxX: Double) -> Fixture {
        let f = Fixture(kind)
        f.route { FadeScaleAnimator() }
        let ic = InteractionController()
        let problems = pan(to: maxX).schedule(on: f.engine, at: 1.0, driving: ic, container: f.window) {
            f.forward(interaction: ic)
        }
        XCTAssertEqual(problems, [])
        f.engine.advance(to: 1.25)
        // At 1.2 s the pan was at 0.7 x maxX.
        let p = 0.7 * maxX / 320
        assertClose(f.engine.presentation(of: f.b.view).alpha, TimingCurve.easeInOut.progress(p, duration: 0.25), accuracy: 1e-9)
        XCTAssertNotNil(f.host.active)
        f.run()
        return f
    }

    func testReleasePastHalfTheWidthFinishes() {
        for kind in ContainerKind.allCases {
            let f = drive(kind, maxX: 200)   // 0.625 of 320
            XCTAssertEqual(f.recorder.records.map(\.outcome), [.completed], "\(kind)")
            XCTAssertEqual(f.recorder.records.first?.interactive, true)
            XCTAssertEqual(f.recorder.records.first?.end ?? -1, 1.4 + (1 - 0.625) * 0.25, accuracy: 1e-9)
            XCTAssertEqual(f.top.id, "b", "\(kind)")
        }
    }

    func testReleaseBelowHalfTheWidthCancels() {
        for kind in ContainerKind.allCases {
            let f = drive(kind, maxX: 150)   // 0.46875
            XCTAssertEqual(f.recorder.records.map(\.outcome), [.cancelled], "\(kind)")
            XCTAssertEqual(f.recorder.records.first?.end ?? -1, 1.4 + 0.46875 * 0.25, accuracy: 1e-9)
            XCTAssertEqual(f.top.id, "a", "\(kind)")
            XCTAssertEqual(f.a.view.frame, screen)
            XCTAssertNil(f.invariantProblem)
        }
    }

    func testSeed001RuleIsStrictlyPastHalfAndProgressIsSigned() {
        let rule = InteractionRule.seed001
        let size = Size(width: 320, height: 568)
        XCTAssertEqual(rule.progress(Point(x: 160, y: 0), in: size), 0.5)
        // A pan back past its start is negative progress (clamped at 0 by update), not its magnitude.
        XCTAssertEqual(rule.progress(Point(x: -160, y: 0), in: size), -0.5)
        XCTAssertFalse(rule.finishes(atProgress: 0.5))
        XCTAssertTrue(rule.finishes(atProgress: 0.5001))
        XCTAssertEqual(rule.progress(Point(x: 10, y: 0), in: .zero), 0)
        XCTAssertEqual(InteractionRule(axis: .vertical).progress(Point(x: 0, y: 284), in: size), 0.5)
    }

    func testInvalidScriptsAreRejectedWithoutScheduling() {
        let f = Fixture(.navigation)
        let ic = InteractionController()
        let bad = GestureScript(samples: [PanSample(time: 0.2, x: 10), PanSample(time: 0.1, x: .nan)],
                                release: PanSample(time: 0.05, x: 0))
        let problems = bad.schedule(on: f.engine, at: 0, driving: ic, container: f.window) { XCTFail("scheduled") }
        XCTAssertEqual(problems.count, 2, "\(problems)")
        XCTAssertTrue(f.engine.isIdle)
    }

    /// An edge pan drives a pop even though a custom (non-default) animator is routed for pop.
    func testInteractiveBackNavigationWithACustomAnimator() {
        for (maxX, outcome) in [(250.0, TransitionOutcome.completed), (100.0, .cancelled)] {
            let f = Fixture(.navigation)
            f.route { SloppyAnimator() }
            f.nav.push(f.b, animated: false)
            let ic = InteractionController()
            pan(to: maxX).schedule(on: f.engine, at: 0.5, driving: ic, container: f.window) { f.nav.beginInteractivePop(ic) }
            f.run()
            let r = f.recorder.records.last
            XCTAssertEqual(r?.operation, .pop)
            XCTAssertEqual(r?.animator?.plugin, "test-sloppy")
            XCTAssertEqual(r?.interactive, true)
            XCTAssertEqual(r?.outcome, outcome)
            XCTAssertEqual(f.model, outcome == .completed ? ["a"] : ["a", "b"])
            if outcome == .cancelled {
                XCTAssertEqual(f.b.view.frame, screen)
                XCTAssertEqual(f.b.view.alpha, 1)
                XCTAssertEqual(f.b.view.transform, .identity)
            }
            XCTAssertNil(f.invariantProblem)
        }
    }
}
