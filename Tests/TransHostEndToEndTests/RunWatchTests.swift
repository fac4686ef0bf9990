import Foundation
import XCTest

/// `transhost run --watch`: plays, waits, plays again when the scenario changes (saying what
/// changed and the new outcome), and ends cleanly on Ctrl-C with the last round's exit code.
final class RunWatchTests: XCTestCase {
    final class Output: @unchecked Sendable {
        private let lock = NSLock()
        private var text = ""
        func append(_ s: String) { lock.lock(); text += s; lock.unlock() }
        var value: String { lock.lock(); defer { lock.unlock() }; return text }
    }

    /// Waits (up to a generous deadline, so a broken build fails instead of hanging) until
    /// `condition` holds for what the process printed.
    func wait(for what: String, in out: Output, _ condition: (String) -> Bool) {
        let deadline = Date().addingTimeInterval(120)
        while !condition(out.value) && Date() < deadline { usleep(50_000) }
        XCTAssertTrue(condition(out.value), "waited for \(what); got:\n\(out.value)")
    }

    func testWatchReplaysWhenTheScenarioChangesAndCtrlCEndsIt() throws {
        _ = try BuildProducts.library("libfade-scale.so")
        let root = try BuildProducts.temporaryDirectory(self)
        let scenario = root + "/app.json"
        let text = try String(contentsOfFile: BuildProducts.packageRoot + "/Plugins/fade-scale/demo.json", encoding: .utf8)
        try text.write(toFile: scenario, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: BuildProducts.transhost)
        p.arguments = ["run", "--scenario", scenario, "--trace-only", "--out", root + "/out", "--watch"]
        var env = ProcessInfo.processInfo.environment
        env["TRANSHOST_CACHE"] = root + "/cache.json"
        env["TRANSHOST_PLUGIN_PATH"] = nil
        p.environment = env
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = pipe
        let out = Output()
        pipe.fileHandleForReading.readabilityHandler = { h in out.append(String(decoding: h.availableData, as: UTF8.self)) }
        try p.run()
        wait(for: "the first round", in: out) { $0.contains("watching") }
        XCTAssertTrue(out.value.contains("#0 navigation push A -> B  fade-scale/fade-scale  0.25 s  completed"), out.value)
        XCTAssertTrue(out.value.contains("outcome: exit 0 (ok); watching "), out.value)

        // An edit that breaks the scenario is reported and the watch goes on ...
        try "{ \"name\": ".write(toFile: scenario, atomically: true, encoding: .utf8)
        wait(for: "the broken round", in: out) { $0.components(separatedBy: "outcome:").count == 3 }
        XCTAssertTrue(out.value.contains("changed: \(scenario)"), out.value)
        XCTAssertTrue(out.value.contains("outcome: exit 5 (invalid input or unwritable output)"), out.value)
        // ... and fixing it plays again.
        try text.replacingOccurrences(of: "\"b\"", with: "\"b\"").write(toFile: scenario, atomically: true, encoding: .utf8)
        wait(for: "the fixed round", in: out) { $0.components(separatedBy: "outcome:").count == 4 }
        XCTAssertEqual(out.value.components(separatedBy: "#0 navigation push A -> B").count, 3, out.value)

        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        pipe.fileHandleForReading.readabilityHandler = nil
        XCTAssertEqual(p.terminationReason, .exit, out.value)
        XCTAssertEqual(p.terminationStatus, 0, out.value)
        XCTAssertTrue(out.value.hasSuffix("stopped watching\n"), out.value)
    }

    func testWatchRefusesInProcessPlaybackAndJSON() throws {
        let none = try BuildProducts.run(["run", "--scenario", "default", "--watch", "--isolation", "none"])
        XCTAssertEqual(none.status, 2, none.stderr)
        XCTAssertTrue(none.stderr.contains("--watch needs playback workers"), none.stderr)
        XCTAssertEqual(try BuildProducts.run(["run", "--scenario", "default", "--watch", "--json"]).status, 2)
    }
}
