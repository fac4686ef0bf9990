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

/// snapshot-search (Swift; seed 002 MainTransitioningDelegate). Only Home <-> CompanySearch is
/// animated (0.5 s); every other pair gets the host's default. Three UIView animations with the
/// default ease-in-out run side by side:
/// - the from-view fades out over 0.2 s;
/// - the search bar's snapshot moves between its place (y = 260 on Home) and y = 0 over 0.5 s;
/// - the destination's snapshot fades in over 0.25 s after a 0.25 s delay.
final class SnapshotSearchTests: XCTestCase {
    let homeSearchBarY = 260.0

    func playDemo() throws -> Playback {
        try Products.play(try Products.demo("snapshot-search", test: self), plugins: ["snapshot-search"], test: self)
    }

    /// Alpha of a 0 -> 1 fade of `length` seconds that starts after `delay`, on ease-in-out.
    func fadeIn(_ t: Double, delay: Double, length: Double) -> Double {
        t <= delay ? 0 : Reference.easeInOut((t - delay) / length)
    }

    func testRoutingOnlyHomeAndCompanySearch() throws {
        let p = try playDemo()
        let summary = p.run.transitions.map { "\($0.record.operation.rawValue) \($0.record.fromType)->\($0.record.toType) \($0.record.animator?.id ?? "default")" }
        XCTAssertEqual(summary, [
            "push HomeController->CompanySearchController snapshot-search",
            "pop CompanySearchController->HomeController snapshot-search",
            "push HomeController->CompanyDetailController default",
            "pop CompanyDetailController->HomeController default",
        ])
        for tr in p.run.transitions.dropFirst(2) {
            XCTAssertNil(tr.record.animator, "the default transition runs, as when the seed's delegate returns nil")
            XCTAssertEqual(tr.record.outcome, .completed)
        }
        XCTAssertEqual(p.run.finalStack, ["HomeController"])
        XCTAssertTrue(p.run.breaches.isEmpty, "\(p.run.breaches)")
    }

    func testHomeToSearchMovesTheSearchBarUpAndCrossFades() throws {
        let p = try playDemo()
        let push = p.run.transitions[0]
        XCTAssertEqual(push.record.duration, 0.5)
        for f in push.frames {
            let e = Reference.easeInOut(min(f.t / 0.5, 1))
            let bar = try f.node(named: "snapshot of searchView")
            XCTAssertTrue(bar.view.isSnapshot)
            XCTAssertEqual(bar.state.frame.minY, homeSearchBarY * (1 - e), accuracy: 1e-9, "bar y at t = \(f.t)")
            XCTAssertEqual(bar.state.frame.minX, 16, accuracy: 1e-9)
            XCTAssertEqual(bar.state.alpha, 1 - e, accuracy: 1e-9, "bar alpha at t = \(f.t)")
            XCTAssertEqual(try f.node(named: "HomeController").state.alpha, 1 - Reference.easeInOut(min(f.t / 0.2, 1)), accuracy: 1e-9, "Home alpha at t = \(f.t)")
            XCTAssertEqual(try f.node(named: "snapshot of CompanySearchController").state.alpha, fadeIn(f.t, delay: 0.25, length: 0.25), accuracy: 1e-9,
                           "destination snapshot alpha at t = \(f.t)")
        }
        // The instants the seed names.
        XCTAssertEqual(try push.frame(at: 0.5).node(named: "snapshot of searchView").state.frame.minY, 0, accuracy: 1e-12)
        for f in push.frames where f.t >= 0.2 - 1e-12 {
            XCTAssertEqual(try f.node(named: "HomeController").state.alpha, 0, accuracy: 1e-12, "Home is gone from 0.2 s on (t = \(f.t))")
        }
        for f in push.frames where f.t <= 0.25 + 1e-12 {
            XCTAssertEqual(try f.node(named: "snapshot of CompanySearchController").state.alpha, 0, accuracy: 1e-12, "still invisible at t = \(f.t)")
        }
        XCTAssertEqual(try push.frame(at: 0.5).node(named: "snapshot of CompanySearchController").state.alpha, 1, accuracy: 1e-12)
        // After: the real search view replaces the snapshots; Home's alpha is reset for its return.
        XCTAssertEqual(push.record.outcome, .completed)
        XCTAssertEqual(try XCTUnwrap(p.app.controllers["home"]).view.alpha, 1)
    }

    func testSearchToHomeReverses() throws {
        let p = try playDemo()
        let pop = p.run.transitions[1]
        XCTAssertEqual(pop.record.duration, 0.5)
        for f in pop.frames {
            let e = Reference.easeInOut(min(f.t / 0.5, 1))
            let bar = try f.node(named: "snapshot of searchView")
            XCTAssertEqual(bar.state.frame.minY, homeSearchBarY * e, accuracy: 1e-9, "bar y at t = \(f.t)")
            XCTAssertEqual(bar.state.alpha, 1, accuracy: 1e-12)
            XCTAssertEqual(try f.node(named: "CompanySearchController").state.alpha, 1 - Reference.easeInOut(min(f.t / 0.2, 1)), accuracy: 1e-9)
            XCTAssertEqual(try f.node(named: "snapshot of HomeController").state.alpha, fadeIn(f.t, delay: 0.25, length: 0.25), accuracy: 1e-9,
                           "destination snapshot alpha at t = \(f.t)")
            XCTAssertEqual(try f.node(named: "snapshot of CompanySearchController").state.alpha, 1, accuracy: 1e-12)
        }
        XCTAssertEqual(try pop.frame(at: 0).node(named: "snapshot of searchView").state.frame.minY, 0, accuracy: 1e-12)
        XCTAssertEqual(try pop.frame(at: 0.5).node(named: "snapshot of searchView").state.frame.minY, homeSearchBarY, accuracy: 1e-12)
        XCTAssertEqual(try pop.frame(at: 0.25).node(named: "snapshot of HomeController").state.alpha, 0, accuracy: 1e-12)
        XCTAssertEqual(try pop.frame(at: 0.5).node(named: "snapshot of HomeController").state.alpha, 1, accuracy: 1e-12)
        XCTAssertEqual(try pop.frame(at: 0.2).node(named: "CompanySearchController").state.alpha, 0, accuracy: 1e-12)
        XCTAssertEqual(pop.record.outcome, .completed)
        // No snapshot is left behind in the navigation container.
        let container = try XCTUnwrap(p.app.navigation).view
        XCTAssertFalse(container.subviews.contains { $0.isSnapshot }, "\(container.subviews.map(\.name))")
    }
}
