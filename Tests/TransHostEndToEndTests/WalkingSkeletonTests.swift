import Foundation
import TransHostCommands
import TransHostCoordinators
import TransHostCore
import TransHostPluginHost
import TransHostRouting
import TransHostManifest
import TransHostFFI
import TransHostDiscovery
import TransHostRun
import TransHostScenario
import TransHostSupport
import XCTest

/// The skeleton's promises: a C plugin dlopen'ed from its .so, routed for push, animating as
/// seeds 003/004 describe; the default transition for the pop; the trace on disk.
final class WalkingSkeletonTests: XCTestCase {
    /// Plays `scenario` with plugins from `pluginsDir` only.
    func play(_ scenario: Scenario, pluginsDir: String) throws -> (RunResult, App) {
        let scan = try PluginScanner.scan(PluginSearchPath(entries: [.init(path: pluginsDir, origin: "--plugins", required: true)]), registry: nil)
        let p = Playback.play(scenario, scan: scan)
        return (p.run, p.app)
    }

    func view(_ frame: TraceFrame, named name: String) -> PresentationNode? { frame.nodes.first { $0.view.name == name } }

    func testPluginIsLoadedWithDlopenFromATemporaryCopy() throws {
        let dir = try BuildProducts.temporaryDirectory(self)
        let pluginDir = try BuildProducts.installPlugin("fade-scale", library: "libfade-scale.so", into: dir)
        var scenario = Scenario.builtInDefault
        scenario.script = [.push("b", animated: true, gesture: nil)]
        let (result, _) = try play(scenario, pluginsDir: dir)
        XCTAssertEqual(result.transitions.first?.record.animator, AnimatorIdentity(plugin: "fade-scale", id: "fade-scale"))
        // The library mapped into this process is the temporary copy: the host reached it only
        // through dlopen, not by linking.
        let maps = try FileIO.readString("/proc/self/maps")
        XCTAssertTrue(maps.contains(pluginDir + "/libfade-scale.so"), "the temporary copy of the plugin is not mapped: \(maps.split(separator: "\n").filter { $0.contains("fade") })")
    }

    func testPushThroughFadeScaleMatchesTheSeed() throws {
        let dir = try BuildProducts.temporaryDirectory(self)
        try BuildProducts.installPlugin("fade-scale", library: "libfade-scale.so", into: dir)
        var scenario = Scenario.builtInDefault
        scenario.script = [.push("b", animated: true, gesture: nil)]
        let (result, app) = try play(scenario, pluginsDir: dir)
        let push = try XCTUnwrap(result.transitions.first)
        XCTAssertEqual(push.record.duration, 0.25)
        XCTAssertEqual(push.record.outcome, .completed)
        XCTAssertEqual(push.frames.first?.t, 0)
        XCTAssertEqual(push.frames.last?.t, 0.25)
        XCTAssertEqual(push.frames.count, 16, "60 fps over 0.25 s with both ends: 0, 1/60, ..., 14/60, 0.25")
        let first = try XCTUnwrap(push.frames.first), last = try XCTUnwrap(push.frames.last)
        XCTAssertEqual(try XCTUnwrap(view(first, named: "B")).state.alpha, 0, accuracy: 1e-12)
        XCTAssertEqual(try XCTUnwrap(view(last, named: "B")).state.alpha, 1, accuracy: 1e-12)
        let endScale = try XCTUnwrap(view(last, named: "A")).state.transform
        XCTAssertEqual(endScale.m11, 0.1, accuracy: 1e-9)
        XCTAssertEqual(endScale.m22, 0.1, accuracy: 1e-9)
        // Halfway through, both are in between (ease-in-out: exactly half at the midpoint).
        let mid = try XCTUnwrap(push.frames.first { abs($0.t - 0.125) < 1e-9 } ?? push.frames[8])
        let midAlpha = try XCTUnwrap(view(mid, named: "B")).state.alpha
        XCTAssertGreaterThan(midAlpha, 0.3)
        XCTAssertLessThan(midAlpha, 0.8)
        // After completion: A is out of the container with its transform reset; the stack is [A, B].
        let a = try XCTUnwrap(app.controllers["a"]), b = try XCTUnwrap(app.controllers["b"])
        XCTAssertNil(a.view.superview)
        XCTAssertEqual(a.view.transform3D, .identity)
        XCTAssertTrue(b.view.superview === app.navigation?.view)
        XCTAssertEqual(result.finalStack, ["A", "B"])
        XCTAssertTrue(result.breaches.isEmpty, "\(result.breaches)")
    }

    func testPopUsesTheDefaultTransition() throws {
        let dir = try BuildProducts.temporaryDirectory(self)
        try BuildProducts.installPlugin("fade-scale", library: "libfade-scale.so", into: dir)
        let (result, app) = try play(Scenario.builtInDefault, pluginsDir: dir)
        XCTAssertEqual(result.transitions.count, 2)
        let pop = result.transitions[1]
        XCTAssertEqual(pop.record.operation, .pop)
        XCTAssertNil(pop.record.animator, "fade-scale routes push only; the pop must get the host default")
        XCTAssertEqual(pop.record.duration, DefaultNavigationAnimator.duration)
        XCTAssertEqual(result.finalStack, ["A"])
        XCTAssertNil(app.controllers["b"]?.view.superview)
        // The default pop slides B out to the right: at the end B's frame is one width over.
        let lastB = try XCTUnwrap(view(try XCTUnwrap(pop.frames.last), named: "B"))
        XCTAssertEqual(lastB.state.frame.minX, 320, accuracy: 1e-9)
    }
}
