import Foundation
import XCTest

/// Corpus animators written with Core Animation (layers, explicit animations, delegates), played
/// through the real binary as a user would.
final class CoreAnimationCorpusTests: XCTestCase {
    /// An ease-in-out cubic's y at x, by bisection on its Bernstein form. CAMediaTimingFunction
    /// keeps its control points as Float, as in UIKit, so 0.42 and 0.58 are their Float values.
    private func easeInOut(_ x: Double) -> Double {
        let (x1, x2) = (Double(Float(0.42)), Double(Float(0.58)))
        func b(_ p1: Double, _ p2: Double, _ t: Double) -> Double { 3 * (1 - t) * (1 - t) * t * p1 + 3 * (1 - t) * t * t * p2 + t * t * t }
        var lo = 0.0, hi = 1.0
        for _ in 0..<100 { let m = (lo + hi) / 2; if b(x1, x2, m) < x { lo = m } else { hi = m } }
        return b(0, 1, (lo + hi) / 2)
    }

    func testCircularRevealGrowsItsShapeMaskAndCompletesFromTheDelegate() throws {
        let run = try Corpus.play("circular-reveal", self)
        assertExitedCleanly(run)
        // The circle grows from the 44-point button 60 points above the bottom centre to a radius
        // reaching the farthest corner: hypot(160, 508) on an iPhone 5.
        let radius = (160.0 * 160 + 508 * 508).squareRoot()
        for (t, view) in [(run.trace.transitions[0], "RevealCard"), (run.trace.transitions[1], "RevealHome")] {
            assertClean(t, animator: "circular-reveal")
            XCTAssertEqual(t.duration, 0.5)
            // Frames are at k / 60 s; the trace prints times rounded to 6 decimals.
            for (k, f) in t.frames.enumerated() {
                let owner = view == "RevealCard" ? f[view] : f["UINavigationController"]
                let b = try XCTUnwrap(owner?.maskPathBounds, "\(t.summary) t \(f.t): the to-view is masked")
                let want = 44 + (2 * radius - 44) * easeInOut(Double(k) / 60 / 0.5)
                XCTAssertEqual(b[2], want, accuracy: 1e-4, "\(t.summary) t \(f.t): the mask's diameter")
                XCTAssertEqual(b[0] + b[2] / 2, 160, accuracy: 1e-4, "centred on the button")
                XCTAssertEqual(b[1] + b[3] / 2, 508, accuracy: 1e-4)
            }
            XCTAssertTrue(t.after.views.allSatisfy { $0.layer == nil }, "animationDidStop removed the mask before completing")
        }
        XCTAssertEqual(run.trace.finalPresented, [])
    }
}
