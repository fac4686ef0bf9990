import Foundation
import TransHostCoordinators
import TransHostPluginHost
import TransHostRouting
import TransHostManifest
import TransHostFFI
import TransHostDiscovery
import TransHostRun
import TransHostScenario
import TransHostSupport
import XCTest

/// A gesture that does not state its own rule finishes or cancels by the interaction the routed
/// animator's manifest names (corner-fly's present names "pan": horizontal, past half); a rule in
/// the scenario wins over it.
final class RoutedInteractionTests: XCTestCase {
    /// Plays corner-fly's present driven by a pan released at 40% of the width, with the
    /// manifest's finish threshold set to `threshold` and the scenario's gesture as given.
    func present(manifestThreshold threshold: Double, gestureExtras: [String: Any]) throws -> TransitionOutcome? {
        let dir = try Products.temporaryDirectory(self)
        let installed = try Products.install("corner-fly", into: dir)
        let manifestPath = installed + "/manifest.json"
        var manifest = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: manifestPath))) as? [String: Any])
        var interactions = try XCTUnwrap(manifest["interactions"] as? [[String: Any]])
        XCTAssertEqual(interactions.first?["id"] as? String, "pan")
        interactions[0]["finishThreshold"] = threshold
        manifest["interactions"] = interactions
        try JSONSerialization.data(withJSONObject: manifest).write(to: URL(fileURLWithPath: manifestPath))
        var gesture: [String: Any] = ["samples": [[0.1, 40], [0.3, 100]], "release": [0.4, 128]]
        for (k, v) in gestureExtras { gesture[k] = v }
        let scenario = try Products.demo("corner-fly", test: self) {
            $0["script"] = [["action": "present", "controller": "third", "gesture": gesture]]
        }
        let scan = try PluginScanner.scan(PluginSearchPath(entries: [.init(path: dir, origin: "--plugins", required: true)]), registry: nil)
        let p = Playback.play(scenario, scan: scan)
        XCTAssertEqual(p.run.transitions.first?.record.animator, AnimatorIdentity(plugin: "corner-fly", id: "present"))
        return p.run.transitions.first?.record.outcome
    }

    func testTheRoutedInteractionDecidesWhenTheGestureDoesNot() throws {
        XCTAssertEqual(try present(manifestThreshold: 0.5, gestureExtras: [:]), .cancelled, "0.4 of the width is not past half")
        XCTAssertEqual(try present(manifestThreshold: 0.3, gestureExtras: [:]), .completed, "the manifest's 0.3 threshold is passed")
    }

    func testTheScenariosRuleWins() throws {
        XCTAssertEqual(try present(manifestThreshold: 0.3, gestureExtras: ["threshold": 0.5]), .cancelled)
    }
}
