import Foundation
import TransHostDiscovery
import TransHostManifest
import TransHostScenario
import TransHostSupport
import XCTest

/// The strict reader (unknown keys are errors) must accept every input the project ships or
/// documents: the demos, manifests and templates, the registry, and the examples in docs/.
final class ShippedInputsTests: XCTestCase {
    var root: String { BuildProducts.packageRoot }

    func files(named name: String, under dirs: [String]) -> [String] {
        dirs.flatMap { dir -> [String] in
            let base = root + "/" + dir
            let subs = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
            return subs.sorted().map { "\(base)/\($0)/\(name)" }.filter { FileManager.default.fileExists(atPath: $0) }
        }
    }

    func testEveryShippedScenarioManifestAndTheRegistryRead() throws {
        let demos = files(named: "demo.json", under: ["Plugins", "templates"])
        let manifests = files(named: "manifest.json", under: ["Plugins", "templates"])
        XCTAssertGreaterThanOrEqual(demos.count, 7)
        XCTAssertGreaterThanOrEqual(manifests.count, 7)
        for f in demos { XCTAssertNoThrow(try Scenario.load(file: f), f) }
        for f in manifests { XCTAssertNoThrow(try PluginManifest.load(file: f), f) }
        XCTAssertEqual(try PluginRegistry.load(file: root + "/registry.json").plugins.count, 8)
    }

    /// Whole-document JSON examples in docs/ (fragments such as one action are skipped).
    func testTheDocumentedExamplesRead() throws {
        var checked = 0
        for doc in ["docs/scenario.md", "docs/manifest.md", "docs/plugin-authors.md"] {
            let text = try String(contentsOfFile: root + "/" + doc, encoding: .utf8)
            for block in text.components(separatedBy: "```json\n").dropFirst() {
                let body = block.components(separatedBy: "```").first ?? ""
                guard let value = try? JSONParser.parse(body), let o = value.objectValue else { continue }
                if o["controllers"] != nil {
                    XCTAssertNoThrow(try Scenario.parse(body, file: "\(doc) example"), doc); checked += 1
                } else if o["animators"] != nil {
                    XCTAssertNoThrow(try PluginManifest(document: JSONDocument(file: "\(doc) example", text: body)), doc); checked += 1
                }
            }
        }
        XCTAssertGreaterThanOrEqual(checked, 2)
    }
}
