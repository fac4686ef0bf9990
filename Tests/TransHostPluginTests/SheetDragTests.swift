import Foundation
import TransHostCoordinators
import TransHostCore
import TransHostScenario
import XCTest

/// sheet-drag (Swift, ABI 1.3): the card is moved by a UIViewPropertyAnimator on UIKit's spring
/// (damping ratio 0.86, 0.5 s), ty = H (1 - f) for the presentation's progress f. Its demo grabs
/// the presentation at 0.2 s and throws it back up (finished), flicks a dismissal back up
/// (cancelled), dismisses, and throws a second presentation back down (cancelled).
final class SheetDragTests: XCTestCase {
    let h = 568.0

    private func ty(_ frame: TraceFrame) throws -> Double { try frame.node(named: "SheetController").state.transform.m42 }

    func testTheDemoFinishesReversesAndCancelsAsThrown() throws {
        let p = try Products.play(try Products.demo("sheet-drag", test: self), plugins: ["sheet-drag"], test: self)
        let t = p.run.transitions
        XCTAssertEqual(t.map(\.record.operation), [.present, .dismiss, .dismiss, .present])
        XCTAssertEqual(t.map(\.record.outcome), [.completed, .cancelled, .completed, .cancelled])
        XCTAssertEqual(t.map(\.record.interactive), [true, true, false, true], "grabbed transitions are interactive")
        XCTAssertTrue(t.allSatisfy { $0.record.breaches.isEmpty }, "\(t.map(\.record.breaches))")
        XCTAssertEqual(p.run.finalPresented, [])

        // The cancelled dismissal leaves the card presented, in place; the cancelled
        // presentation leaves it out and the screen behind as it was.
        XCTAssertEqual(try t[1].after.node(named: "SheetController").state.transform, .identity)
        XCTAssertFalse(t[1].after.has("HomeController"))
        XCTAssertFalse(t[3].after.has("SheetController"))
        let home = try t[3].after.node(named: "HomeController").state
        XCTAssertEqual(home.transform, .identity)
        XCTAssertEqual(home.alpha, 1)
        XCTAssertEqual(try ty(t[3].frames.last!), h, accuracy: 1e-6, "thrown back below the screen")
        XCTAssertEqual(try ty(t[1].frames.last!), 0, accuracy: 1e-6, "flicked back up into place")
    }

    func testTheGrabbedPresentationFollowsTheSpringTheFingerAndTheThrow() throws {
        let p = try Products.play(try Products.demo("sheet-drag", test: self), plugins: ["sheet-drag"], test: self)
        let present = try XCTUnwrap(p.run.transitions.first)
        let rise = SpringSolver(dampingRatio: 0.86, duration: 0.5, initialVelocity: 0)
        // Until the grab at 0.2 s: the spring.
        for k in 0...12 {
            let t = Double(k) / 60
            XCTAssertEqual(try ty(present.frames[k]), h * (1 - rise.progress(at: t)), accuracy: 1e-5, "t \(t)")
        }
        // Held, then each pan sample (dy 25, 50, 70, 80 at 0.25 ... 0.4 s) moves it down by the
        // finger's travel, in points: a frame shows the samples before its instant.
        let f0 = rise.progress(at: 0.2)
        let grabbed = h * (1 - f0)
        for (k, dy) in [(13, 0.0), (15, 0.0), (16, 25), (19, 50), (22, 70), (25, 80), (29, 80)] {
            XCTAssertEqual(try ty(present.frames[k]), grabbed + dy, accuracy: 1e-4, "frame \(k)")
        }
        // Released at 0.5 s at dy 55 moving up at 900 pt/s: on toward the end on a spring
        // (damping ratio 0.9, 0.35 s) that starts at the finger's speed.
        let f = f0 - 55 / h
        let speed = 900 / h
        let rest = SpringSolver(dampingRatio: 0.9, duration: 0.35, initialVelocity: speed / (1 - f))
        for k in 31...50 {
            let t = Double(k) / 60
            let expected = t >= 0.85 ? 0 : h * (1 - (f + (1 - f) * rest.progress(at: t - 0.5)))
            XCTAssertEqual(try ty(present.frames[k]), expected, accuracy: 1e-4, "t \(t)")
        }
        XCTAssertEqual(present.record.end, 0.85, accuracy: 1e-9)
    }
}
