import Foundation
import TransHostTestSupport
import XCTest

/// Every `transhost` command the README shows works as written, pasted by a newcomer into a
/// shell in some other directory after the README's one-time `export` line: the shell expands
/// `$TRANSHOST_SRC`, and outputs land in that directory.
final class ReadmeCommandsTests: XCTestCase {
    func testEveryReadmeCommandRunsAsWrittenFromAnotherDirectory() throws {
        let readme = try String(contentsOfFile: BuildProducts.packageRoot + "/README.md", encoding: .utf8)
        let lines = readme.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("export PATH=\"$PWD/.build/debug:$PATH\" TRANSHOST_SRC=\"$PWD\""), "the one-time set-up line changed; update this test with it")
        XCTAssertEqual(lines.filter { $0.hasPrefix(".build/") }, [], "README commands use `transhost` from PATH, so they work from any directory")
        let commands = lines.filter { $0.hasPrefix("transhost ") }
        XCTAssertGreaterThanOrEqual(commands.count, 10, "the README's command block was not found")
        let elsewhere = try BuildProducts.temporaryDirectory(self)
        XCTAssertFalse(elsewhere.hasPrefix(BuildProducts.packageRoot), "the commands must run outside the checkout")
        let cache = try BuildProducts.temporaryDirectory(self) + "/cache.json"
        let env = ["PATH": BuildProducts.binDirectory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                   "TRANSHOST_SRC": BuildProducts.packageRoot, "TRANSHOST_CACHE": cache]
        for line in commands {
            let withoutComment = (line.components(separatedBy: " #").first ?? line).trimmingCharacters(in: .whitespaces)
            let r = try TestProcess.run("/bin/sh", ["-c", withoutComment], environment: env, cwd: elsewhere)
            XCTAssertEqual(r.status, 0, "`\(withoutComment)` failed in \(elsewhere): \(r.stderr.prefix(600))")
            XCTAssertFalse(r.stdout.isEmpty, "`\(withoutComment)` printed nothing")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: elsewhere + "/out/mine/trace.json"), "--out is relative to where the command runs")
    }
}

/// The host benchmark still runs (a small size): benchmarks print figures, and one that stops
/// working should fail a test rather than rot.
final class BenchmarkSmokeTests: XCTestCase {
    func testTheHostBenchmarkRunsOnAFewPlugins() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: BuildProducts.binDirectory + "/transhost-host-bench")
        p.arguments = ["--plugins", "5", "--repeat", "1"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, text)
        XCTAssertTrue(text.contains("list cold (no cache)") && text.contains("load one"), text)
    }

    func testTheEngineBenchmarkPrintsThePerLayerCostBesideItsFloor() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: BuildProducts.binDirectory + "/transhost-engine-bench")
        p.arguments = ["--layers", "10"]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, text)
        XCTAssertTrue(text.contains("ns/layer") && text.contains("vs-floor"), text)
        XCTAssertTrue(text.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("10 ") }, "a row for 10 layers: \(text)")
    }
}
