import XCTest

/// PropertyAnimatorSlideAnimator (written for UIKit, unchanged): its push is one
/// UIViewPropertyAnimator that is also its interruptible animator. The scenario grabs each push
/// while it runs (the grab action): the first is dragged on and finishes, the second is dragged
/// back and is cancelled.
final class InterruptibleCorpusTests: XCTestCase {
    /// y at x for ease-in-out, by bisection on the Bernstein form.
    private func easeInOut(_ x: Double) -> Double {
        func b(_ s: Double, _ p1: Double, _ p2: Double) -> Double { 3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s }
        var lo = 0.0, hi = 1.0
        for _ in 0..<80 { let m = (lo + hi) / 2; if b(m, 0.42, 0.58) < x { lo = m } else { hi = m } }
        return b((lo + hi) / 2, 0, 1)
    }

    func testAGrabbedPropertyAnimatorPushFinishesOrReverses() throws {
        let run = try Corpus.play("property-slide", self)
        assertExitedCleanly(run)
        XCTAssertEqual(run.trace.transitions.count, 3)
        let (finished, cancelled) = (run.trace.transitions[0], run.trace.transitions[2])
        assertClean(finished, animator: "property-slide")
        assertClean(cancelled, animator: "property-slide", outcome: "cancelled")
        XCTAssertTrue(finished.interactive && cancelled.interactive, "a grabbed transition is interactive")
        let w = 375.0, mid = w / 2
        // The slide is linear in the animator's progress f: x = mid + w (1 - f).
        func x(_ f: Double) -> Double { mid + w * (1 - f) }
        let xs = finished.track("PropSlideDetail").map(\.screenX)
        // Before the grab (0.15 s): ease-in-out over 0.4 s.
        let p0 = easeInOut(0.15 / 0.4)
        // While held, a frame shows the last pan sample before it (one due at its instant runs
        // after it is sampled): dx -20 from 0.2 s, -60 from 0.25 s; released at 0.3 s at -120,
        // then the rest runs on along the linear completion curve.
        let release = p0 + 120 / w
        for (k, value) in xs.enumerated() {
            let t = Double(k) / 60
            let expected: Double
            if t < 0.15 { expected = x(easeInOut(t / 0.4)) }
            else if t < 0.2 + 1e-9 { expected = x(p0) }
            else if t < 0.25 + 1e-9 { expected = x(p0 + 20 / w) }
            else if t < 0.3 + 1e-9 { expected = x(p0 + 60 / w) }
            else { expected = x(min(release + (t - 0.3) / 0.4, 1)) }
            XCTAssertEqual(value, expected, accuracy: 1e-5, "frame \(k) at \(t) s")
        }
        XCTAssertEqual(finished.last["PropSlideDetail"]?.screenX ?? .nan, mid, accuracy: 1e-6)
        // The second grab at 0.2 s (half way in time: the symmetric curve's midpoint) is dragged
        // back 160 pt and released: it runs back to the start.
        let back = cancelled.track("PropSlideDetail").map(\.screenX)
        XCTAssertEqual(back.first ?? .nan, x(0), accuracy: 1e-6)
        XCTAssertEqual(back[13], x(0.5), accuracy: 1e-5, "held at the grab (frame 13, 0.217 s)")
        XCTAssertEqual(back[18], x(0.5 - 40 / w), accuracy: 1e-5, "dragged back 40 pt by the 0.25 s sample")
        XCTAssertEqual(back[19], x(0.5 - 120 / w), accuracy: 1e-5, "and 120 pt by the 0.3 s one")
        XCTAssertEqual(back.last ?? .nan, x(0), accuracy: 1e-6, "run back off screen")
        XCTAssertEqual(run.trace.finalStack, ["PropSlideList"])
        XCTAssertTrue(cancelled.after.views.allSatisfy { $0.name != "PropSlideDetail" }, "the cancelled push left the detail screen out")
    }
}
