import Foundation
import TransHostTestSupport
import XCTest

/// The HTML report in a real headless Chromium (Debian's `chromium`, installed by scripts/test
/// from scripts/test-packages.txt): opened as report.html#selftest, the page moves its first
/// scrubber to the end as a person would (an input event on the range control) and writes what
/// it then shows; the test reads that from the DOM Chromium dumps, checks that another frame is
/// shown and that the curves were drawn, and saves a screenshot of the page.
final class ReportBrowserTests: XCTestCase {
    struct BrowserDidNothing: Error, CustomStringConvertible { let description: String }

    /// Where the screenshot is kept after the test, to look at.
    static var screenshotPath: String { BuildProducts.packageRoot + "/.build/report-browser-test/report.png" }

    static func chromium() -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/bin:/usr/local/bin"
        for dir in path.split(separator: ":") {
            for name in ["chromium", "chromium-browser"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") { return "\(dir)/\(name)" }
        }
        return nil
    }

    /// Chromium as root in a container: no sandbox, no GPU, a profile of its own; `timeout`
    /// bounds it, so a browser that hangs fails the test instead of stopping the suite.
    ///
    /// In one CI run Chromium exited 0 twice in a row without doing anything: no DOM on stdout,
    /// no screenshot written, nothing on stderr; 80 runs here, loaded and not, never did. That
    /// says nothing about the page, so when Chromium exits 0 and `produced` is still false, it
    /// runs again, twice at most, after a pause and with a fresh profile. A run that produced its
    /// output is never repeated, so a page whose self-test does not run still fails.
    func browse(_ browser: String, _ args: [String], profile: String, produced: (TestProcess.Output) -> Bool) throws -> TestProcess.Output {
        var silent: [String] = []
        for attempt in 1...3 {
            if attempt > 1 { usleep(UInt32(500_000 * (attempt - 1))) }
            try? FileManager.default.removeItem(atPath: profile)
            let out = try TestProcess.run("/usr/bin/timeout", ["120", browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                                               "--no-first-run", "--user-data-dir=\(profile)", "--hide-scrollbars", "--virtual-time-budget=5000"] + args)
            if out.status != 0 || produced(out) {
                if !silent.isEmpty { print("chromium did nothing \(silent.count) time(s) before attempt \(attempt) of \(args): \(silent)") }
                return out
            }
            silent.append("attempt \(attempt), stderr: \(out.stderr.suffix(600))")
        }
        throw BrowserDidNothing(description: "chromium exited 0 three times without doing what \(args) asks: \(silent)")
    }

    /// The browser, or nil after failing (in CI) or skipping (elsewhere) when there is none.
    func requireBrowser() throws -> String? {
        if let browser = Self.chromium() { return browser }
        if ProcessInfo.processInfo.environment["CI"] != nil {
            XCTFail("chromium is not installed; scripts/test installs it (scripts/test-packages.txt), so CI must have it")
            return nil
        }
        throw XCTSkip("chromium is not installed and CI is unset: the report's browser test needs Debian's chromium; ./scripts/test installs it")
    }

    /// What the page's self-test wrote, by line label ("before", "after", "cursor", "curves", "diff").
    func selfTest(_ browser: String, page: String, profile: String) throws -> [String: String] {
        let dom = try browse(browser, ["--dump-dom", page + "#selftest"], profile: profile) { $0.stdout.contains("</html>") }
        XCTAssertEqual(dom.status, 0, String(dom.stderr.suffix(2000)))
        guard let start = dom.stdout.range(of: "<pre id=\"selftest-result\">"), let end = dom.stdout.range(of: "</pre>", range: start.upperBound..<dom.stdout.endIndex) else {
            XCTFail("the page's self-test did not run (no visible #selftest-result in the DOM): \(dom.stdout.prefix(500)) stderr: \(dom.stderr.suffix(1000))")
            return [:]
        }
        var said: [String: String] = [:]
        for line in dom.stdout[start.upperBound..<end.lowerBound].split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2 { said[String(parts[0])] = String(parts[1]).trimmingCharacters(in: .whitespaces) }
        }
        return said
    }

    func testMovingTheScrubberChangesTheShownFrameAndTheCurvesAreDrawn() throws {
        guard let browser = try requireBrowser() else { return }
        let tmp = try BuildProducts.temporaryDirectory(self)
        let run = try BuildProducts.run(["run", "fade-scale", "-q", "--scale", "1", "--out", tmp + "/out"])
        XCTAssertEqual(run.status, 0, run.stderr)
        let page = "file://\(tmp)/out/report.html"
        let said = try selfTest(browser, page: page, profile: tmp + "/profile")
        func field(_ line: String?, _ name: String) -> String? {
            guard let line, let r = line.range(of: name + "=") else { return nil }
            return String(line[r.upperBound...].prefix { $0 != " " })
        }
        let before = said["before"], after = said["after"]
        XCTAssertEqual(field(before, "frame"), "0", "the scrubber starts on the t = 0 frame: \(said)")
        // fade-scale's push: 16 frames at 60 fps; the scrubber's last position is the last one.
        XCTAssertEqual(field(after, "frame"), "15", "moved to its end, the scrubber shows the last frame: \(said)")
        XCTAssertNotEqual(field(before, "position"), field(after, "position"), "the shown picture did not change: \(said)")
        XCTAssertNotEqual(before?.components(separatedBy: "label=").last, after?.components(separatedBy: "label=").last, "\(said)")
        XCTAssertTrue(after?.contains("label=frame 15 \u{00B7} 0.25 s") ?? false, "\(said)")
        XCTAssertEqual(said["cursor"], "x=292", "the chart cursors moved to the end of the time axis: \(said)")
        let curves = said["curves"] ?? ""
        let numbers = curves.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        XCTAssertEqual(numbers.count, 3, curves)
        if numbers.count == 3 {
            XCTAssertGreaterThan(numbers[0], 0, "no curve series: \(curves)")
            XCTAssertEqual(numbers[1], numbers[0], "every series has a drawn length: \(curves)")
        }

        try? FileManager.default.removeItem(atPath: Self.screenshotPath)
        try FileManager.default.createDirectory(atPath: (Self.screenshotPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let shot = try browse(browser, ["--window-size=1280,1800", "--screenshot=\(Self.screenshotPath)", page + "#selftest"], profile: tmp + "/profile") { _ in
            FileManager.default.fileExists(atPath: Self.screenshotPath)
        }
        XCTAssertEqual(shot.status, 0, String(shot.stderr.suffix(2000)))
        let png = try Data(contentsOf: URL(fileURLWithPath: Self.screenshotPath))
        XCTAssertEqual(Array(png.prefix(8)), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "the screenshot is a PNG")
        XCTAssertGreaterThan(png.count, 20_000, "the screenshot shows the page, not an empty window")
        print("report screenshot: \(Self.screenshotPath)")
    }

    func testTheDiffViewersSliderAndButtonsShowExpectedActualAndDiff() throws {
        guard let browser = try requireBrowser() else { return }
        let tmp = try BuildProducts.temporaryDirectory(self)
        let plugins = tmp + "/plugins"
        _ = try BuildProducts.installPlugin("fade-scale", library: "libfade-scale.so", into: plugins)
        let base = ["run", "--scenario", "default", "--plugins", plugins, "--scale", "1", "--sheet", "-q"]
        XCTAssertEqual(try BuildProducts.run(base + ["--out", tmp + "/rec", "--record", tmp + "/golden", "--at", "0.5"]).status, 0)
        let changed = try BuildProducts.run(base + ["--out", tmp + "/out", "--expect", tmp + "/golden", "--record-mode", "never",
                                                    "--param", "fade-scale.scale=0.5"])
        XCTAssertEqual(changed.status, 1, changed.stdout + changed.stderr)
        let said = try selfTest(browser, page: "file://\(tmp)/out/report.html", profile: tmp + "/profile")
        XCTAssertEqual(said["diff"], "slider inset(0px 0px 0px 50%) to inset(0px 0px 0px 20%); diff button shows diff=block actual=none mode=diff",
                       "moving the slider moves the expected | actual line, and the diff button shows the diff alone: \(said)")
    }
}
