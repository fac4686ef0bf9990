import Foundation
import TransHostManifest
import XCTest

/// What `run` reports and writes, as a user sees it: load failures that are never silent, JSON
/// that parses, output directories that do not mix runs, configured values in the trace, and
/// every breach told once.
final class RunPipelineTests: XCTestCase {
    var root = ""
    var pluginsDir = ""

    override func setUpWithError() throws {
        root = try BuildProducts.temporaryDirectory(self)
        pluginsDir = root + "/plugins"
        try FileManager.default.createDirectory(atPath: pluginsDir, withIntermediateDirectories: true)
        _ = try BuildProducts.library("libfade-scale.so") // skips when the products are not built
    }

    func fadeScaleRun(_ extra: [String]) throws -> BuildProducts.Output {
        if !FileManager.default.fileExists(atPath: pluginsDir + "/fade-scale") {
            try BuildProducts.installPlugin("fade-scale", library: "libfade-scale.so", into: pluginsDir)
        }
        return try BuildProducts.run(["run", "fade-scale", "--plugins", pluginsDir] + extra)
    }

    func json(_ text: String) throws -> [String: Any] {
        try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "stdout is not one JSON object:\n\(text)")
    }

    // MARK: - issue 11 item 9 and 20: a routed plugin that cannot load is never silent

    /// A C plugin routed for push Src -> Dst whose library lacks the entry symbol.
    func installBrokenPlugin() throws {
        let dir = pluginsDir + "/broken"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try BuildProducts.compileC("int not_the_entry = 1;\n", to: dir + "/libbroken.so")
        try CorpusPlugin.manifest(name: "broken", abi: HostABI.text, library: "libbroken.so")
            .write(toFile: dir + "/manifest.json", atomically: true, encoding: .utf8)
        try CorpusPlugin.scenario.write(toFile: root + "/scenario.json", atomically: true, encoding: .utf8)
    }

    func testARoutedPluginThatCannotLoadFailsTheRunWithItsReasonEvenWhenQuiet() throws {
        try installBrokenPlugin()
        for quiet in [[], ["-q"]] {
            let r = try BuildProducts.run(["run", "--plugins", pluginsDir, "--scenario", root + "/scenario.json",
                                           "--out", root + "/out", "--trace-only"] + quiet)
            XCTAssertEqual(r.status, 3, "\(quiet): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("does not export the entry symbol transhost_plugin_entry"), "\(quiet): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains("the host's default transition was used for navigation push Src -> Dst"), r.stderr)
        }
    }

    func testRouteExplainListsTheBrokenPluginsRuleAsNotUsable() throws {
        try installBrokenPlugin()
        let r = try BuildProducts.run(["route", "--plugins", pluginsDir, "--container", "navigation", "--op", "push",
                                       "--from", "Src", "--to", "Dst", "--explain"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("not usable: "), r.stdout)
        XCTAssertTrue(r.stdout.contains("does not export the entry symbol"), r.stdout)
        XCTAssertFalse(r.stdout.hasPrefix("broken/broken"), "a broken plugin is not announced as the animator:\n\(r.stdout)")
    }

    func testAParamForAPluginThatCannotLoadIsRefused() throws {
        try installBrokenPlugin()
        // The manifest declares no configure, but the refusal must name the load failure first.
        let r = try BuildProducts.run(["run", "--plugins", pluginsDir, "--scenario", root + "/scenario.json", "--out", root + "/out",
                                       "--trace-only", "--param", "broken.x=1"])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("plugin broken cannot be loaded"), r.stderr)
    }

    func testAPluginWhoseManifestCannotBeReadFailsTheRun() throws {
        let dir = pluginsDir + "/typo"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try CorpusPlugin.manifest(name: "typo", abi: HostABI.text, library: "libtypo.so").replacingOccurrences(of: "\"navigation\"", with: "\"navigaton\"")
            .write(toFile: dir + "/manifest.json", atomically: true, encoding: .utf8)
        try CorpusPlugin.scenario.write(toFile: root + "/scenario.json", atomically: true, encoding: .utf8)
        let r = try BuildProducts.run(["run", "-q", "--plugins", pluginsDir, "--scenario", root + "/scenario.json", "--out", root + "/out", "--trace-only"])
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("navigaton"), r.stderr)
    }

    // MARK: - issue 10: plugin deinit runs on every path

    func testPluginDeinitRunsEvenWhenTheOutputsCannotBeWritten() throws {
        let dir = pluginsDir + "/tidy"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let marker = root + "/deinit-ran"
        let source = CorpusPlugin.source(name: "tidy")
            .replacingOccurrences(of: "static void deinit(void) { }",
                                  with: "static void deinit(void) { FILE *f = fopen(getenv(\"TIDY_MARKER\"), \"w\"); if (f) fclose(f); }")
            .replacingOccurrences(of: "#include <signal.h>", with: "#include <signal.h>\n#include <stdio.h>")
        try BuildProducts.compileC(source, to: dir + "/libtidy.so")
        try CorpusPlugin.manifest(name: "tidy", abi: "1.0", library: "libtidy.so").write(toFile: dir + "/manifest.json", atomically: true, encoding: .utf8)
        try CorpusPlugin.scenario.write(toFile: root + "/scenario.json", atomically: true, encoding: .utf8)
        try "not a directory".write(toFile: root + "/file", atomically: true, encoding: .utf8)
        let r = try BuildProducts.run(["run", "--plugins", pluginsDir, "--scenario", root + "/scenario.json", "--out", root + "/file/out", "--trace-only"],
                                      environment: ["TIDY_MARKER": marker])
        XCTAssertEqual(r.status, 5, r.stderr)
        XCTAssertTrue(r.stderr.contains("cannot write the outputs to \(root)/file/out"), r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: marker), "the plugin's deinit was called although the run failed")
    }

    // MARK: - item 14: run --json --expect

    func testJSONWithExpectPrintsOnlyJSONWithTheDifferencesAndTheirTrueCount() throws {
        let golden = root + "/golden"
        XCTAssertEqual(try fadeScaleRun(["--trace-only", "--out", golden]).status, 0)
        // Another screen moves every view in every frame: more differences than are listed.
        let r = try fadeScaleRun(["--trace-only", "--out", root + "/again", "--json", "--expect", golden, "--device", "iphone-8"])
        XCTAssertEqual(r.status, 1, r.stderr)
        let o = try json(r.stdout)
        let expect = try XCTUnwrap(o["expect"] as? [String: Any], r.stdout)
        XCTAssertEqual(expect["matches"] as? Bool, false)
        let total = try XCTUnwrap(expect["differences"] as? Int)
        let listed = try XCTUnwrap(expect["listed"] as? [String])
        XCTAssertGreaterThan(total, listed.count, "the count is of every difference, not of the listed ones")
        XCTAssertEqual(listed.count, 50)
        XCTAssertFalse(listed.contains { $0.contains("more differences") }, "no '... and N more' entry among the differences")

        let text = try fadeScaleRun(["--trace-only", "--out", root + "/again", "--expect", golden, "--device", "iphone-8"])
        XCTAssertTrue(text.stdout.contains("MISMATCH against \(golden)/trace.json: \(total) differences"), text.stdout)
        XCTAssertTrue(text.stdout.contains("... and \(total - 50) more"), text.stdout)
    }

    /// Another frame rate is a clear error, not hundreds of differences between unrelated instants.
    func testAnotherFrameRateThanTheGoldensIsAClearError() throws {
        let golden = root + "/golden"
        XCTAssertEqual(try fadeScaleRun(["--trace-only", "--out", golden]).status, 0)
        let r = try fadeScaleRun(["--trace-only", "--out", root + "/again", "--expect", golden, "--fps", "45"])
        XCTAssertEqual(r.status, 5, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.contains("recorded at 60 fps and this run plays at 45 fps"), r.stderr)
        XCTAssertTrue(r.stderr.contains("run with --fps 60"), r.stderr)
        XCTAssertFalse(r.stdout.contains("MISMATCH"), r.stdout)
    }

    // MARK: - item 18: an index of what each run wrote

    func testARunIntoAUsedDirectoryRemovesOnlyWhatThePreviousRunWrote() throws {
        let out = root + "/out"
        XCTAssertEqual(try fadeScaleRun(["--out", out, "--gif", "--frames"]).status, 0)
        let before = try FileManager.default.contentsOfDirectory(atPath: out)
        XCTAssertTrue(before.contains { $0.hasSuffix(".gif") } && before.contains { $0.hasSuffix("ms.png") }, "\(before)")
        try "mine".write(toFile: out + "/notes.txt", atomically: true, encoding: .utf8)

        let r = try BuildProducts.run(["run", "--scenario", "default", "--out", out, "--trace-only", "--plugins", pluginsDir])
        XCTAssertEqual(r.status, 0, r.stderr)
        let after = Set(try FileManager.default.contentsOfDirectory(atPath: out))
        XCTAssertEqual(after, ["trace.json", "notes.txt", ".transhost-outputs"], "the first run's pictures are gone, the user's file stays")
        XCTAssertEqual(try String(contentsOfFile: out + "/.transhost-outputs", encoding: .utf8), "trace.json\n")
    }

    // MARK: - item 19: --param values are recorded

    func testParamValuesAreInTheTraceAndTheSummary() throws {
        let out = root + "/out"
        let r = try fadeScaleRun(["--out", out, "--trace-only", "--param", "fade-scale.duration=0.5"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("parameters: fade-scale.duration=0.5"), r.stdout)
        let trace = try json(String(contentsOfFile: out + "/trace.json", encoding: .utf8))
        XCTAssertEqual((trace["parameters"] as? [String: [String: String]])?["fade-scale"]?["duration"], "0.5")

        let plain = try fadeScaleRun(["--out", root + "/plain", "--trace-only"])
        XCTAssertEqual(plain.status, 0, plain.stderr)
        XCTAssertNil(try json(String(contentsOfFile: root + "/plain/trace.json", encoding: .utf8))["parameters"],
                     "a run without --param keeps the trace as it was")
    }

    // MARK: - item 25: a breach is told once

    func testALateBreachIsPrintedOnceAndWrittenOnce() throws {
        let dir = pluginsDir + "/twice"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // Completes from its completion block, then once more later (after the record is delivered).
        try BuildProducts.compileC(CorpusPlugin.source(name: "twice").replacingOccurrences(
            of: "host->context_complete_transition((th_context *)u, 1); }",
            with: "host->context_complete_transition((th_context *)u, 1); th_animation_params q = { sizeof(th_animation_params), 1, 0, 0 }; host->animate(&q, noop, late, u); }")
            .replacingOccurrences(of: "static void done(", with: "static void late(int f, void *u) { (void)f; host->context_complete_transition((th_context *)u, 1); }\nstatic void done("),
            to: dir + "/libtwice.so")
        try CorpusPlugin.manifest(name: "twice", abi: "1.0", library: "libtwice.so").write(toFile: dir + "/manifest.json", atomically: true, encoding: .utf8)
        try CorpusPlugin.scenario.write(toFile: root + "/scenario.json", atomically: true, encoding: .utf8)
        let r = try BuildProducts.run(["run", "--plugins", pluginsDir, "--scenario", root + "/scenario.json", "--out", root + "/out", "--trace-only"])
        XCTAssertEqual(r.status, 4, r.stderr)
        XCTAssertEqual(r.stderr.components(separatedBy: "completed").count - 1, 1, "one line tells the late completion:\n\(r.stderr)")
        let trace = try String(contentsOfFile: root + "/out/trace.json", encoding: .utf8)
        XCTAssertEqual(trace.components(separatedBy: "was called again").count - 1, 1, trace)
        XCTAssertNil(try json(trace)["warnings"], "the breach is not repeated as a warning")
    }
}
