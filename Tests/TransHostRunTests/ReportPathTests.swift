@testable import TransHostRun
import XCTest

/// Route explanations name manifests by their plugin's directory ("fade-scale/manifest.json"),
/// so the report reads the same wherever plugins are installed.
final class ReportPathTests: XCTestCase {
    func testEveryOccurrenceOfAPathIsReplacedAndTheRestKept() {
        let path = "/opt/pl\u{00FC}gins/fade-scale/manifest.json"
        let line = "rule from \(path) (\u{2192} fade-scale), shadowed by \(path)!"
        XCTAssertTrue(ReportBuilder.bytes(of: line, contain: path))
        XCTAssertFalse(ReportBuilder.bytes(of: line, contain: "/opt/plugins/"))
        XCTAssertEqual(ReportBuilder.replacing(path, in: line, with: "fade-scale/manifest.json"),
                       "rule from fade-scale/manifest.json (\u{2192} fade-scale), shadowed by fade-scale/manifest.json!")
        XCTAssertEqual(ReportBuilder.replacing(path, in: "no path here", with: "x"), "no path here")
        XCTAssertEqual(ReportBuilder.replacing("aa", in: "aaa", with: "b"), "ba", "left to right, without overlaps, as String.replacing")
    }
}
