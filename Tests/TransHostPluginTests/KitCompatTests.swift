import Foundation
import TransHostCoordinators
import TransHostCore
import TransHostPluginHost
import TransHostRun
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
        "card": {"type": "CardController", "view": {"background": "#ff9500", "cornerRadius": 8, "clipsToBounds": true,
                 "subviews": [{"name": "badge", "frame": [10, 10, 40, 40], "background": "#ffffff"},
                              {"name": "picture", "frame": [10, 60, 100, 100], "image": "photo.png"}]}}
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

    static let tabsJSON = """
    {
      "format": "transhost-scenario/1",
      "name": "kit-probe-tabs",
      "types": {"FeedController": "UIViewController", "ProfileController": "UIViewController"},
      "controllers": {
        "feed": {"type": "FeedController", "view": {"background": "#ffffff"}},
        "profile": {"type": "ProfileController", "view": {"background": "#34c759"}}
      },
      "root": {"container": "tab", "tabs": ["feed", "profile"], "selected": 0},
      "script": [{"action": "select", "index": 1}, {"action": "select", "index": 0}]
    }
    """

    static let sheetJSON = """
    {
      "format": "transhost-scenario/1",
      "name": "kit-probe-sheet",
      "types": {"HomeController": "UIViewController", "SheetController": "UIViewController"},
      "controllers": {
        "home": {"type": "HomeController", "view": {"background": "#ffffff"}},
        "sheet": {"type": "SheetController", "view": {"background": "#5856d6"}}
      },
      "root": {"container": "single", "controller": "home"},
      "script": [
        {"action": "present", "controller": "sheet"}, {"action": "dismiss"},
        {"action": "present", "controller": "sheet"},
        {"action": "gesture", "gesture": {"start": [160, 300], "samples": [[0.1, 0, 50], [0.2, 0, 150], [0.3, 0, 300]], "release": [0.4, 0, 350]}},
        {"action": "present", "controller": "sheet"},
        {"action": "gesture", "gesture": {"start": [160, 300], "samples": [[0.1, 0, 40], [0.2, 0, 80]], "release": [0.3, 0, 90]}}
      ]
    }
    """

    /// The plugins directory with the probe installed.
    func install() throws -> String {
        let dir = try Products.temporaryDirectory(self)
        let dest = dir + "/kit-probe"
        let fm = FileManager.default
        try fm.createDirectory(atPath: dest, withIntermediateDirectories: true)
        let lib = Products.binDirectory + "/libkit-probe.so"
        guard fm.fileExists(atPath: lib) else { throw Products.Missing(description: "\(lib) is not built; run swift build first") }
        try fm.copyItem(atPath: lib, toPath: dest + "/libkit-probe.so")
        try fm.copyItem(atPath: Products.packageRoot + "/Tests/KitProbe/manifest.json", toPath: dest + "/manifest.json")
        return dir
    }

    func play(_ json: String = scenarioJSON) throws -> Playback {
        let dir = try install()
        let scan = try Products.scan(dir)
        for r in scan.records { XCTAssertEqual(r.status, .ok, "\(r.name): \(r.status.reason ?? "")") }
        // The scenario and an image beside it (UIImage(named: "photo") finds photo.png).
        try json.write(toFile: dir + "/scenario.json", atomically: true, encoding: .utf8)
        // A real 1x1 PNG: scenario images must be PNG files (the reader checks the header).
        try Data([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01,
                  0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x44, 0x41,
                  0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0xf0, 0x1f, 0x00, 0x05, 0x00, 0x01, 0xff, 0x89, 0x99, 0x3d, 0x1d, 0x00, 0x00,
                  0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82]).write(to: URL(fileURLWithPath: dir + "/photo.png"))
        return Playback.play(try Scenario.load(file: dir + "/scenario.json"), scan: scan)
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
        // A delegate's didShow after each completed navigation transition (not after the cancel).
        XCTAssertEqual(run.logs.filter { $0.contains("didShow") }, [
            "[kit-probe] info: didShow DetailController stack 2", "[kit-probe] info: didShow ListController stack 1",
            "[kit-probe] info: didShow DetailController stack 2"])
        // The plugin's own CardController class (init(coder:), viewDidLoad) stands for the
        // scenario's, and a scenario view's name reads back as its accessibilityIdentifier.
        XCTAssertTrue(run.logs.contains("[kit-probe] info: being presented true subclass true badge badge"), "\(run.logs)")
        // Modal transitions happen in the window, which is UIApplication's key window.
        XCTAssertTrue(run.logs.contains("[kit-probe] info: key window is the container true toView.window nil true"), "\(run.logs)")
        // A scenario view with an image is a UIImageView to the plugin.
        XCTAssertTrue(run.logs.contains("[kit-probe] info: scenario image views 1 showing true"), "\(run.logs)")
        // UIImageView shows the scenario's image; an unknown name is reported.
        let card = run.transitions[4]
        XCTAssertTrue(card.frames[1].nodes.contains { $0.view.content.imagePath?.hasSuffix("/photo.png") == true })
        XCTAssertTrue(run.logs.contains { $0.contains("UIImage(named: \"missing\"): no such image") }, "\(run.logs)")
        // The modal delegate returns nil for the dismissal: the host's default.
        XCTAssertNil(records[5].animator)
        XCTAssertEqual(run.finalStack, ["ListController", "DetailController"])
    }

    /// UIView.transition(with:) on the container: a cross-dissolve fades the old picture out
    /// over the new tab; a curl up lifts the old picture about its top edge with perspective.
    func testTabDelegateCrossDissolvesAndCurls() throws {
        let playback = try play(Self.tabsJSON)
        let run = playback.run
        XCTAssertEqual(run.breaches, [], "\(run.breaches)")
        let records = run.transitions.map(\.record)
        XCTAssertEqual(records.map(\.animator), [AnimatorIdentity(plugin: "kit-probe", id: "ContainerTransitionAnimator"),
                                                AnimatorIdentity(plugin: "kit-probe", id: "ContainerTransitionAnimator")])
        XCTAssertEqual(records.map(\.outcome), [.completed, .completed])

        func snapshot(_ frame: TraceFrame) -> PresentationNode? { frame.nodes.first { $0.view.name.hasPrefix("snapshot of") } }
        // Cross-dissolve: the old picture's opacity falls from 1 towards 0; the new tab is
        // already in place beneath it.
        let dissolve = run.transitions[0].frames
        let early = try XCTUnwrap(snapshot(dissolve[1])), late = try XCTUnwrap(snapshot(dissolve[dissolve.count - 2]))
        XCTAssertGreaterThan(early.state.alpha, late.state.alpha)
        XCTAssertTrue(dissolve[1].nodes.contains { $0.view.name == "ProfileController" })
        XCTAssertEqual(snapshot(dissolve.last!)?.state.alpha, 0)
        func pictures(_ v: View) -> Int { (v.name.hasPrefix("snapshot of") ? 1 : 0) + v.subviews.map(pictures).reduce(0, +) }
        XCTAssertEqual(pictures(playback.app.window), 0, "the pictures are removed when the transitions end")
        // Curl up: the old picture hangs from its top edge and turns with perspective.
        let curl = run.transitions[1].frames
        let lifting = try XCTUnwrap(snapshot(curl[curl.count / 2]))
        XCTAssertEqual(lifting.state.anchorPoint.y, 0)
        XCTAssertNotEqual(lifting.state.transform.m34, 0)
        XCTAssertEqual(run.finalSelected, 0)
    }

    /// A controller that assigns itself as its own transitioningDelegate is asked instead of
    /// the delegate the route names, as UIKit asks the presented controller's delegate.
    func testAnAssignedTransitioningDelegateIsTheOneAsked() throws {
        let run = try play(Self.sheetJSON).run
        XCTAssertEqual(run.breaches, [], "\(run.breaches)")
        let records = run.transitions.map(\.record)
        let sheetAnimator = AnimatorIdentity(plugin: "kit-probe", id: "SheetAnimator")
        XCTAssertEqual(records.map(\.animator), Array(repeating: sheetAnimator, count: 6))
        XCTAssertEqual(records.map(\.operation), [.present, .dismiss, .present, .dismiss, .present, .dismiss])
        // Halfway up, the sheet is below its final place; at the end it is there.
        let up = run.transitions[0].frames
        let sheet = { (f: TraceFrame) in f.nodes.first { $0.view.name == "SheetController" }! }
        XCTAssertGreaterThan(sheet(up[up.count / 2]).state.transform.m42, 0)
        XCTAssertEqual(sheet(up.last!).state.transform.m42, 0, accuracy: 1e-9)
        // The pull-downs: the sheet's own pan started each dismissal and its hand-written
        // interaction controller drove it: the long pull finished, the short one was cancelled.
        XCTAssertEqual(records[3].interactive, true)
        XCTAssertEqual(records[3].outcome, .completed)
        XCTAssertEqual(records[5].interactive, true)
        XCTAssertEqual(records[5].outcome, .cancelled)
        let pull = run.transitions[3].frames
        let atFinger = try XCTUnwrap(pull.first { abs($0.t - 0.25) < 1e-9 })
        XCTAssertEqual(sheet(atFinger).state.transform.m42, 150, accuracy: 1e-6)
        XCTAssertEqual(run.finalPresented, ["SheetController"])
    }

    /// `list` shows a delegate's routes, marked as such, in text and JSON; `route` names the
    /// delegate that decides.
    func testListShowsDelegateRoutes() throws {
        let dir = try install()
        let text = try Products.run(Products.transhost, ["list", "--plugins", dir])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("route: navigation * * -> * => delegate navigation"), text.stdout)
        let json = try Products.run(Products.transhost, ["list", "--json", "--plugins", dir])
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let probe = try XCTUnwrap((doc["plugins"] as? [[String: Any]])?.first { $0["name"] as? String == "kit-probe" })
        let routes = try XCTUnwrap(probe["routes"] as? [[String: Any]])
        XCTAssertEqual(routes.compactMap { $0["delegate"] as? String }, ["navigation", "modal", "tabs"])
        let route = try Products.run(Products.transhost, ["route", "--container", "tab", "--op", "select", "--from", "A", "--to", "B", "--plugins", dir])
        XCTAssertTrue(route.stdout.hasPrefix("kit-probe/delegate tabs (the delegate is asked"), route.stdout)
    }

    /// The navigation delegate hears willShow before it is asked for the animator, with the
    /// transition coordinator already there, and didShow once the transition completed (not
    /// after a cancel); an unanimated push is announced too, with animated false.
    func testWillShowAndDidShowComeAtUIKitsMoments() throws {
        var json = Self.scenarioJSON
        let script = try XCTUnwrap(json.range(of: #""script": ["#))
        let end = try XCTUnwrap(json.range(of: "\n  ]\n}", range: script.upperBound..<json.endIndex))
        json.replaceSubrange(script.lowerBound..<end.upperBound, with: #"""
            "script": [
                {"action": "push", "controller": "detail", "animated": false}, {"action": "pop"}, {"action": "push", "controller": "detail"},
                {"action": "gesture", "gesture": {"start": [5, 300], "samples": [[0.1, 40], [0.2, 80]], "release": [0.3, 90]}}
              ]
            }
            """#)
        let run = try play(json).run
        let shows = run.logs.filter { $0.contains("willShow") || $0.contains("didShow") || $0.contains("animator for") }
        XCTAssertEqual(shows, [
            // The unanimated push: no animator is asked for.
            "[kit-probe] info: willShow DetailController animated false coordinator true",
            "[kit-probe] info: didShow DetailController stack 2",
            // The edge pan's pop, finished.
            "[kit-probe] info: willShow ListController animated true coordinator true",
            "[kit-probe] info: animator for pop DetailController -> ListController",
            "[kit-probe] info: didShow ListController stack 1",
            "[kit-probe] info: willShow DetailController animated true coordinator true",
            "[kit-probe] info: animator for push ListController -> DetailController",
            "[kit-probe] info: didShow DetailController stack 2",
            // The edge pan's pop, cancelled: willShow, and no didShow.
            "[kit-probe] info: willShow ListController animated true coordinator true",
            "[kit-probe] info: animator for pop DetailController -> ListController"], "\(run.logs)")
    }
}
