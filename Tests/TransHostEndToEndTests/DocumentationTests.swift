import Foundation
import TransHostTestSupport
import XCTest

/// The project's documentation stands alone and stays true: nothing cites a document users do
/// not have, the README links the format and rule pages, manifest examples carry the ABI of the
/// current header, and docs/trace.md names every field a trace contains.
final class DocumentationTests: XCTestCase {
    private var root: String { BuildProducts.packageRoot }

    private func trackedFiles() throws -> [String] {
        let r = try TestProcess.run("/usr/bin/git", ["-C", root, "ls-files"])
        XCTAssertEqual(r.status, 0, r.stderr)
        return r.stdout.split(separator: "\n").map(String.init)
    }

    func testNothingCitesAPrivateDesignDocument() throws {
        let name = "DESIGN" + ".md"   // spelled apart so this file does not match itself
        var citing: [String] = []
        for file in try trackedFiles() {
            guard let text = try? String(contentsOfFile: root + "/" + file, encoding: .utf8) else { continue }
            if text.contains(name) { citing.append(file) }
        }
        XCTAssertEqual(citing, [], "these files cite \(name), which is not in the repository")
    }

    func testTheReadmeLinksEveryFormatAndRulePage() throws {
        let readme = try String(contentsOfFile: root + "/README.md", encoding: .utf8)
        for page in ["docs/trace.md", "docs/abi.md", "docs/animation.md", "docs/manifest.md", "docs/scenario.md", "docs/plugin-authors.md", "docs/report.md"] {
            XCTAssertTrue(readme.contains("(\(page))"), "README does not link \(page)")
            XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/" + page), "\(page) is missing")
        }
    }

    func testManifestExamplesCarryTheHeadersABI() throws {
        let header = try String(contentsOfFile: root + "/Sources/CTransHost/include/transhost.h", encoding: .utf8)
        func define(_ name: String) -> String? {
            header.split(separator: "\n").first { $0.hasPrefix("#define \(name) ") }.map { String($0.split(separator: " ").last ?? "") }
        }
        let abi = "\(try XCTUnwrap(define("TH_ABI_MAJOR"))).\(try XCTUnwrap(define("TH_ABI_MINOR")))"
        let files = try trackedFiles().filter { ($0.hasPrefix("docs/") && $0.hasSuffix(".md")) || ($0.hasPrefix("templates/") && $0.hasSuffix("manifest.json")) }
        var found = 0
        for file in files {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            // Example values only ("abi": "1.1"), not prose such as "abi": "MAJOR.MINOR".
            for line in text.split(separator: "\n") where line.contains("\"abi\": \"") && line.contains(where: \.isNumber) {
                found += 1
                XCTAssertTrue(line.contains("\"abi\": \"\(abi)\""), "\(file): `\(line.trimmingCharacters(in: .whitespaces))` does not match transhost.h's \(abi)")
            }
        }
        XCTAssertGreaterThanOrEqual(found, 3, "no manifest example found")
    }

    /// Plays a demo with a cancel and a repairing animator's fields and checks each key of the
    /// trace (at any depth) is named in docs/trace.md.
    func testTheTraceDocumentNamesEveryField() throws {
        let out = try BuildProducts.temporaryDirectory(self)
        let r = try BuildProducts.run(["run", "corner-fly", "--trace-only", "--out", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        let trace = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/trace.json")))
        var keys = Set<String>()
        func collect(_ v: Any) {
            if let o = v as? [String: Any] { for (k, w) in o { keys.insert(k); collect(w) } }
            if let a = v as? [Any] { a.forEach(collect) }
        }
        collect(trace)
        // Fields written only when they apply (see docs/trace.md).
        keys.formUnion(["warnings", "errors", "logs", "parameters", "breaches", "restored", "repairs", "snapshot", "kind", "subject", "message", "plugin", "stretch", "size", "capInsets"])
        let doc = try String(contentsOfFile: root + "/docs/trace.md", encoding: .utf8)
        for key in keys.sorted() {
            XCTAssertTrue(doc.contains("`\(key)`") || doc.contains("\"\(key)\""), "docs/trace.md does not name the trace field \(key)")
        }
    }
}
