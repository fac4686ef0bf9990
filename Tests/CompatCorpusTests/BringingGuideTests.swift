import Foundation
import TransHostTestSupport
import XCTest

/// docs/plugin-authors.md, "Bringing an existing UIKit animator": its animator file, export and
/// manifest (blocks marked `<!-- example: bringing/... -->`) and its shell steps
/// (`<!-- example-run: bringing -->`) are taken from the guide verbatim, built out of tree with
/// the template's build.sh, and played by the real binary, whose output the guide shows.
final class BringingGuideTests: XCTestCase {

    struct Section {
        var files: [String: String] = [:]
        var run = ""
        var text = ""
    }

    func readSection() throws -> Section {
        var section = Section()
        section.text = try String(contentsOfFile: TestProcess.packageRoot + "/docs/plugin-authors.md", encoding: .utf8)
        let lines = section.text.components(separatedBy: "\n")
        var i = 0
        while i < lines.count {
            let line = lines[i].trimmingCharacters(in: .whitespaces)
            let file = line.hasPrefix("<!-- example: bringing/") && line.hasSuffix(" -->")
            let run = line == "<!-- example-run: bringing -->"
            i += 1
            guard file || run else { continue }
            guard i < lines.count, lines[i].hasPrefix("```") else { XCTFail("no fenced block after \(line)"); continue }
            i += 1
            var body: [String] = []
            while i < lines.count, !lines[i].hasPrefix("```") { body.append(lines[i]); i += 1 }
            let text = body.joined(separator: "\n") + "\n"
            if run {
                section.run = text
            } else {
                section.files[String(line.dropFirst("<!-- example: ".count).dropLast(" -->".count))] = text
            }
        }
        return section
    }

    func testTheGuidesExistingAnimatorBuildsUnchangedAndPlays() throws {
        let section = try readSection()
        XCTAssertEqual(Set(section.files.keys), ["bringing/FadeThroughAnimator.swift", "bringing/Export.swift", "bringing/manifest.json"])
        let animator = try XCTUnwrap(section.files["bringing/FadeThroughAnimator.swift"])
        XCTAssertTrue(animator.hasPrefix("import UIKit\n"), "the app's file starts with import UIKit")
        XCTAssertFalse(animator.lowercased().contains("transhost"), "the app's file has nothing of transhost in it")

        let dir = try TestProcess.temporaryDirectory(self, prefix: "transhost-bringing")
        try FileManager.default.createDirectory(atPath: dir + "/bringing", withIntermediateDirectories: true)
        for (path, text) in section.files { try text.write(toFile: dir + "/" + path, atomically: true, encoding: .utf8) }
        let path = TestProcess.binDirectory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let out = try TestProcess.run("/bin/sh", ["-e", "-c", section.run],
                                      environment: ["TRANSHOST_SRC": TestProcess.packageRoot, "PATH": path], cwd: dir)
        XCTAssertEqual(out.status, 0, "stdout:\n\(out.stdout)\nstderr:\n\(out.stderr)")

        // The guide shows what run printed.
        let shown = out.stdout.split(separator: "\n").filter { $0.hasPrefix("  #") || $0.hasPrefix("scenario ") || $0.hasPrefix("final stack") }
        XCTAssertEqual(shown.count, 5, out.stdout)
        for line in shown { XCTAssertTrue(section.text.contains(line), "the guide does not show: \(line)") }

        // The trace: the detail fades in from 0.92 of its size, the list fades out, nothing breached.
        let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/out/fade-through/trace.json"))
        let trace = try Trace(try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any]))
        XCTAssertEqual(trace.transitions.map(\.outcome), ["completed", "completed", "cancelled"])
        XCTAssertTrue(trace.transitions.allSatisfy { $0.animator == "slide-in/fade-through" && $0.breaches.isEmpty })
        let push = trace.transitions[0]
        XCTAssertEqual(push.first["DetailController"]?.alpha ?? .nan, 0, accuracy: 1e-6)
        XCTAssertEqual(push.first["DetailController"]?.m11 ?? .nan, 0.92, accuracy: 1e-6)
        XCTAssertEqual(push.last["DetailController"]?.m11 ?? .nan, 1, accuracy: 1e-6)
        XCTAssertEqual(push.last["ListController"]?.alpha ?? .nan, 0, accuracy: 1e-6)
        XCTAssertEqual(trace.finalStack, ["ListController"])
    }
}
