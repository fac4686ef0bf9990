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

/// corner-fly (Swift; seed 001). Push 3.0 s: the from-view flies to the top-left corner
/// (identity -> translation (-W, -H)) while the to-view comes from the bottom-right
/// ((W, H) -> identity), W x H the container's real size, on the default ease-in-out. Pop 2.0 s:
/// top to bottom. Present 1.3 s on a spring (damping 0.5, velocity 0): a snapshot of the presented
/// view slides in from x = -W.
final class CornerFlyTests: XCTestCase {
    func playDemo(device: String? = nil) throws -> Playback {
        let scenario = try Products.demo("corner-fly", test: self, edit: device.map { d in { $0["device"] = d } })
        return try Products.play(scenario, plugins: ["corner-fly"], test: self)
    }

    func assertTranslation(_ t: Transform3D, _ tx: Double, _ ty: Double, _ message: String,
                           file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTransform(t, Transform3D.translation(tx, ty, 0), accuracy: 1e-9, message, file: file, line: line)
    }

    func checkPush(device: String?, width w: Double, height h: Double) throws {
        let p = try playDemo(device: device)
        XCTAssertEqual(p.run.scenario.device.width, w)
        XCTAssertEqual(p.run.scenario.device.height, h)
        let push = try XCTUnwrap(p.run.transitions.first)
        XCTAssertEqual(push.record.operation, .push)
        XCTAssertEqual(push.record.animator, AnimatorIdentity(plugin: "corner-fly", id: "push"))
        XCTAssertEqual(push.record.duration, 3.0)
        XCTAssertEqual(push.frames.count, 181)

        let f0 = try push.frame(at: 0)
        assertTranslation(try f0.node(named: "SecondViewController").state.transform, w, h, "the to-view starts at the bottom-right corner")
        assertTranslation(try f0.node(named: "FirstViewController").state.transform, 0, 0, "the from-view starts in place")
        XCTAssertLessThan(try f0.node(named: "SecondViewController").z, try f0.node(named: "FirstViewController").z, "to-view below the from-view")

        for f in push.frames {
            let e = Reference.easeInOut(f.t / 3.0)
            assertTranslation(try f.node(named: "FirstViewController").state.transform, -w * e, -h * e, "from-view at t = \(f.t)")
            assertTranslation(try f.node(named: "SecondViewController").state.transform, w * (1 - e), h * (1 - e), "to-view at t = \(f.t)")
        }
        // Half-way (1.5 s): ease-in-out is symmetric, so exactly half of the way.
        assertTranslation(try push.frame(at: 1.5).node(named: "FirstViewController").state.transform, -w / 2, -h / 2, "midpoint")
        // The last frame, just before the completion: the from-view is at the top-left corner.
        let last = try push.frame(at: 3.0)
        assertTranslation(try last.node(named: "FirstViewController").state.transform, -w, -h, "from-view at the end")
        assertTranslation(try last.node(named: "SecondViewController").state.transform, 0, 0, "to-view at the end")
        // The completion resets the from-view's transform.
        XCTAssertEqual(try XCTUnwrap(p.app.controllers["first"]).view.transform3D, .identity)
        XCTAssertEqual(push.record.outcome, .completed)
    }

    func testPushFliesCornerToCornerOnIPhone5() throws {
        try checkPush(device: nil, width: 320, height: 568)
    }

    func testPushTranslationsFollowTheDeviceSizeOnIPhone8() throws {
        try checkPush(device: "iphone-8", width: 375, height: 667)
    }

    func testPopDropsTopToBottomInTwoSeconds() throws {
        for (device, h) in [(nil as String?, 568.0), ("iphone-8", 667.0)] {
            let p = try playDemo(device: device)
            let pop = p.run.transitions[1]
            XCTAssertEqual(pop.record.operation, .pop)
            XCTAssertEqual(pop.record.animator, AnimatorIdentity(plugin: "corner-fly", id: "pop"))
            XCTAssertEqual(pop.record.duration, 2.0)
            for f in pop.frames {
                let e = Reference.easeInOut(f.t / 2.0)
                assertTranslation(try f.node(named: "SecondViewController").state.transform, 0, h * e, "from-view at t = \(f.t)")
                assertTranslation(try f.node(named: "FirstViewController").state.transform, 0, -h * (1 - e), "to-view at t = \(f.t)")
            }
            assertTranslation(try pop.frame(at: 2.0).node(named: "SecondViewController").state.transform, 0, h, "from-view at the end")
            XCTAssertEqual(pop.record.outcome, .completed)
        }
    }

    func testPresentSlidesTheSnapshotInOnTheSpring() throws {
        for (device, w) in [(nil as String?, 320.0), ("iphone-8", 375.0)] {
            let p = try playDemo(device: device)
            let present = p.run.transitions[2]
            XCTAssertEqual(present.record.operation, .present)
            XCTAssertEqual(present.record.animator, AnimatorIdentity(plugin: "corner-fly", id: "present"))
            XCTAssertEqual(present.record.duration, 1.3)
            let (k, c) = Reference.spring(damping: 0.5, duration: 1.3, velocity: 0)
            var overshoot = false
            for f in present.frames {
                // Above: the presented view's snapshot; below: the presenting view's.
                let above = try f.node(named: "snapshot of ThirdViewController"), below = try f.node(named: "snapshot of UINavigationController")
                XCTAssertTrue(above.view.isSnapshot && below.view.isSnapshot)
                XCTAssertGreaterThan(above.z, below.z)
                XCTAssertEqual(below.state.transform, .identity)
                guard f.t < present.record.duration else { continue }
                let q = Reference.springProgress(k: k, c: c, v: 0, t: f.t)
                if q > 1 { overshoot = true }
                assertTranslation(above.state.transform, -w * (1 - q), 0, "snapshot at t = \(f.t)")
            }
            XCTAssertTrue(overshoot, "damping 0.5 overshoots: the snapshot passes x = 0 and comes back")
            assertTranslation(try present.frame(at: 0).node(named: "snapshot of ThirdViewController").state.transform, -w, 0, "starts one width to the left")
            let end = try present.frame(at: 1.3).node(named: "snapshot of ThirdViewController").state.transform
            XCTAssertEqual(end.m41, 0, accuracy: 0.005 * w)
            XCTAssertEqual(present.record.outcome, .completed)
        }
    }

    func testDemoEndsConsistentAfterTheGestureDrivenPresents() throws {
        let p = try playDemo()
        let ops = p.run.transitions.map { "\($0.record.operation.rawValue)\($0.record.interactive ? "*" : "")=\($0.record.outcome.rawValue)" }
        XCTAssertEqual(ops, ["push=completed", "pop=completed", "present=completed", "dismiss=completed",
                             "present*=completed", "dismiss=completed", "present*=cancelled"])
        XCTAssertEqual(p.run.finalStack, ["FirstViewController"])
        XCTAssertEqual(p.run.finalPresented, [])
        XCTAssertTrue(p.run.breaches.isEmpty, "\(p.run.breaches)")
        XCTAssertFalse(p.app.window.subviews.contains { $0.isSnapshot }, "snapshots left: \(p.app.window.subviews.map(\.name))")
    }
}
