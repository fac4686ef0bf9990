import Foundation
import XCTest

/// report.html as `transhost run` writes it, `run --shard I/N` and `merge-reports`, as a user
/// and a CI job use them.
final class ReportCommandTests: XCTestCase {
    var tmp = ""
    var base: [String] = []

    override func setUpWithError() throws {
        tmp = try BuildProducts.temporaryDirectory(self)
        let plugins = tmp + "/plugins"
        _ = try BuildProducts.installPlugin("fade-scale", library: "libfade-scale.so", into: plugins)
        // The built-in scenario (A pushes B with fade-scale, B pops back) at @1x.
        base = ["run", "--scenario", "default", "--plugins", plugins, "--scale", "1"]
    }

    func read(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

    func testARenderedRunWritesAReportOfItsTransitionsAndATraceOnlyRunRemovesIt() throws {
        let r = try BuildProducts.run(base + ["--format", "webp", "--out", tmp + "/o"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("wrote \(tmp)/o/report.html"), r.stdout)
        XCTAssertTrue(try read(tmp + "/o/.transhost-outputs").contains("report.html\n"), "the next run into the directory removes it")
        let page = try read(tmp + "/o/report.html")
        for text in ["<td>navigation push</td><td>A \u{2192} B</td><td>fade-scale/fade-scale</td><td>0.25 s</td><td class=\"outcome completed\">completed</td>",
                     "<td>navigation pop</td><td>B \u{2192} A</td><td>default</td><td>0.35 s</td>",
                     "winner: fade-scale/fade-scale [fade-scale/manifest.json animators[0].routes[0]]",
                     "winner: none (no rule matched); the host default transition runs",
                     "<img src=\"transition-0-push.webp\"", "class=\"scrub\"", "aria-label=\"alpha\"", "aria-label=\"scale\""] {
            XCTAssertTrue(page.contains(text), "report.html does not contain \(text)")
        }
        XCTAssertFalse(page.contains(tmp), "the page names no path of this machine, so the same run gives the same bytes anywhere")
        let again = try BuildProducts.run(base + ["--format", "webp", "--out", tmp + "/o2"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(try read(tmp + "/o2/report.html").replacingOccurrences(of: "o2", with: "o"), page, "the same run, the same page")

        let traceOnly = try BuildProducts.run(base + ["--trace-only", "--out", tmp + "/o"])
        XCTAssertEqual(traceOnly.status, 0, traceOnly.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: tmp + "/o/report.html"), "a run without pictures has no report, and the old one is gone")
    }

    func testAnExpectFailureShowsTheDiffViewerAndMergingKeepsTheWorstExitCode() throws {
        XCTAssertEqual(try BuildProducts.run(base + ["--sheet", "--out", tmp + "/rec", "--record", tmp + "/golden", "--at", "0.5"]).status, 0)
        let same = try BuildProducts.run(base + ["--sheet", "--out", tmp + "/same", "--expect", tmp + "/golden", "--record-mode", "never"])
        XCTAssertEqual(same.status, 0, same.stdout + same.stderr)
        let changed = try BuildProducts.run(base + ["--sheet", "--out", tmp + "/changed", "--expect", tmp + "/golden", "--record-mode", "never",
                                                    "--param", "fade-scale.scale=0.5"])
        XCTAssertEqual(changed.status, 1, changed.stdout + changed.stderr)
        let page = try read(tmp + "/changed/report.html")
        XCTAssertTrue(page.contains("<span class=\"verdict mismatch\">mismatch</span>"))
        XCTAssertTrue(page.contains("trace MISMATCH"), "the trace's differences are there too")
        XCTAssertTrue(page.contains("class=\"diffviewer\" id=\"j0-t0-f7\""), "frame 7 (0.5 of the push) differs")
        for suffix in ["expected", "actual", "diff"] {
            let name = "transition-0-push-f007-117ms-\(suffix).png"
            XCTAssertTrue(page.contains("src=\"\(name)\""), "the viewer shows \(name)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: tmp + "/changed/" + name), name)
        }

        let merged = try BuildProducts.run(["merge-reports", tmp + "/merged", tmp + "/same", tmp + "/changed"])
        XCTAssertEqual(merged.status, 1, "a scenario differs, so the merged run fails as it would have: " + merged.stdout + merged.stderr)
        XCTAssertTrue(merged.stdout.contains("  changed  mismatch  2 transitions") && merged.stdout.contains("  same  ok  2 transitions"), merged.stdout)
        let joined = try read(tmp + "/merged/report.html")
        XCTAssertTrue(joined.contains("1 ok") && joined.contains("1 mismatch"), "the merged page counts both")
        XCTAssertTrue(joined.contains("src=\"changed/transition-0-push-f007-117ms-diff.png\""), "its pictures are found below it")
        XCTAssertTrue(FileManager.default.fileExists(atPath: tmp + "/merged/changed/transition-0-push-f007-117ms-diff.png"))
        XCTAssertTrue(FileManager.default.fileExists(atPath: tmp + "/merged/same/trace.json"), "every output of a scenario is copied")

        let twice = try BuildProducts.run(["merge-reports", tmp + "/merged2", tmp + "/same", tmp + "/same"])
        XCTAssertEqual(twice.status, 5)
        XCTAssertTrue(twice.stderr.contains("scenario same is in both \(tmp)/same and \(tmp)/same"), twice.stderr)
        let none = try BuildProducts.run(["merge-reports", tmp + "/merged3", tmp + "/golden"])
        XCTAssertEqual(none.status, 5)
        XCTAssertTrue(none.stderr.contains("\(tmp)/golden holds no report.html"), none.stderr)
    }

    func testShardsSplitTheGalleryByNameAndMergeReportsJoinsThemAgain() throws {
        let cache = ["TRANSHOST_CACHE": tmp + "/cache.json"]
        let gallery = ["run", "--sheet", "--scale", "1"]
        // The gallery's demos (one per registry entry, named after its plugin), sorted by name:
        // the even places go to shard 1/2, the odd ones to 2/2.
        let registry = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: BuildProducts.packageRoot + "/registry.json"))) as! [String: Any]
        let names = (registry["plugins"] as! [[String: Any]]).map { $0["name"] as! String }
        let sorted = names.sorted()
        let firstHalf = Set(sorted.enumerated().filter { $0.offset % 2 == 0 }.map(\.element))
        let secondHalf = Set(sorted).subtracting(firstHalf)
        let one = try BuildProducts.run(gallery + ["--shard", "1/2", "--out", tmp + "/s1"], environment: cache)
        XCTAssertEqual(one.status, 0, one.stderr)
        // The message lists them in the gallery's (registry) order.
        let listed1 = names.filter(firstHalf.contains).joined(separator: ", ")
        XCTAssertTrue(one.stderr.contains("shard 1/2: \(firstHalf.count) of \(names.count) scenarios (\(listed1))"), one.stderr)
        let two = try BuildProducts.run(gallery + ["--shard", "2/2", "--out", tmp + "/s2"], environment: cache)
        XCTAssertEqual(two.status, 0, two.stderr)
        let listed2 = names.filter(secondHalf.contains).joined(separator: ", ")
        XCTAssertTrue(two.stderr.contains("shard 2/2: \(secondHalf.count) of \(names.count) scenarios (\(listed2))"), two.stderr)
        func dirs(_ d: String) throws -> Set<String> {
            Set(try FileManager.default.contentsOfDirectory(atPath: d).filter { FileManager.default.fileExists(atPath: "\(d)/\($0)/trace.json") })
        }
        XCTAssertEqual(try dirs(tmp + "/s1"), firstHalf)
        XCTAssertEqual(try dirs(tmp + "/s2"), secondHalf)
        XCTAssertTrue(try read(tmp + "/s1/report.html").contains("shard 1/2"))
        // Every transition the shards played, counted from their traces.
        var transitions = 0
        for d in ["s1", "s2"] {
            for demo in try dirs(tmp + "/" + d) {
                let trace = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(tmp)/\(d)/\(demo)/trace.json"))) as! [String: Any]
                transitions += (trace["transitions"] as! [Any]).count
            }
        }

        let merged = try BuildProducts.run(["merge-reports", tmp + "/all", tmp + "/s2", tmp + "/s1"])
        XCTAssertEqual(merged.status, 0, merged.stdout + merged.stderr)
        XCTAssertTrue(merged.stdout.contains("merged \(names.count) scenarios from 2 inputs (shards 1/2, 2/2): ok"), merged.stdout)
        let page = try read(tmp + "/all/report.html")
        XCTAssertTrue(page.contains("\(names.count) scenarios \u{00B7} \(transitions) transitions"), "every scenario of the gallery, once")
        let order = sorted.map { page.range(of: "<a href=\"#j\\d+\">\($0)</a>", options: .regularExpression) }
        XCTAssertFalse(order.contains(nil), "each scenario is in the index")
        XCTAssertEqual(try dirs(tmp + "/all"), Set(names))

        let missing = try BuildProducts.run(["merge-reports", tmp + "/part", tmp + "/s1"])
        XCTAssertEqual(missing.status, 5, "a CI run that lost a shard does not pass")
        XCTAssertTrue(missing.stderr.contains("shard 2/2 is missing: its scenarios are not in the merged report"), missing.stderr)
        // A regression run of one scenario, trace only, in two shards: the one with nothing to
        // play still leaves a report, and each shard's report (with pictures or not) merges.
        let first = try BuildProducts.run(base + ["--trace-only", "--shard", "1/2", "--out", tmp + "/t1"])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: tmp + "/t1/report.html"), "a sharded run writes its report even without pictures")
        let empty = try BuildProducts.run(base + ["--trace-only", "--shard", "2/2", "--out", tmp + "/t2"])
        XCTAssertEqual(empty.status, 0, empty.stderr)
        XCTAssertTrue(empty.stderr.contains("shard 2/2: 0 of 1 scenario"), empty.stderr)
        XCTAssertTrue(try read(tmp + "/t2/report.html").contains("0 scenarios \u{00B7} 0 transitions"))
        let both = try BuildProducts.run(["merge-reports", tmp + "/t", tmp + "/t1", tmp + "/t2"])
        XCTAssertEqual(both.status, 0, both.stdout + both.stderr)
        XCTAssertTrue(both.stdout.contains("merged 1 scenario from 2 inputs (shards 1/2, 2/2): ok"), both.stdout)

        let bad = try BuildProducts.run(gallery + ["--shard", "3/2", "--out", tmp + "/s3"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("--shard \"3/2\": I must be from 1 to 2"), bad.stderr)
    }
}
