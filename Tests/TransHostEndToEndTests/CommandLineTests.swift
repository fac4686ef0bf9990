import Foundation
import XCTest

/// Runs the real `transhost` binary as a user would.
final class CommandLineTests: XCTestCase {
    var pluginsDir = ""

    override func setUpWithError() throws {
        pluginsDir = try BuildProducts.temporaryDirectory(self) + "/plugins"
        try BuildProducts.installPlugin("fade-scale", library: "libfade-scale.so", into: pluginsDir)
    }

    func testListShowsNameVersionABIRoutesAndStatus() throws {
        let r = try BuildProducts.run(["list", "--plugins", pluginsDir])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("fade-scale 1.0.0  ABI 1.3"), r.stdout)
        XCTAssertTrue(r.stdout.contains("found in: --plugins \(pluginsDir)"), r.stdout)
        XCTAssertTrue(r.stdout.contains("route: navigation push A -> B => fade-scale (no reverse)"), r.stdout)
        let block = r.stdout.components(separatedBy: "\n\n").first { $0.contains(pluginsDir) } ?? r.stdout
        XCTAssertTrue(block.contains("  ok"), r.stdout)
    }

    func testListJSONIsTheSameOnStdout() throws {
        let r = try BuildProducts.run(["list", "--json", "--plugins", pluginsDir])
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(json["host_abi"] as? String, "1.3")
        let plugins = try XCTUnwrap(json["plugins"] as? [[String: Any]])
        let fade = try XCTUnwrap(plugins.first { ($0["location"] as? String)?.contains(pluginsDir) == true })
        XCTAssertEqual(fade["name"] as? String, "fade-scale")
        XCTAssertEqual(fade["version"] as? String, "1.0.0")
        XCTAssertEqual(fade["abi"] as? String, "1.3")
        XCTAssertEqual(fade["status"] as? String, "ok")
        let route = try XCTUnwrap((fade["routes"] as? [[String: Any]])?.first)
        XCTAssertEqual(route["container"] as? String, "navigation")
        XCTAssertEqual(route["operations"] as? [String], ["push"])
    }

    func testRunPlaysTheDefaultScenarioAndWritesADeterministicTrace() throws {
        let tmp = try BuildProducts.temporaryDirectory(self)
        let r = try BuildProducts.run(["run", "--scenario", "default", "--plugins", pluginsDir, "--out", tmp + "/one"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("#0 navigation push A -> B  fade-scale/fade-scale  0.25 s  completed  16 frames"), r.stdout)
        XCTAssertTrue(r.stdout.contains("#1 navigation pop B -> A  default  0.35 s  completed"), r.stdout)
        XCTAssertTrue(r.stdout.contains("final stack: A"), r.stdout)
        XCTAssertTrue(r.stdout.contains("wrote \(tmp)/one/trace.json"), r.stdout)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: tmp + "/one/trace.json"))
        let trace = try XCTUnwrap(JSONSerialization.jsonObject(with: bytes) as? [String: Any])
        XCTAssertEqual(trace["format"] as? String, "transhost-trace/1")
        XCTAssertEqual(trace["fps"] as? Int, 60)
        let transitions = try XCTUnwrap(trace["transitions"] as? [[String: Any]])
        XCTAssertEqual(transitions.count, 2)
        let frames = try XCTUnwrap(transitions[0]["frames"] as? [[String: Any]])
        XCTAssertEqual(frames.first?["t"] as? Double, 0)
        XCTAssertEqual(frames.last?["t"] as? Double, 0.25)
        let view = try XCTUnwrap((frames.last?["views"] as? [[String: Any]])?.first { $0["name"] as? String == "A" })
        XCTAssertEqual((view["transform"] as? [Double])?.count, 16)
        XCTAssertEqual(((trace["final"] as? [String: Any])?["stack"] as? [String]), ["A"])
        // Same input, same bytes.
        let again = try BuildProducts.run(["run", "--scenario", "default", "--plugins", pluginsDir, "--out", tmp + "/two", "-q"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: tmp + "/two/trace.json")), bytes)
    }

    func testAPluginsDirectoryThatDoesNotExistGetsAClearMessage() throws {
        let r = try BuildProducts.run(["list", "--plugins", "/nonexistent/transhost-plugins"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("plugins directory /nonexistent/transhost-plugins (from --plugins) does not exist"), r.stderr)
    }

    func testBrokenLibrariesAreListedAsFailedAndTheOthersStillWork() throws {
        // A library without the entry symbol.
        try FileManager.default.createDirectory(atPath: pluginsDir + "/nosym", withIntermediateDirectories: true)
        try BuildProducts.compileC("int not_the_entry(void) { return 1; }\n", to: pluginsDir + "/nosym/libnosym.so")
        try manifest(name: "nosym", library: "libnosym.so").write(toFile: pluginsDir + "/nosym/manifest.json", atomically: true, encoding: .utf8)
        // A text file named .so.
        try FileManager.default.createDirectory(atPath: pluginsDir + "/notelf", withIntermediateDirectories: true)
        try "this is not a library\n".write(toFile: pluginsDir + "/notelf/libnotelf.so", atomically: true, encoding: .utf8)
        try manifest(name: "notelf", library: "libnotelf.so").write(toFile: pluginsDir + "/notelf/manifest.json", atomically: true, encoding: .utf8)

        let r = try BuildProducts.run(["list", "--json", "--plugins", pluginsDir])
        XCTAssertEqual(r.status, 0, r.stderr)
        let plugins = try XCTUnwrap((JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["plugins"] as? [[String: Any]])
        func plugin(_ name: String) -> [String: Any]? { plugins.first { $0["name"] as? String == name && ($0["location"] as? String)?.contains(pluginsDir) == true } }
        XCTAssertEqual(plugin("nosym")?["status"] as? String, "failed")
        XCTAssertTrue((plugin("nosym")?["reason"] as? String)?.contains("does not export the entry symbol transhost_plugin_entry") == true, "\(plugin("nosym") ?? [:])")
        XCTAssertEqual(plugin("notelf")?["status"] as? String, "failed")
        XCTAssertTrue((plugin("notelf")?["reason"] as? String)?.contains("not an ELF shared library") == true, "\(plugin("notelf") ?? [:])")
        XCTAssertEqual(plugin("fade-scale")?["status"] as? String, "ok")

        let run = try BuildProducts.run(["run", "--scenario", "default", "--plugins", pluginsDir, "--out", try BuildProducts.temporaryDirectory(self)])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("fade-scale/fade-scale"), run.stdout)
    }

    func testAnABIMismatchNamesBothVersions() throws {
        try FileManager.default.createDirectory(atPath: pluginsDir + "/future", withIntermediateDirectories: true)
        try BuildProducts.compileC("""
        #include "transhost.h"
        TH_EXPORT const th_plugin_entry transhost_plugin_entry = { 2, 0, sizeof(th_plugin_entry), "future", "1.0.0", 0, 0, 0 };
        """, to: pluginsDir + "/future/libfuture.so")
        try manifest(name: "future", library: "libfuture.so").write(toFile: pluginsDir + "/future/manifest.json", atomically: true, encoding: .utf8)
        let r = try BuildProducts.run(["list", "--failed", "--plugins", pluginsDir])
        XCTAssertTrue(r.stdout.contains("was built for transhost ABI 2.0, but this host implements ABI 1.3"), r.stdout)
    }

    func testAManifestSyntaxErrorNamesTheFileAndLine() throws {
        try FileManager.default.createDirectory(atPath: pluginsDir + "/typo", withIntermediateDirectories: true)
        try "{\n  \"name\": \"typo\",\n  \"version\" \"1.0\"\n}\n".write(toFile: pluginsDir + "/typo/manifest.json", atomically: true, encoding: .utf8)
        let r = try BuildProducts.run(["list", "--plugins", pluginsDir])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("\(pluginsDir)/typo/manifest.json:3:13: JSON syntax error: expected ':' after key \"version\""), r.stdout)
    }

    func testRunWritesPicturesAtTheChosenInstantsAndScale() throws {
        let tmp = try BuildProducts.temporaryDirectory(self)
        let r = try BuildProducts.run(["run", "--scenario", "default", "--plugins", pluginsDir, "--out", tmp,
                                       "--gif", "--at", "0,250ms,f3", "--scale", "1"])
        XCTAssertEqual(r.status, 0, r.stderr)
        let files = ["transition-0-push.gif", "transition-0-push-f000-0ms.png", "transition-0-push-f015-250ms.png",
                     "transition-0-push-f003-50ms.png", "transition-1-pop.gif"]
        for f in files {
            XCTAssertTrue(r.stdout.contains("wrote \(tmp)/\(f)"), "\(f) missing from: \(r.stdout)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: tmp + "/" + f), f)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp + "/transition-0-push-sheet.png"), "--gif/--at chose no sheet")
        // PNG header: width and height at @1x are the device's points.
        let png = try Data(contentsOf: URL(fileURLWithPath: tmp + "/transition-0-push-f015-250ms.png"))
        let be = { (o: Int) in png[o..<o + 4].reduce(0) { $0 << 8 | Int($1) } }
        XCTAssertEqual([be(16), be(20)], [320, 568])
        // GIF: logical screen 320 x 568.
        let gif = try Data(contentsOf: URL(fileURLWithPath: tmp + "/transition-0-push.gif"))
        XCTAssertEqual(String(decoding: gif.prefix(6), as: UTF8.self), "GIF89a")
        XCTAssertEqual([Int(gif[6]) | Int(gif[7]) << 8, Int(gif[8]) | Int(gif[9]) << 8], [320, 568])
    }

    /// Golden traces: the same run matches; a changed parameter is a mismatch (exit 1) whose
    /// report names the transition, the frame, the view, the field and both values.
    func testExpectComparesWithAGoldenTrace() throws {
        let tmp = try BuildProducts.temporaryDirectory(self)
        let base = ["run", "--scenario", "default", "--plugins", pluginsDir, "--trace-only"]
        XCTAssertEqual(try BuildProducts.run(base + ["--out", tmp + "/golden", "-q"]).status, 0)
        let same = try BuildProducts.run(base + ["--out", tmp + "/again", "--expect", tmp + "/golden"])
        XCTAssertEqual(same.status, 0, same.stdout + same.stderr)
        XCTAssertTrue(same.stdout.contains("matches \(tmp)/golden/trace.json"), same.stdout)
        let changed = try BuildProducts.run(base + ["--out", tmp + "/changed", "--expect", tmp + "/golden/trace.json", "--param", "fade-scale.scale=0.2"])
        XCTAssertEqual(changed.status, 1, changed.stdout + changed.stderr)
        XCTAssertTrue(changed.stdout.contains("MISMATCH against \(tmp)/golden/trace.json: 15 differences\n  by view and field:\n    transition 0 (navigation push A -> B), view v2 (A): transform m11/m22 frames 1\u{2013}15, max \u{0394} 0.1\n  in detail:"), changed.stdout)
        XCTAssertTrue(changed.stdout.contains("transition 0 (navigation push A -> B), frame 15 (t = 0.25), view v2 (A): transform is [0.2,0,0,0,0,0.2,0,0,0,0,1,0,0,0,0,1], expected [0.1,0,0,0,0,0.1,0,0,0,0,1,0,0,0,0,1]"), changed.stdout)
        let loose = try BuildProducts.run(base + ["--out", tmp + "/loose", "--expect", tmp + "/golden", "--tolerance", "0.2", "--param", "fade-scale.scale=0.2"])
        XCTAssertEqual(loose.status, 0, loose.stdout)
        // A golden that does not exist: --record-mode never (for CI) refuses; the default records it.
        let missing = try BuildProducts.run(base + ["--out", tmp + "/x", "--expect", tmp + "/nowhere.json", "--record-mode", "never"])
        XCTAssertEqual(missing.status, 5)
        XCTAssertTrue(missing.stderr.contains("the expected trace \(tmp)/nowhere.json does not exist"), missing.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp + "/nowhere.json"))
        let recorded = try BuildProducts.run(base + ["--out", tmp + "/x", "--expect", tmp + "/nowhere.json"])
        XCTAssertEqual(recorded.status, 0, recorded.stderr)
        XCTAssertTrue(recorded.stdout.contains("recorded \(tmp)/nowhere.json (no golden yet)"), recorded.stdout)
        XCTAssertEqual(try BuildProducts.run(base + ["--out", tmp + "/y", "--expect", tmp + "/nowhere.json"]).status, 0)
    }

    func testInstantsOutsideATransitionAreReported() throws {
        let tmp = try BuildProducts.temporaryDirectory(self)
        let r = try BuildProducts.run(["run", "--scenario", "default", "--plugins", pluginsDir, "--out", tmp, "--at", "f999,9s", "--scale", "1"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("transition 0 (push): --at f999: there are only 16 frames (f0 to f15); skipped"), r.stderr)
        XCTAssertTrue(r.stderr.contains("transition 0 (push): --at 9.0s is past the end (0.25 s); the last frame was used"), r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: tmp + "/transition-0-push-f015-250ms.png"))
        let route = try BuildProducts.run(["route", "--container", "navigation", "--op", "select", "--from", "A", "--to", "B"])
        XCTAssertEqual(route.status, 2)
        XCTAssertTrue(route.stderr.contains("--op select does not happen in a navigation container"), route.stderr)
    }

    func testBadPictureOptionsAreUsageErrors() throws {
        for (args, message) in [(["--at", "half"], "--at: \"half\" is not a progress fraction"),
                                (["--scale", "4"], "--scale must be 1, 2 or 3"),
                                (["--device", "ipad"], "--device \"ipad\" is not one of"),
                                (["--trace-only", "--gif"], "--trace-only cannot be combined")] {
            let r = try BuildProducts.run(["run", "--scenario", "default", "--plugins", pluginsDir] + args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(message), "\(args): \(r.stderr)")
        }
    }

    func testParametersReachASwiftPluginThroughLibffi() throws {
        try BuildProducts.installPlugin("rotate-spring", library: "librotate-spring.so", into: pluginsDir)
        let tmp = try BuildProducts.temporaryDirectory(self)
        let seed = try BuildProducts.run(["run", "rotate-spring", "--plugins", pluginsDir, "--out", tmp + "/seed", "--trace-only"])
        XCTAssertEqual(seed.status, 0, seed.stderr)
        XCTAssertTrue(seed.stdout.contains("rotate-spring/rotate-spring  1 s  completed  61 frames"), seed.stdout)
        let fast = try BuildProducts.run(["run", "rotate-spring", "--plugins", pluginsDir, "--out", tmp + "/fast", "--trace-only",
                                          "--param", "rotate-spring.duration=0.5"])
        XCTAssertEqual(fast.status, 0, fast.stderr)
        XCTAssertTrue(fast.stdout.contains("rotate-spring/rotate-spring  0.5 s  completed  31 frames"), fast.stdout)
        let bad = try BuildProducts.run(["run", "rotate-spring", "--plugins", pluginsDir, "--trace-only", "--param", "rotate-spring.damping=2"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("parameter \"damping\" of plugin rotate-spring: 2 is out of range [0.01, 1]"), bad.stderr)
    }

    func manifest(name: String, library: String) -> String {
        """
        {"format": "transhost-manifest/1", "name": "\(name)", "version": "1.0.0", "abi": "1.0", "library": "\(library)",
         "animators": [{"id": "\(name)", "routes": [{"container": "navigation", "operations": ["push"], "from": "X", "to": "Y"}]}]}
        """
    }
}
