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

/// rotate-spring (Swift; seed 000 IACNavigationTransition). Push, 1.0 s on UIKit's spring
/// (damping 0.8, initial velocity 6.0; spring time is linear, the curve option is ignored):
/// the to-view hangs from the top centre (anchorPoint (0.5, 0) at (width / 2, 0)) and turns from
/// upside down (-pi) to 0; the from-view flies to the centre (-width, height / 2) turning pi / 2.
final class RotateSpringTests: XCTestCase {
    let width = 320.0, height = 568.0
    let duration = 1.0

    func playDemo() throws -> Playback {
        try Products.play(try Products.demo("rotate-spring", test: self), plugins: ["rotate-spring"], test: self)
    }

    /// The spring's progress at t, from the closed form written in this test.
    lazy var progress: (Double) -> Double = {
        let (k, c) = Reference.spring(damping: 0.8, duration: 1.0, velocity: 6.0)
        return { Reference.springProgress(k: k, c: c, v: 6.0, t: $0) }
    }()

    func testSpringReferenceOvershootsAndSettles() {
        // The strong initial velocity overshoots the target (by about 4%); at the duration the
        // sine term's envelope is 0.001 (the solver's definition), so the whole displacement is
        // a few thousandths.
        let peak = stride(from: 0.0, through: 1.0, by: 1.0 / 600).map(progress).max() ?? 0
        XCTAssertGreaterThan(peak, 1.03)
        XCTAssertEqual(progress(0), 0, accuracy: 1e-12)
        XCTAssertEqual(progress(1.0), 1, accuracy: 0.005)
    }

    /// DESIGN.md section 8's reference vectors for the (k, c) the spring uses.
    func testSpringConstantsMatchTheDesignVectors() {
        for (zeta, T, k, c, tolerance) in [(0.25, 3.0, 54.83363359078326, 3.702486785620688, 1e-9),
                                           (0.7, 0.5, 387.27458, 27.55101, 1e-4), (1.0, 0.5, 341.02370, 36.93365, 1e-4)] {
            let s = SpringSolver(dampingRatio: zeta, duration: T, initialVelocity: 0)
            XCTAssertEqual(s.stiffness, k, accuracy: tolerance * k, "k for (\(zeta), \(T), 0)")
            XCTAssertEqual(s.damping, c, accuracy: tolerance * c, "c for (\(zeta), \(T), 0)")
        }
    }

    func testToViewHangsFromTheTopCentreThroughoutThePush() throws {
        let p = try playDemo()
        let push = try XCTUnwrap(p.run.transitions.first)
        XCTAssertEqual(push.record.operation, .push)
        XCTAssertEqual(push.record.animator, AnimatorIdentity(plugin: "rotate-spring", id: "rotate-spring"))
        XCTAssertEqual(push.record.duration, duration)
        XCTAssertEqual(push.frames.count, 61)
        for f in push.frames {
            let to = try f.node(named: "IACImageViewController").state
            XCTAssertPoint(to.anchorPoint, 0.5, 0, accuracy: 0, "anchor at t = \(f.t)")
            XCTAssertPoint(to.position, width / 2, 0, accuracy: 1e-9, "position at t = \(f.t)")
            XCTAssertEqual(to.bounds.size.width, width)
            XCTAssertEqual(to.bounds.size.height, height)
        }
        // The to-view is below the from-view in the container (insertSubview:belowSubview:).
        let f0 = try push.frame(at: 0)
        let to = try f0.node(named: "IACImageViewController"), from = try f0.node(named: "MasterViewController")
        XCTAssertEqual(to.parentID, from.parentID)
        XCTAssertLessThan(to.z, from.z)
    }

    func testToViewTurnsFromMinusPiToZeroOnTheSpring() throws {
        let p = try playDemo()
        let push = try XCTUnwrap(p.run.transitions.first)
        // Upside down at the start.
        let first = try push.frame(at: 0).node(named: "IACImageViewController").state.transform
        XCTAssertEqual(first.m11, -1, accuracy: 1e-12)
        XCTAssertEqual(first.m22, -1, accuracy: 1e-12)
        for f in push.frames where f.t < duration {
            let t = try f.node(named: "IACImageViewController").state.transform
            let expected = -Double.pi * (1 - progress(f.t))
            XCTAssertEqual(Reference.angleDifference(Reference.angle(t), expected), 0, accuracy: 1e-7,
                           "angle at t = \(f.t): \(Reference.angle(t)) vs \(expected)")
            // A pure rotation about z: unit scale, nothing out of the plane.
            XCTAssertEqual(t.m11 * t.m11 + t.m12 * t.m12, 1, accuracy: 1e-9)
            XCTAssertEqual(t.m33, 1, accuracy: 1e-12)
            XCTAssertEqual(t.m34, 0, accuracy: 1e-12)
        }
        // Sample times named explicitly, quarter by quarter.
        for t in [0.25, 0.5, 0.75] {
            let m = try push.frame(at: t).node(named: "IACImageViewController").state.transform
            XCTAssertEqual(Reference.angleDifference(Reference.angle(m), -Double.pi * (1 - progress(t))), 0, accuracy: 1e-7, "t = \(t)")
        }
        let last = try push.frame(at: duration).node(named: "IACImageViewController").state.transform
        XCTAssertEqual(Reference.angle(last), 0, accuracy: Double.pi * 0.005)
    }

    func testFromViewFliesLeftTurningAQuarter() throws {
        let p = try playDemo()
        let push = try XCTUnwrap(p.run.transitions.first)
        let start = try push.frame(at: 0).node(named: "MasterViewController").state
        XCTAssertPoint(start.position, width / 2, height / 2)
        XCTAssertEqual(start.transform, .identity)
        for f in push.frames where f.t < duration {
            let s = try f.node(named: "MasterViewController").state
            let q = progress(f.t)
            XCTAssertPoint(s.position, width / 2 + (-width - width / 2) * q, height / 2, accuracy: 1e-7, "from-view centre at t = \(f.t)")
            XCTAssertEqual(Reference.angleDifference(Reference.angle(s.transform), Double.pi / 2 * q), 0, accuracy: 1e-7, "from-view angle at t = \(f.t)")
            XCTAssertPoint(s.anchorPoint, 0.5, 0.5, accuracy: 0)
        }
        // The last frame: at the centre (-width, height / 2), turned pi / 2 (the spring is within
        // a few thousandths of its target at its duration).
        let end = try push.frame(at: duration).node(named: "MasterViewController").state
        XCTAssertPoint(end.position, -width, height / 2, accuracy: 0.005 * 1.5 * width)
        XCTAssertEqual(Reference.angle(end.transform), Double.pi / 2, accuracy: 0.005 * Double.pi / 2)
    }

    func testPushCompletesAndThePopIsRoutedBack() throws {
        let p = try playDemo()
        XCTAssertEqual(p.run.transitions.count, 2)
        XCTAssertEqual(p.run.transitions[0].record.outcome, .completed)
        let pop = p.run.transitions[1]
        XCTAssertEqual(pop.record.operation, .pop)
        XCTAssertEqual(pop.record.animator, AnimatorIdentity(plugin: "rotate-spring", id: "rotate-spring"), "a push rule serves the reverse pop")
        XCTAssertEqual(pop.record.outcome, .completed)
        XCTAssertEqual(p.run.finalStack, ["MasterViewController"])
        XCTAssertTrue(p.run.breaches.isEmpty, "\(p.run.breaches)")
    }
}
