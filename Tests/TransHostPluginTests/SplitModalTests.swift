import Foundation
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

/// split-modal (Swift; seed 000 IACModalTransition). Present, 1.0 s, keyframes with linear
/// calculation mode under the keyframe animation's default ease-in-out curve:
/// - keyframe [0, 0.5]: the presenting view's two snapshot halves turn about Y (m34 = -1/900,
///   rotated by the `angle` parameter, 90 *radians* by default as in the seed) and move out 120 pt;
/// - keyframe [0.5, 1]: the presented view grows from scale 0 to identity, alpha 0.6 -> 1.
/// Dismiss (0.5 s, the manifest's dismissal_duration) plays it backwards.
final class SplitModalTests: XCTestCase {
    let width = 320.0, height = 568.0
    let leftName = "snapshot of snapshot of UINavigationController in 0,0 160x568"
    let rightName = "snapshot of snapshot of UINavigationController in 160,0 160x568"

    /// The manifest's default for a configure parameter (the value the plugin runs with).
    func parameterDefault(_ name: String) throws -> Double {
        let data = try Data(contentsOf: URL(fileURLWithPath: Products.packageRoot + "/Plugins/split-modal/manifest.json"))
        let manifest = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let configure = try XCTUnwrap(manifest["configure"] as? [String: Any])
        let params = try XCTUnwrap(configure["parameters"] as? [[String: Any]])
        let p = try XCTUnwrap(params.first { $0["name"] as? String == name })
        return try XCTUnwrap(p["default"] as? Double)
    }

    /// Progress within the keyframe [start, start + length] at time t of a keyframe animation of
    /// `duration`: the whole animation is eased (ease-in-out), then each segment is linear.
    func segment(_ t: Double, duration: Double, start: Double, length: Double) -> Double {
        let e = Reference.easeInOut(t / duration)
        return min(max((e - start) / length, 0), 1)
    }

    func playDemo() throws -> Playback {
        try Products.play(try Products.demo("split-modal", test: self), plugins: ["split-modal"], test: self)
    }

    func halves(_ f: TraceFrame) throws -> (left: PresentationNode, right: PresentationNode) {
        let left = try f.node(named: leftName), right = try f.node(named: rightName)
        XCTAssertTrue(left.view.isSnapshot && right.view.isSnapshot)
        return (left, right)
    }

    func testAngleParameterDefaultIsTheSeedsNinetyRadians() throws {
        XCTAssertEqual(try parameterDefault("angle"), 90)
        XCTAssertEqual(try parameterDefault("offset"), 120)
        XCTAssertEqual(try parameterDefault("perspective"), 900)
        // 90 radians is not a quarter turn: cos 90 = -0.448..., so each half shows its back.
        XCTAssertEqual(Reference.splitTransform(sign: 1).m11, cos(90.0), accuracy: 1e-15)
        XCTAssertLessThan(Reference.splitTransform(sign: 1).m11, -0.44)
    }

    func testPresentHalvesAreOutAndTurnedAtTheKeyframeBoundary() throws {
        let p = try playDemo()
        let present = try XCTUnwrap(p.run.transitions.first)
        XCTAssertEqual(present.record.operation, .present)
        XCTAssertEqual(present.record.animator, AnimatorIdentity(plugin: "split-modal", id: "split-modal"))
        XCTAssertEqual(present.record.duration, 1.0)
        let angle = try parameterDefault("angle"), offset = try parameterDefault("offset")
        let t1 = Reference.splitTransform(sign: 1, angle: angle), t2 = Reference.splitTransform(sign: -1, angle: angle)

        // t = 0: side by side where the presenting view was, unturned.
        let start = try halves(try present.frame(at: 0))
        XCTAssertPoint(start.left.state.position, width / 4, height / 2)
        XCTAssertPoint(start.right.state.position, 3 * width / 4, height / 2)
        XCTAssertEqual(start.left.state.bounds.width, width / 2)
        XCTAssertEqual(start.left.state.transform, .identity)
        XCTAssertEqual(start.right.state.transform, .identity)

        // t = 0.5 s, the end of the first keyframe: 120 pt out and fully turned.
        let boundary = try halves(try present.frame(at: 0.5))
        XCTAssertPoint(boundary.left.state.position, width / 4 - offset, height / 2)
        XCTAssertPoint(boundary.right.state.position, 3 * width / 4 + offset, height / 2)
        XCTAssertTransform(boundary.left.state.transform, t1, accuracy: 1e-9, "firstTransform")
        XCTAssertTransform(boundary.right.state.transform, t2, accuracy: 1e-9, "secondTransform")

        // In between, the halves move on the eased-then-linear keyframe progress...
        for f in present.frames where f.t <= 0.5 {
            let s = segment(f.t, duration: 1, start: 0, length: 0.5)
            let h = try halves(f)
            XCTAssertEqual(h.left.state.position.x, width / 4 - offset * s, accuracy: 1e-9, "left half at t = \(f.t)")
            XCTAssertEqual(h.right.state.position.x, 3 * width / 4 + offset * s, accuracy: 1e-9, "right half at t = \(f.t)")
        }
        // ... and hold still through the second keyframe.
        for f in present.frames where f.t >= 0.5 {
            let h = try halves(f)
            XCTAssertPoint(h.left.state.position, width / 4 - offset, height / 2)
            XCTAssertTransform(h.left.state.transform, t1, accuracy: 1e-9, "held at t = \(f.t)")
            XCTAssertTransform(h.right.state.transform, t2, accuracy: 1e-9, "held at t = \(f.t)")
        }
        // At 25% of the duration the eased progress is easeInOut(0.25) = 0.129..., i.e. about a
        // quarter (not half) of the way through the first keyframe.
        let quarter = try halves(try present.frame(at: 0.25))
        let s = 2 * Reference.easeInOut(0.25)
        XCTAssertEqual(s, 0.2593, accuracy: 1e-3)
        XCTAssertEqual(quarter.left.state.position.x, width / 4 - offset * s, accuracy: 1e-9)
    }

    func testPresentedViewGrowsInTheSecondKeyframe() throws {
        let p = try playDemo()
        let present = try XCTUnwrap(p.run.transitions.first)
        for f in present.frames {
            let image = try f.node(named: "IACImageViewController").state
            let s = segment(f.t, duration: 1, start: 0.5, length: 0.5)
            // Scale 0 is singular, so the blend is component-wise: exactly the scale s.
            XCTAssertTransform(image.transform, Transform3D.scale(s, s, 1), accuracy: 1e-9, "scale at t = \(f.t)")
            XCTAssertEqual(image.alpha, 0.6 + 0.4 * s, accuracy: 1e-9, "alpha at t = \(f.t)")
            XCTAssertPoint(image.position, width / 2, height / 2)
        }
        // The three instants named by the seed's keyframes.
        let at50 = try present.frame(at: 0.5).node(named: "IACImageViewController").state
        XCTAssertEqual(at50.transform.m11, 0, accuracy: 1e-12)
        XCTAssertEqual(at50.alpha, 0.6, accuracy: 1e-12)
        let at75 = try present.frame(at: 0.75).node(named: "IACImageViewController").state
        let s75 = (Reference.easeInOut(0.75) - 0.5) / 0.5
        XCTAssertEqual(s75, 0.7415, accuracy: 1e-3, "ease-in-out makes 75% of the time about 74% of the second keyframe")
        XCTAssertEqual(at75.transform.m11, s75, accuracy: 1e-9)
        XCTAssertEqual(at75.transform.m22, s75, accuracy: 1e-9)
        XCTAssertEqual(at75.alpha, 0.6 + 0.4 * s75, accuracy: 1e-9)
        let at100 = try present.frame(at: 1.0).node(named: "IACImageViewController").state
        XCTAssertEqual(at100.transform, .identity)
        XCTAssertEqual(at100.alpha, 1, accuracy: 1e-12)
    }

    func testPresentEndsWithThePresentedViewAloneAndNoSnapshots() throws {
        let p = try playDemo()
        let present = try XCTUnwrap(p.run.transitions.first)
        XCTAssertEqual(present.record.outcome, .completed)
        XCTAssertTrue(p.run.breaches.isEmpty, "\(p.run.breaches)")
        // Presented, then dismissed by the demo: back to the presenting view, nothing left over.
        XCTAssertEqual(p.run.finalPresented, [])
        XCTAssertEqual(p.run.finalStack, ["MasterViewController"])
        XCTAssertFalse(p.app.window.subviews.contains { $0.isSnapshot }, "snapshots left in the window: \(p.app.window.subviews.map(\.name))")
        XCTAssertTrue(p.app.window.subviews.contains { $0.name == "UINavigationController" })
        XCTAssertNil(p.app.controllers["image"]?.view.superview)
    }

    func testDismissReversesInHalfASecond() throws {
        let p = try playDemo()
        XCTAssertEqual(p.run.transitions.count, 2)
        let dismiss = p.run.transitions[1]
        XCTAssertEqual(dismiss.record.operation, .dismiss)
        XCTAssertEqual(dismiss.record.animator, AnimatorIdentity(plugin: "split-modal", id: "split-modal"))
        XCTAssertEqual(dismiss.record.duration, try parameterDefault("dismissal_duration"))
        XCTAssertEqual(dismiss.record.duration, 0.5)
        let d = dismiss.record.duration
        let angle = try parameterDefault("angle"), offset = try parameterDefault("offset")
        for f in dismiss.frames {
            // The presented view's snapshot shrinks away in the first keyframe...
            let shrink = segment(f.t, duration: d, start: 0, length: 0.5)
            let snapshot = try f.node(named: "snapshot of IACImageViewController").state
            XCTAssertTransform(snapshot.transform, Transform3D.scale(1 - shrink, 1 - shrink, 1), accuracy: 1e-9, "at t = \(f.t)")
            XCTAssertEqual(snapshot.alpha, 1 - 0.4 * shrink, accuracy: 1e-9)
            // ... and the halves close in during the second.
            let close = segment(f.t, duration: d, start: 0.5, length: 0.5)
            let h = try halves(f)
            XCTAssertEqual(h.left.state.position.x, width / 4 - offset * (1 - close), accuracy: 1e-9, "left half at t = \(f.t)")
            XCTAssertEqual(h.right.state.position.x, 3 * width / 4 + offset * (1 - close), accuracy: 1e-9, "right half at t = \(f.t)")
        }
        let first = try halves(try dismiss.frame(at: 0))
        XCTAssertTransform(first.left.state.transform, Reference.splitTransform(sign: 1, angle: angle), accuracy: 1e-9)
        XCTAssertTransform(first.right.state.transform, Reference.splitTransform(sign: -1, angle: angle), accuracy: 1e-9)
        let last = try halves(try dismiss.frame(at: d))
        XCTAssertTransform(last.left.state.transform, .identity, accuracy: 1e-12)
        XCTAssertTransform(last.right.state.transform, .identity, accuracy: 1e-12)
    }
}
