import Foundation
import TransHostCoordinators
import TransHostCore
import TransHostPluginHost
import TransHostScenario
import XCTest

/// The UIKit-shaped kit through a real plugin (Tests/KitProbe, written as for UIKit): a
/// navigation delegate vends a UIView.transition flip for pushes and a slide for pops, an
/// edge-pan recognizer on the pushed view starts and drives the pop through a
/// UIPercentDrivenInteractiveTransition subclass, and a transitioning delegate's animator reads
/// back the host's values (colour, corner radius, clipping, screen, relatives).
final class KitCompatTests: XCTestCase {
    static let scenarioJSON = """
    {
      "format": "transhost-scenario/1",
      "name": "kit-probe",
      "device": "iphone-5",
      "types": {"ListController": "UIViewController", "DetailController": "UIViewController", "CardController": "UIViewController"},
      "controllers": {
        "list": {"type": "ListController", "view": {"background": "#ffffff"}},
        "detail": {"type": "DetailController", "view": {"background": "#0a84ff"}},
        "card": {"type": "CardController", "view": {"background": "#ff9500", "cornerRadius": 8, "clipsToBounds": true}}
      },
      "root": {"container": "navigation", "stack": ["list"]},
      "script": [
        {"action": "push", "controller": "detail"},
        {"action": "gesture", "gesture": {"start": [5, 300], "samples": [[0.1, 60], [0.2, 120], [0.3, 200]], "release": [0.4, 220]}},
        {"action": "push", "controller": "detail"},
        {"action": "gesture", "gesture": {"start": [5, 300], "samples": [[0.1, 40], [0.2, 80]], "release": [0.3, 90]}},
        {"action": "gesture", "gesture": {"start": [160, 300], "samples": [[0.1, 40]], "release": [0.2, 60]}},
        {"action": "present", "controller": "card"},
        {"action": "dismiss"}
      ]
    }
    """

    func play() throws -> Playback {
        let dir = try Products.temporaryDirectory(self)
        let dest = dir + "/kit-probe"
        let fm = FileManager.default
        try fm.createDirectory(atPath: dest, withIntermediateDirectories: true)
        let lib = Products.binDirectory + "/libkit-probe.so"
        guard fm.fileExists(atPath: lib) else { throw Products.Missing(description: "\(lib) is not built; run swift build first") }
        try fm.copyItem(atPath: lib, toPath: dest + "/libkit-probe.so")
        try fm.copyItem(atPath: Products.packageRoot + "/Tests/KitProbe/manifest.json", toPath: dest + "/manifest.json")
        let scan = try Products.scan(dir)
        for r in scan.records { XCTAssertEqual(r.status, .ok, "\(r.name): \(r.status.reason ?? "")") }
        return Playback.play(try Products.scenario(Self.scenarioJSON, test: self), scan: scan)
    }

    func testDelegatesGesturesTransitionsAndGettersWorkAsInUIKit() throws {
        let p = try play()
        let run = p.run
        XCTAssertEqual(run.breaches, [], "\(run.breaches)")
        let records = run.transitions.map(\.record)
        XCTAssertEqual(records.map(\.operation), [.push, .pop, .push, .pop, .present, .dismiss], "\(run.warnings)")

        // The navigation delegate's answers, named by their classes.
        XCTAssertEqual(records[0].animator, AnimatorIdentity(plugin: "kit-probe", id: "FlipPushAnimator"))
        XCTAssertEqual(records[1].animator, AnimatorIdentity(plugin: "kit-probe", id: "SlideBackAnimator"))

        // The flip: halfway through, the view being flipped is turned with perspective; at the
        // end every view is flat again.
        let flip = run.transitions[0]
        let mid = flip.frames[flip.frames.count / 4]
        XCTAssertTrue(mid.nodes.contains { $0.state.transform.m34 != 0 }, "no perspective mid-flip")
        XCTAssertTrue(flip.frames.last!.nodes.allSatisfy { $0.state.transform.m34 == 0 })
        XCTAssertEqual(records[0].outcome, .completed)

        // The edge pan started the pop (its handler called popViewController) and drove it:
        // interactive, finished past half the width, cancelled below it.
        XCTAssertTrue(records[1].interactive)
        XCTAssertEqual(records[1].outcome, .completed)
        XCTAssertTrue(records[3].interactive)
        XCTAssertEqual(records[3].outcome, .cancelled)
        // The slide follows the finger: after the 0.2 s sample (120 points), the from-view is
        // 120 points to the right.
        let pop = run.transitions[1]
        let atFinger = try XCTUnwrap(pop.frames.first { abs($0.t - 0.25) < 1e-9 })
        let detail = try XCTUnwrap(atFinger.nodes.first { $0.view.name == "DetailController" })
        XCTAssertEqual(detail.state.transform.m41, 120, accuracy: 1e-6)

        // A pan in the middle of the screen reaches no recognizer (only the left edge has one).
        XCTAssertTrue(run.warnings.contains { $0.contains("no gesture recognizer in the window receives it") }, "\(run.warnings)")

        // The card read back the host's values and relatives.
        XCTAssertEqual(records[4].animator, AnimatorIdentity(plugin: "kit-probe", id: "CardAnimator"))
        XCTAssertTrue(run.logs.contains { $0.contains("card colour 255 149 0 radius 20.0 clips true screen 320x568@2 presenting UINavigationController nav none") },
                      "\(run.logs)")
        // The modal delegate returns nil for the dismissal: the host's default.
        XCTAssertNil(records[5].animator)
        XCTAssertEqual(run.finalStack, ["ListController", "DetailController"])
    }
}
