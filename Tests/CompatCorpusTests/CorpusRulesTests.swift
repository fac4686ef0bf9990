import Foundation
import TransHostTestSupport
import XCTest

/// The corpus's own promises, checked on its files: each is UIKit source with nothing of
/// transhost in it (but for the documented target-action edit, marked `transhost edit:`), the
/// export is the only file that names the kit, and every file waiting in Pending/ is listed in
/// GAPS.md with what it needs.
final class CorpusRulesTests: XCTestCase {
    let fm = FileManager.default

    func swiftFiles(_ dir: String) throws -> [String] {
        try fm.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".swift") }.sorted()
    }

    func testEveryCorpusFileIsPlainUIKitSource() throws {
        let dir = Corpus.root + "/Swift/Corpus"
        let files = try swiftFiles(dir)
        XCTAssertGreaterThanOrEqual(files.count, 20, "the corpus has at least 20 files: \(files)")
        var edited: [String] = []
        for f in files {
            let text = try String(contentsOfFile: dir + "/" + f, encoding: .utf8)
            XCTAssertTrue(text.hasPrefix("import UIKit\n"), "\(f) starts with import UIKit")
            let imports = text.split(separator: "\n").filter { $0.hasPrefix("import ") }
            XCTAssertTrue(imports.allSatisfy { ["import UIKit", "import Foundation", "import QuartzCore", "import CoreGraphics"].contains(String($0)) },
                          "\(f) imports only what an iOS file would: \(imports)")
            for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let l = line.lowercased()
                guard l.contains("transhost") || line.contains("TransHostExport") || line.contains("@_cdecl") || line.contains("viewNamed") else { continue }
                XCTAssertTrue(l.contains("// transhost edit:"), "\(f):\(n + 1) is transhost-specific: \(line)")
            }
            if text.contains("// transhost edit:") {
                edited.append(f)
                XCTAssertTrue(text.split(separator: "\n").filter { $0.contains("#selector") }.allSatisfy { $0.trimmingCharacters(in: .whitespaces).hasPrefix("//") },
                              "\(f) keeps #selector only in the comment that shows the original line")
                XCTAssertFalse(text.split(separator: "\n").contains { $0.trimmingCharacters(in: .whitespaces).hasPrefix("@objc") }, "\(f) has no @objc left")
            }
        }
        // Only the files with gesture recognizers need the one documented edit.
        XCTAssertEqual(edited, ["EdgeSwipeInteractionController.swift", "PanDismissInteractionController.swift", "SwipeBackNavigationDelegate.swift"])
    }

    func testPendingFilesAreListedInGaps() throws {
        let gaps = try String(contentsOfFile: Corpus.root + "/GAPS.md", encoding: .utf8)
        // Pending/ exists only while a file waits (git keeps no empty directory).
        let pending = Corpus.root + "/Pending"
        for f in fm.fileExists(atPath: pending) ? try swiftFiles(pending) : [] {
            XCTAssertTrue(gaps.contains("`\(f)`"), "GAPS.md says what \(f) waits for")
            XCTAssertFalse(fm.fileExists(atPath: Corpus.root + "/Swift/Corpus/" + f), "\(f) is either pending or in the corpus")
        }
    }
}
