import Foundation
import TransHostTestSupport
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

    func testLayerCardSpringsWithKeyframeFadeAndEndsFromTheTransactionCompletion() throws {
        let run = try Corpus.play("layer-card", self)
        assertExitedCleanly(run)
        let present = run.trace.transitions[0]
        assertClean(present, animator: "layer-card")
        // CASpringAnimation on transform.scale from 0.5 to 1: m 1, k 200, c 12 (under-damped).
        let w0 = 200.0.squareRoot(), zeta = 12 / (2 * w0), wd = w0 * (1 - zeta * zeta).squareRoot()
        for (k, f) in present.frames.enumerated() {
            let t = Double(k) / 60
            let card = try XCTUnwrap(f["LayerCard"])
            let x = exp(-zeta * w0 * t) * (cos(wd * t) + zeta * w0 / wd * sin(wd * t))
            XCTAssertEqual(card.m11, 0.5 + 0.5 * (1 - x), accuracy: 2e-6, "t \(t): the spring's scale")
            XCTAssertEqual(card.m22, card.m11, accuracy: 1e-9)
            // CAKeyframeAnimation on opacity: 0 -> 1 by key time 0.25 of 0.8 s, then held.
            XCTAssertEqual(card.alpha, min(t / 0.2, 1), accuracy: 2e-6, "t \(t): the keyframe fade")
            let layer = try XCTUnwrap(card.layer)
            let gradient = try XCTUnwrap((layer["sublayers"] as? [[String: Any]])?.first?["gradient"] as? [String: Any])
            XCTAssertEqual(gradient["colors"] as? [String], ["#ffffffff", "#3366e6ff"], "a layer being set up does not animate implicitly")
            let shadow = try XCTUnwrap(layer["shadow"] as? [String: Any])
            XCTAssertEqual((shadow["radius"] as? NSNumber)?.doubleValue, 8)
        }
        XCTAssertGreaterThan(present.track("LayerCard").map(\.m11).max() ?? 0, 1.05, "the spring overshoots")
        let container = try XCTUnwrap(present.last.views.first { $0.layer?["sublayerTransform"] != nil })
        XCTAssertEqual(((container.layer?["sublayerTransform"] as? [NSNumber])?[11])?.doubleValue ?? 0, -1.0 / 500, accuracy: 1e-6)
        XCTAssertEqual(run.trace.finalPresented, ["LayerCard"])
    }

    func testRippleGroupGrowsAndFadesItsRingThenTheDelegateRemovesIt() throws {
        let run = try Corpus.play("ripple", self)
        assertExitedCleanly(run)
        let present = run.trace.transitions[0]
        assertClean(present, animator: "ripple")
        // Ease-out (0, 0), (0.58 as Float, 1), by bisection on the Bernstein form.
        func easeOut(_ x: Double) -> Double {
            let x2 = Double(Float(0.58))
            func b(_ p1: Double, _ p2: Double, _ t: Double) -> Double { 3 * (1 - t) * (1 - t) * t * p1 + 3 * (1 - t) * t * t * p2 + t * t * t }
            var lo = 0.0, hi = 1.0
            for _ in 0..<100 { let m = (lo + hi) / 2; if b(0, x2, m) < x { lo = m } else { hi = m } }
            return b(0, 1, (lo + hi) / 2)
        }
        for (k, f) in present.frames.enumerated() {
            let p = easeOut(Double(k) / 60 / 0.6)
            let window = try XCTUnwrap(f.views.first { $0.layer != nil }, "t \(f.t): the container's layer holds the ring")
            let ring = try XCTUnwrap((window.layer?["sublayers"] as? [[String: Any]])?.first)
            let m = (ring["transform"] as? [NSNumber] ?? []).map(\.doubleValue)
            XCTAssertEqual(m.first ?? .nan, 1 + 7 * p, accuracy: 1e-5, "t \(f.t): transform.scale, on the group's ease-out")
            XCTAssertEqual(m.count > 10 ? m[10] : .nan, 1 + 7 * p, accuracy: 1e-5, "transform.scale scales z too")
            XCTAssertEqual((ring["opacity"] as? NSNumber)?.doubleValue ?? .nan, 1 - p, accuracy: 1e-5, "t \(f.t): opacity")
            XCTAssertEqual((ring["shape"] as? [String: Any])?["fillColor"] as? String, "#00000000")
        }
        XCTAssertTrue(present.after.views.allSatisfy { $0.layer == nil }, "the delegate removed the ring")
    }

    /// Every key inside a view's `layer` in these traces is named in docs/trace.md.
    func testTheTraceDocumentNamesEveryLayerField() throws {
        let doc = try String(contentsOfFile: TestProcess.packageRoot + "/docs/trace.md", encoding: .utf8)
        var keys = Set<String>()
        func collect(_ v: Any) {
            if let o = v as? [String: Any] { for (k, x) in o { keys.insert(k); collect(x) } }
            if let a = v as? [Any] { a.forEach(collect) }
        }
        for scenario in ["circular-reveal", "layer-card", "ripple"] {
            let run = try Corpus.play(scenario, self)
            for t in run.trace.transitions { for f in t.frames { for v in f.views { if let l = v.layer { collect(l) } } } }
        }
        XCTAssertGreaterThan(keys.count, 20)
        for k in keys.sorted() { XCTAssertTrue(doc.contains("`\(k)`"), "docs/trace.md does not name the layer field `\(k)`") }
    }
}
