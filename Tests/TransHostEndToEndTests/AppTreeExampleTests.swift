import Foundation
import TransHostTestSupport
import XCTest

/// docs/scenario.md's app (a tab bar of navigation controllers, presentations in several
/// styles, a push inside a modal, setViewControllers and popTo) plays as the page says, with the
/// command the page gives, and a playback worker carries the controller tree back intact.
final class AppTreeExampleTests: XCTestCase {
    func testTheDocumentedAppPlaysWithItsCommand() throws {
        let doc = try String(contentsOfFile: BuildProducts.packageRoot + "/docs/scenario.md", encoding: .utf8)
        let command = try XCTUnwrap(doc.split(separator: "\n").map(String.init).first { $0.hasPrefix("transhost run --scenario") && $0.contains("app-tree.json") },
                                    "docs/scenario.md no longer shows how to play its app")
        let elsewhere = try BuildProducts.temporaryDirectory(self)
        let env = ["PATH": BuildProducts.binDirectory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                   "TRANSHOST_SRC": BuildProducts.packageRoot, "TRANSHOST_CACHE": elsewhere + "/cache.json"]
        let r = try TestProcess.run("/bin/sh", ["-c", command + " --trace-only"], environment: env, cwd: elsewhere)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("final tree: tabs[*mail[inbox], settingsNav[settings]]"), r.stdout)
        let data = try Data(contentsOf: URL(fileURLWithPath: elsewhere + "/out/app-tree/trace.json"))
        let trace = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        XCTAssertNil(trace["warnings"], "\(trace["warnings"] ?? "")")
        let transitions = try XCTUnwrap(trace["transitions"] as? [[String: Any]])
        XCTAssertEqual(transitions.map { "\($0["operation"]!) \($0["from"]!)->\($0["to"]!)" }, [
            "push Inbox->Message", "select UINavigationController->UINavigationController", "push Settings->About",
            "select UINavigationController->UINavigationController", "present UINavigationController->Banner",
            "dismiss Banner->UINavigationController", "present UITabBarController->UINavigationController",
            "push Compose->Recipients", "dismiss UINavigationController->UITabBarController", "pop Message->Inbox",
        ], "the popTo in the unselected tab happens at once, without a transition")
        // The banner covers the first tab only: the tab bar controller gets no callbacks.
        let banner = try XCTUnwrap(transitions[4]["appearance"] as? [[String: Any]]).map { "\($0["controller"]!).\($0["kind"]!)" }
        XCTAssertEqual(banner, ["banner.willAppear", "banner.didAppear"])
        let final = try XCTUnwrap(trace["final"] as? [String: Any])
        let tree = try XCTUnwrap(final["tree"] as? [String: Any])
        let tabs = try XCTUnwrap(tree["tabs"] as? [[String: Any]])
        XCTAssertEqual(tabs.map { ($0["stack"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? [] }, [["inbox"], ["settings"]])
        XCTAssertNil(tree["presented"])

        // The same run inside transhost: byte for byte what the worker sent back.
        let none = try TestProcess.run("/bin/sh", ["-c", command + " --trace-only --isolation none --out out/none"], environment: env, cwd: elsewhere)
        XCTAssertEqual(none.status, 0, none.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: elsewhere + "/out/none/trace.json")), data)
    }

    /// A present route may name the controller that presented (UIKit's source), not only the
    /// navigation controller that presents for it.
    func testAPresentRouteMatchesTheSourceController() throws {
        let plugins = try BuildProducts.temporaryDirectory(self)
        let dir = try BuildProducts.installPlugin("split-modal", library: "libsplit-modal.so", into: plugins)
        let manifest = try String(contentsOfFile: dir + "/manifest.json", encoding: .utf8)
        let narrowed = manifest.replacingOccurrences(of: #""operations": ["present"], "from": "*""#,
                                                     with: #""operations": ["present"], "from": "MasterViewController""#)
        XCTAssertNotEqual(narrowed, manifest, "split-modal's present route changed; update this test")
        try narrowed.write(toFile: dir + "/manifest.json", atomically: true, encoding: .utf8)
        let out = try BuildProducts.temporaryDirectory(self)
        let r = try BuildProducts.run(["run", "--plugins", plugins, "--scenario", dir + "/demo.json", "--trace-only", "--out", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        let trace = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/trace.json"))) as? [String: Any])
        let first = try XCTUnwrap((trace["transitions"] as? [[String: Any]])?.first)
        XCTAssertEqual(first["from"] as? String, "UINavigationController", "the presenting controller stays the from-controller, as in UIKit")
        XCTAssertEqual((first["animator"] as? [String: Any])?["plugin"] as? String, "split-modal", "the route naming the source matched")
    }
}
