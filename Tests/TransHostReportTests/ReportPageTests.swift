@testable import TransHostReport
import TransHostSupport
import XCTest

/// report.html as a reader of it sees it: what the index and sections say, and that the data it
/// embeds reads back as the same report (which `merge-reports` relies on), whatever the text.
final class ReportPageTests: XCTestCase {
    static func sample() -> Report {
        let curves = ViewCurves(id: "v2", name: "A </script><b> \u{E9}\u{301}'s", series: ["alpha": [1, 0.5, nil, 0], "x": [0, 10, 20, 30], "y": [5, 5, 5, 5]])
        let t = ReportTransition(index: 0, container: "navigation", operation: "push", from: "A", to: "B & C", animator: "fade-scale/fade-scale",
                                 interactive: false, duration: 0.25, outcome: "cancelled", breaches: ["late-completion: twice"],
                                 route: ["route navigation push A -> B", "winner: fade-scale/fade-scale"], animation: "transition-0-push.webp",
                                 sheet: "transition-0-push-sheet.png", times: [0, 0.1, 0.2, 0.25],
                                 pictures: [ReportPicture(frame: 0, t: 0, file: "transition-0-push-sheet.png", crop: [8, 60, 160, 284], size: [680, 688]),
                                            ReportPicture(frame: 3, t: 0.25, file: "transition-0-push-f003-250ms.png", size: [640, 1136])],
                                 curves: [curves],
                                 diffs: [FrameDiff(frame: 3, text: "frame 3 differs", expected: "e.png", actual: "a.png", diff: "d.png")])
        let job = ReportJob(name: "fade-scale", dir: "fade-scale/", scenario: "fade-scale", source: "fade-scale/demo.json",
                            screen: "iphone-5 320x568 @2x, 60 fps", verdict: .mismatch, parameters: ["fade-scale.scale=0.5"],
                            comparison: ReportComparison(golden: "g/trace.json", matches: false, differences: 2, summary: ["s"], listed: ["d1", "d2"]),
                            transitions: [t])
        return Report(title: "gallery", shards: [Shard(index: 2, total: 3)!], jobs: [job])
    }

    func testThePageReadsBackAsTheSameReportAndIsTheSameBytesEachTime() throws {
        let dir = try TestDirectory.make(self)
        let r = Self.sample()
        let path = try HTML.write(r, in: dir)
        XCTAssertEqual(try HTML.read(path), r)
        XCTAssertEqual(try FileIO.readString(path), HTML.page(r))
        XCTAssertEqual(HTML.page(r), HTML.page(Self.sample()))
    }

    /// A gallery's page is written once its last job is drawn, from the parts of the earlier
    /// jobs made while it rendered: the same bytes as a page made whole, and a part made from
    /// other values than the page's job, or for another place, is not used.
    func testJobPartsMadeAheadGiveTheSamePage() {
        var r = Self.sample()
        var second = r.jobs[0]
        second.name = "corner-fly"
        second.dir = "corner-fly/"
        second.verdict = .ok
        r.jobs.append(second)
        let whole = HTML.page(r)
        XCTAssertEqual(HTML.page(r, prepared: [HTML.PreparedJob(r.jobs[0], number: 0)]), whole)
        XCTAssertEqual(HTML.page(r, prepared: [HTML.PreparedJob(r.jobs[0], number: 0), HTML.PreparedJob(r.jobs[1], number: 1)]), whole)
        // Made for the other place, or from a job that has since changed: made again.
        XCTAssertEqual(HTML.page(r, prepared: [HTML.PreparedJob(r.jobs[1], number: 0), HTML.PreparedJob(r.jobs[0], number: 1)]), whole)
        var stale = r.jobs[1]
        stale.transitions[0].outcome = "completed"
        XCTAssertEqual(HTML.page(r, prepared: [HTML.PreparedJob(stale, number: 1)]), whole)
        XCTAssertEqual(HTML.page(Report(title: "empty", shards: [], jobs: []), prepared: [HTML.PreparedJob(r.jobs[0], number: 0)]),
                       HTML.page(Report(title: "empty", shards: [], jobs: [])))
        // The part is what the page shows for its job, and only there.
        func marked(_ job: ReportJob, _ number: Int) -> HTML.PreparedJob {
            HTML.PreparedJob(job: job, number: number, section: "<!-- made ahead -->", data: "\"made ahead\"")
        }
        let used = HTML.page(r, prepared: [marked(r.jobs[1], 1)])
        XCTAssertEqual(used.components("<!-- made ahead -->"), 1)
        XCTAssertTrue(used.contains("\"jobs\":[{"), "the first job's data is made")
        XCTAssertTrue(used.contains("},\"made ahead\"]"), "the second job's data is the part's")
        XCTAssertFalse(HTML.page(r, prepared: [marked(r.jobs[1], 0)]).contains("made ahead"))
        XCTAssertFalse(HTML.page(r, prepared: [marked(stale, 1)]).contains("made ahead"))
    }

    func testTextFromTheRunCannotBreakOutOfThePage() {
        let page = HTML.page(Self.sample())
        XCTAssertFalse(page.contains("A </script><b>"), "a view name is escaped in the markup and in the embedded data")
        XCTAssertTrue(page.contains("A &lt;/script&gt;&lt;b&gt; \u{E9}\u{301}&#39;s"), "escaped, the other characters as they were")
        XCTAssertEqual(page.components("</script>"), 2, "only the data and the script elements close")
        XCTAssertTrue(page.contains("B &amp; C"))
    }

    func testTheIndexAndSectionSayWhatHappened() {
        let page = HTML.page(Self.sample())
        for text in ["<a href=\"#j0-t0\">0</a>", "fade-scale/fade-scale", "0.25 s", "class=\"outcome cancelled\"", "CANCELLED", "BREACH \u{00D7}1",
                     "late-completion: twice", "parameters: fade-scale.scale=0.5", "route explanation", "winner: fade-scale/fade-scale",
                     "src=\"fade-scale/transition-0-push.webp\"", "trace MISMATCH: 2 differences", "shard 2/3", "1 mismatch",
                     "src=\"fade-scale/e.png\"", "src=\"fade-scale/a.png\"", "src=\"fade-scale/d.png\"", "class=\"diff-slider\""] {
            XCTAssertTrue(page.contains(text), "the page does not say \(text)")
        }
    }

    func testTheScrubberStartsOnTheFirstPictureAndCoversEveryOne() {
        let page = HTML.page(Self.sample())
        XCTAssertTrue(page.contains("<input type=\"range\" class=\"scrub\" min=\"0\" max=\"1\" value=\"0\""), "two pictures: positions 0 and 1")
        // The sheet's cell at (8, 60), 160 wide, shown 200 wide: scaled by 1.25.
        XCTAssertTrue(page.contains("background-size:850px 860px;background-position:-10px -75px"), page)
        XCTAssertTrue(page.contains("frame 0 \u{00B7} 0 s"))
    }

    func testCurvesAreDrawnOnlyForWhatChangesAndBreakWhereAViewIsAbsent() {
        let page = HTML.page(Self.sample())
        XCTAssertTrue(page.contains("aria-label=\"alpha\""))
        XCTAssertTrue(page.contains("aria-label=\"position (pt)\""), "x changes, so x and y are drawn together")
        XCTAssertFalse(page.contains("aria-label=\"scale\""), "no scale series")
        // alpha: 1 at t = 0 (top), 0.5 at t = 0.1, absent at 0.2, 0 at the end: two pieces.
        let alpha = page.components(separatedBy: "data-series=\"alpha\"")[1].prefix(200)
        XCTAssertTrue(alpha.contains("d=\"M46 16L144.4 55M292 94\""), String(alpha))
    }

    func testAPageWithoutDataIsAClearError() throws {
        let dir = try TestDirectory.make(self)
        try FileIO.writeAtomically(dir + "/report.html", "<html></html>")
        XCTAssertThrowsError(try HTML.read(dir + "/report.html")) { e in
            XCTAssertTrue("\(e)".contains("\(dir)/report.html") && "\(e)".contains("no transhost report data"), "\(e)")
        }
    }
}

extension String {
    func components(_ s: String) -> Int { components(separatedBy: s).count - 1 }
}

enum TestDirectory {
    static func make(_ test: XCTestCase) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("transhost-report-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(atPath: dir) }
        return dir
    }
}

/// merge-reports reads pages it did not write itself: damaged data is an error naming the file
/// and the field, never a crash.
final class ReportDataReadingTests: XCTestCase {
    func testDamagedDataNamesTheFieldAndNeverTraps() throws {
        let dir = try TestDirectory.make(self)
        let good = HTML.page(ReportPageTests.sample())
        for (from, to, field) in [("\"size\":[680,688]", "\"size\":[1e300,688]", "size[0]"),
                                  ("\"verdict\":\"mismatch\"", "\"verdict\":\"grand\"", "verdict"),
                                  ("\"dir\":\"fade-scale/\"", "\"dir\":\"../../etc/\"", "dir"),
                                  ("\"file\":\"transition-0-push-sheet.png\"", "\"file\":\"../x.png\"", "file"),
                                  ("\"format\":\"transhost-report/1\"", "\"format\":\"transhost-report/9\"", "format")] {
            XCTAssertTrue(good.contains(from), from)
            try FileIO.writeAtomically(dir + "/report.html", good.replacingOccurrences(of: from, with: to))
            XCTAssertThrowsError(try HTML.read(dir + "/report.html"), to) { e in
                XCTAssertTrue("\(e)".contains("\(dir)/report.html") && "\(e)".contains(field), "\(e)")
            }
        }
    }
}
