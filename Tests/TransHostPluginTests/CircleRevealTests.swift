import Foundation
import TransHostCoordinators
import TransHostCore
import TransHostRun
import TransHostScenario
import XCTest

/// circle-reveal (Swift, Core Animation): the moving view's layer.mask is a CAShapeLayer whose
/// path, a circle centred on the presenting button (its centre (264, 500), radius 28 in the
/// demo), is animated by a CABasicAnimation with CAMediaTimingFunction easeInEaseOut
/// ((0.42, 0), (0.58, 1)) between the button's circle and one reaching the farthest corner of
/// the 320 x 568 screen, radius hypot(264, 500). Present 0.6 s (growing), dismiss 0.5 s
/// (shrinking); the delegate removes the mask and completes the transition.
final class CircleRevealTests: XCTestCase {
    let centre = (x: 264.0, y: 500.0)
    let buttonRadius = 28.0
    let far = (264.0 * 264.0 + 500.0 * 500.0).squareRoot()

    func playDemo() throws -> Playback {
        try Products.play(try Products.demo("circle-reveal", test: self), plugins: ["circle-reveal"], test: self)
    }

    /// The mask's circle in a frame: its centre and radius from the path's bounds.
    func maskCircle(_ f: TraceFrame, on view: String, file: StaticString = #filePath, line: UInt = #line) throws -> (x: Double, y: Double, r: Double) {
        let node = try f.node(named: view, file: file, line: line)
        let mask = try XCTUnwrap(node.layers?.mask, "\(view) has a mask at t = \(f.t)", file: file, line: line)
        XCTAssertEqual(mask.kind, .shape, file: file, line: line)
        let path = try XCTUnwrap(mask.state.shape?.path, file: file, line: line)
        let b = path.pathBoundingBox
        XCTAssertEqual(b.width, b.height, accuracy: 1e-6, "a circle at t = \(f.t)", file: file, line: line)
        return (b.midX, b.midY, b.width / 2)
    }

    func checkCircle(_ t: TransitionTrace, view: String, from r0: Double, to r1: Double, duration: Double,
                     file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(t.record.animator?.plugin, "circle-reveal", file: file, line: line)
        XCTAssertEqual(t.record.duration, duration, file: file, line: line)
        for f in t.frames {
            let c = try maskCircle(f, on: view, file: file, line: line)
            let e = Reference.bezier(f.t / duration, 0.42, 0, 0.58, 1)
            XCTAssertEqual(c.x, centre.x, accuracy: 1e-6, "centred on the button at t = \(f.t)", file: file, line: line)
            XCTAssertEqual(c.y, centre.y, accuracy: 1e-6, file: file, line: line)
            XCTAssertEqual(c.r, r0 + (r1 - r0) * e, accuracy: 1e-3, "radius at t = \(f.t)", file: file, line: line)
        }
        if t.after.has(view) {
            XCTAssertNil(try t.after.node(named: view, file: file, line: line).layers?.mask, "the mask is removed at the end", file: file, line: line)
        }
    }

    func testPresentGrowsTheCircleFromTheButtonAndDismissShrinksIt() throws {
        let p = try playDemo()
        XCTAssertEqual(p.run.transitions.count, 6)
        let present = p.run.transitions[0], dismiss = p.run.transitions[1]
        XCTAssertEqual(present.record.operation, .present)
        XCTAssertEqual(present.record.outcome, .completed)
        try checkCircle(present, view: "RevealDetailViewController", from: buttonRadius, to: far, duration: 0.6)
        XCTAssertEqual(present.frames.count, 37)
        XCTAssertEqual(dismiss.record.operation, .dismiss)
        XCTAssertEqual(dismiss.record.outcome, .completed)
        try checkCircle(dismiss, view: "RevealDetailViewController", from: far, to: buttonRadius, duration: 0.5)
        XCTAssertFalse(dismiss.after.has("RevealDetailViewController"), "the dismissed view is gone")
        XCTAssertTrue(dismiss.after.has("RevealHomeViewController"))
        XCTAssertTrue(p.run.breaches.isEmpty, "\(p.run.breaches)")
    }

    /// The pan drives the path animation: a release past 40 % of the height finishes the
    /// dismissal, one at 35 % cancels it and the circle grows back to cover the screen, leaving
    /// the presented view unmasked and presented.
    func testInteractiveDismissalScrubsTheMask() throws {
        let p = try playDemo()
        let finished = p.run.transitions[3], cancelled = p.run.transitions[5]
        for t in [finished, cancelled] {
            XCTAssertTrue(t.record.interactive)
            XCTAssertEqual(t.record.operation, .dismiss)
        }
        XCTAssertEqual(finished.record.outcome, .completed)
        XCTAssertEqual(cancelled.record.outcome, .cancelled)
        for t in [finished, cancelled] {
            var last = far + 1
            var smallest = far
            for f in t.frames {
                let c = try maskCircle(f, on: "RevealDetailViewController")
                XCTAssertEqual(c.x, centre.x, accuracy: 1e-6)
                XCTAssertLessThanOrEqual(c.r, far + 1e-6)
                XCTAssertGreaterThanOrEqual(c.r, buttonRadius - 1e-6)
                smallest = min(smallest, c.r)
                last = c.r
            }
            XCTAssertLessThan(smallest, far - 20, "the pan shrinks the circle")
            if t.record.outcome == .completed {
                XCTAssertEqual(last, buttonRadius, accuracy: 1e-3, "finished into the button")
            } else {
                XCTAssertEqual(last, far, accuracy: 1e-3, "cancelled back to the full circle")
            }
        }
        XCTAssertTrue(cancelled.after.has("RevealDetailViewController"), "the cancelled dismissal leaves the detail on screen")
        XCTAssertNil(try cancelled.after.node(named: "RevealDetailViewController").layers?.mask)
        XCTAssertEqual(p.run.finalPresented.count, 1)
    }
}
