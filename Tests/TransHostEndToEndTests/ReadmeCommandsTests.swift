import Foundation
import XCTest

/// Every `transhost` command the README shows works as written (from the package root, after
/// the set-up command, as a newcomer would paste it).
final class ReadmeCommandsTests: XCTestCase {
    func testEveryReadmeCommandRunsAsWritten() throws {
        let readme = try String(contentsOfFile: BuildProducts.packageRoot + "/README.md", encoding: .utf8)
        let commands = readme.split(separator: "\n").map(String.init).filter { $0.hasPrefix(".build/debug/transhost ") }
        XCTAssertGreaterThanOrEqual(commands.count, 10, "the README's command block was not found")
        let cache = try BuildProducts.temporaryDirectory(self) + "/cache.json"
        for line in commands {
            let withoutComment = (line.components(separatedBy: " #").first ?? line).trimmingCharacters(in: .whitespaces)
            let args = withoutComment.split(separator: " ").map(String.init).dropFirst()
            let r = try BuildProducts.run(Array(args), environment: ["TRANSHOST_CACHE": cache], cwd: BuildProducts.packageRoot)
            XCTAssertEqual(r.status, 0, "`\(withoutComment)` failed: \(r.stderr.prefix(600))")
            XCTAssertFalse(r.stdout.isEmpty, "`\(withoutComment)` printed nothing")
        }
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
}
