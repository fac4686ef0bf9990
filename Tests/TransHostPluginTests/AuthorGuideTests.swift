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
import TransHostSupport
import XCTest

/// docs/plugin-authors.md works as written: its C example and the Swift template
/// (templates/swift-plugin) are built OUT OF TREE in a temporary directory, installed into a
/// temporary plugins directory, and played by the real `transhost` binary.
///
/// The guide marks its files with `<!-- example: PATH -->` before a fenced block and its shell
/// steps with `<!-- example-run: KEY -->`; these tests extract them verbatim.
final class AuthorGuideTests: XCTestCase {
    var guidePath: String { Products.packageRoot + "/docs/plugin-authors.md" }

    struct Guide {
        var files: [String: String] = [:]
        var runs: [String: String] = [:]
        var text = ""
    }

    func readGuide() throws -> Guide {
        var g = Guide()
        g.text = try String(contentsOfFile: guidePath, encoding: .utf8)
        let lines = g.text.components(separatedBy: "\n")
        var i = 0
        while i < lines.count {
            let line = lines[i].trimmingCharacters(in: .whitespaces)
            var target: (run: Bool, key: String)?
            if line.hasPrefix("<!-- example: "), line.hasSuffix(" -->") {
                target = (false, String(line.dropFirst("<!-- example: ".count).dropLast(" -->".count)))
            } else if line.hasPrefix("<!-- example-run: "), line.hasSuffix(" -->") {
                target = (true, String(line.dropFirst("<!-- example-run: ".count).dropLast(" -->".count)))
            }
            guard let target else { i += 1; continue }
            i += 1
            guard i < lines.count, lines[i].hasPrefix("```") else { XCTFail("no fenced block after \(line)"); continue }
            i += 1
            var body: [String] = []
            while i < lines.count, !lines[i].hasPrefix("```") { body.append(lines[i]); i += 1 }
            let text = body.joined(separator: "\n") + "\n"
            if target.run { g.runs[target.key] = text } else { g.files[target.key] = text }
            i += 1
        }
        return g
    }

    /// Runs one of the guide's shell blocks in `dir` with TRANSHOST_SRC set to this checkout and
    /// the built `transhost` first on PATH.
    func runBlock(_ script: String, in dir: String) throws -> Products.Output {
        let path = Products.binDirectory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        return try Products.run("/bin/sh", ["-e", "-c", script], environment: ["TRANSHOST_SRC": Products.packageRoot, "PATH": path], cwd: dir)
    }

    func json(_ path: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any])
    }

    /// The view named `name` in frame `k` of a trace transition (JSON).
    func view(_ transition: [String: Any], frame k: Int, named name: String) throws -> [String: Any] {
        let frames = try XCTUnwrap(transition["frames"] as? [[String: Any]])
        let f = k < 0 ? frames[frames.count + k] : frames[k]
        let views = try XCTUnwrap(f["views"] as? [[String: Any]])
        return try XCTUnwrap(views.first { $0["name"] as? String == name }, "no \(name) in frame \(k)")
    }

    func number(_ v: Any?) throws -> Double { try XCTUnwrap((v as? NSNumber)?.doubleValue) }

    /// Every transition line `run` printed is shown in the guide exactly (the guide's sample
    /// output is real).
    func assertGuideShows(_ stdout: String, _ guide: Guide, file: StaticString = #filePath, line: UInt = #line) {
        let lines = stdout.split(separator: "\n").filter {
            $0.hasPrefix("  #") || $0.hasPrefix("final stack") || $0.hasPrefix("scenario ") || $0.hasPrefix("wrote out/crossfade/")
        }
        XCTAssertFalse(lines.isEmpty, file: file, line: line)
        for l in lines { XCTAssertTrue(guide.text.contains(l), "the guide does not show: \(l)", file: file, line: line) }
    }

    func testGuideCExampleBuildsOutOfTreeAndRuns() throws {
        let guide = try readGuide()
        XCTAssertEqual(Set(guide.files.keys.filter { $0.hasPrefix("crossfade/") }), ["crossfade/crossfade.c", "crossfade/manifest.json", "crossfade/demo.json"])
        let dir = try Products.temporaryDirectory(self)
        for (path, text) in guide.files where path.hasPrefix("crossfade/") {
            try FileManager.default.createDirectory(atPath: dir + "/crossfade", withIntermediateDirectories: true)
            try text.write(toFile: dir + "/" + path, atomically: true, encoding: .utf8)
        }
        let out = try runBlock(try XCTUnwrap(guide.runs["c"]), in: dir)
        XCTAssertEqual(out.status, 0, "stdout:\n\(out.stdout)\nstderr:\n\(out.stderr)")
        let listed = out.stdout.split(separator: "\n").first { $0.hasPrefix("crossfade ") }
        XCTAssertTrue(listed?.contains("1.0.0") == true && listed?.hasSuffix("ok (validated)") == true, "list: \(listed ?? "crossfade missing")")
        XCTAssertTrue(out.stdout.contains("#0 navigation push InboxController -> MessageController  crossfade/crossfade  0.3 s  completed"), out.stdout)
        XCTAssertTrue(out.stdout.contains("#1 navigation pop MessageController -> InboxController  crossfade/crossfade  0.3 s  completed"), out.stdout)
        XCTAssertTrue(out.stdout.contains("#0 navigation push InboxController -> MessageController  crossfade/crossfade  0.5 s  completed  31 frames"),
                      "the guide's --param run reached the plugin through libffi: \(out.stdout)")
        assertGuideShows(out.stdout, guide)

        // The trace: the message fades in on ease-in-out (exactly half at the midpoint, 0.15 s).
        let trace = try json(dir + "/out/crossfade/trace.json")
        let push = try XCTUnwrap((trace["transitions"] as? [[String: Any]])?.first)
        XCTAssertEqual((push["animator"] as? [String: Any])?["plugin"] as? String, "crossfade")
        XCTAssertEqual(try number(view(push, frame: 0, named: "MessageController")["alpha"]), 0)
        XCTAssertEqual(try number(view(push, frame: 9, named: "MessageController")["alpha"]), Reference.easeInOut(0.5), accuracy: 1e-6)
        XCTAssertEqual(try number(view(push, frame: -1, named: "MessageController")["alpha"]), 1)
        XCTAssertEqual(try number(view(push, frame: -1, named: "InboxController")["alpha"]), 0)

        // The same library, loaded in this process: an interactive cancel leaves the inbox as it was.
        let scenario = try Products.scenario("""
        {"name": "crossfade-cancel",
         "types": {"InboxController": "UIViewController", "MessageController": "UIViewController"},
         "controllers": {"inbox": {"type": "InboxController", "view": {"name": "Inbox"}},
                         "message": {"type": "MessageController", "view": {"name": "Message"}}},
         "root": {"container": "navigation", "stack": ["inbox"]},
         "script": [{"action": "push", "controller": "message", "gesture": {"samples": [[0.1, 30], [0.2, 60]], "release": [0.25, 70]}}]}
        """, test: self)
        let p = Playback.play(scenario, scan: try Products.scan(dir + "/plugins"))
        XCTAssertEqual(p.run.transitions.first?.record.animator, AnimatorIdentity(plugin: "crossfade", id: "crossfade"))
        XCTAssertEqual(p.run.transitions.first?.record.outcome, .cancelled)
        XCTAssertEqual(p.run.transitions.first?.record.restored ?? ["?"], [], "the example restores everything itself")
        let inbox = try XCTUnwrap(p.app.controllers["inbox"]).view
        XCTAssertEqual(inbox.alpha, 1)
        XCTAssertTrue(inbox.superview === p.app.navigation?.view)
        XCTAssertNil(p.app.controllers["message"]?.view.superview)
        XCTAssertEqual(p.run.finalStack, ["InboxController"])
    }

    func testSwiftTemplateBuildsOutOfTreeAndRuns() throws {
        let guide = try readGuide()
        let dir = try Products.temporaryDirectory(self)
        let out = try runBlock(try XCTUnwrap(guide.runs["swift"]), in: dir)
        XCTAssertEqual(out.status, 0, "stdout:\n\(out.stdout)\nstderr:\n\(out.stderr)")
        // Built in the temporary directory, from a copy: nothing was written into the checkout.
        let lib = dir + "/plugins/slide-in/libslide-in.so"
        XCTAssertTrue(FileManager.default.fileExists(atPath: lib))
        XCTAssertFalse(FileManager.default.fileExists(atPath: Products.packageRoot + "/templates/swift-plugin/build"))
        XCTAssertTrue(out.stdout.contains("#0 navigation push ListController -> DetailController  slide-in/slide-in  0.4 s  completed"), out.stdout)
        XCTAssertTrue(out.stdout.contains("#1 navigation pop DetailController -> ListController  slide-in/slide-in  0.4 s  completed"), out.stdout)
        XCTAssertTrue(out.stdout.contains("#2 navigation push ListController -> DetailController  slide-in/slide-in  0.4 s  cancelled"), out.stdout)
        assertGuideShows(out.stdout, guide)

        let trace = try json(dir + "/out/slide-in/trace.json")
        let transitions = try XCTUnwrap(trace["transitions"] as? [[String: Any]])
        XCTAssertEqual(transitions.count, 3)
        let push = transitions[0]
        XCTAssertEqual((push["animator"] as? [String: Any])?["plugin"] as? String, "slide-in")
        let t0 = try XCTUnwrap(view(push, frame: 0, named: "DetailController")["transform"] as? [NSNumber])
        XCTAssertEqual(t0[12].doubleValue, 320, "the to-view starts one width to the right")
        let t1 = try XCTUnwrap(view(push, frame: -1, named: "DetailController")["transform"] as? [NSNumber])
        XCTAssertEqual(t1[12].doubleValue, 0)
        XCTAssertEqual(try number(view(push, frame: -1, named: "ListController")["alpha"]), 0.5)
        let listEnd = try XCTUnwrap(view(push, frame: -1, named: "ListController")["transform"] as? [NSNumber])
        XCTAssertEqual(listEnd[12].doubleValue, -320.0 / 3, accuracy: 1e-6)
        XCTAssertEqual(transitions[2]["outcome"] as? String, "cancelled")
        XCTAssertEqual((trace["final"] as? [String: Any])?["stack"] as? [String], ["ListController"])
        XCTAssertTrue(transitions.allSatisfy { ($0["breaches"] as? [Any])?.isEmpty ?? false }, "no contract breaches")

        // dlopen'ed in this process from the out-of-tree build, it animates the same way.
        let scenario = try Scenario.load(file: dir + "/plugins/slide-in/demo.json")
        let p = Playback.play(scenario, scan: try Products.scan(dir + "/plugins"))
        XCTAssertEqual(p.run.transitions.map(\.record.outcome), [.completed, .completed, .cancelled])
        let maps = try FileIO.readString("/proc/self/maps")
        XCTAssertTrue(maps.contains(lib), "the out-of-tree library is mapped from where it was built")
    }
}
