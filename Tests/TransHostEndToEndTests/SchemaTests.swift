import Foundation
import TransHostSupport
import XCTest

/// The JSON Schemas in docs/schemas describe the files transhost reads and writes: every
/// shipped manifest and scenario, the traces of the gallery, `list --json` and the projects
/// `transhost new` writes conform, and a typo or a wrong type does not.
final class SchemaTests: XCTestCase {
    func checker(_ name: String) throws -> JSONSchemaChecker {
        try JSONSchemaChecker(schemaFile: BuildProducts.packageRoot + "/docs/schemas/\(name).schema.json")
    }

    func files(containing marker: String) throws -> [String] {
        let root = BuildProducts.packageRoot
        var out: [String] = []
        for dir in ["Plugins", "templates", "Tests/CompatCorpus", "Tests/KitProbe"] {
            for sub in (FileManager.default.subpaths(atPath: root + "/" + dir) ?? []) where sub.hasSuffix(".json") {
                let path = root + "/" + dir + "/" + sub
                if let text = try? String(contentsOfFile: path, encoding: .utf8), text.contains(marker) { out.append(path) }
            }
        }
        return out
    }

    func assertConforms(_ path: String, to c: JSONSchemaChecker, file: StaticString = #filePath, line: UInt = #line) throws {
        let errors = c.check(try JSONParser.parse(String(contentsOfFile: path, encoding: .utf8)))
        XCTAssertEqual(errors, [], path, file: file, line: line)
    }

    func testShippedManifestsAndScenariosConform() throws {
        let manifests = try files(containing: "\"transhost-manifest/1\"")
        XCTAssertGreaterThanOrEqual(manifests.count, 7, "\(manifests)")
        for m in manifests { try assertConforms(m, to: try checker("manifest")) }
        let scenarios = try files(containing: "\"transhost-scenario/1\"")
        XCTAssertGreaterThanOrEqual(scenarios.count, 20, "\(scenarios)")
        for s in scenarios { try assertConforms(s, to: try checker("scenario")) }
    }

    func testGalleryTracesAndListConform() throws {
        _ = try BuildProducts.library("libfade-scale.so")
        let out = try BuildProducts.temporaryDirectory(self)
        let run = try BuildProducts.run(["run", "--trace-only", "--out", out])
        XCTAssertEqual(run.status, 0, run.stderr)
        let traces = try FileManager.default.contentsOfDirectory(atPath: out).map { out + "/" + $0 + "/trace.json" }
        XCTAssertEqual(traces.count, try BuildProducts.galleryDemoCount(), "\(traces)")
        for t in traces { try assertConforms(t, to: try checker("trace")) }
        let list = try BuildProducts.run(["list", "--json"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertEqual(try checker("list").check(try JSONParser.parse(list.stdout)), [])
        let validate = try BuildProducts.run(["validate", "fade-scale", "--json", "--test-filter", "^(manifest|reverse)"])
        XCTAssertEqual(validate.status, 0, validate.stderr)
        XCTAssertEqual(try checker("validate").check(try JSONParser.parse(validate.stdout)), [])
    }

    func testNewProjectsConformAndMistakesAreCaught() throws {
        let dir = try BuildProducts.temporaryDirectory(self)
        for lang in ["c", "swift"] {
            XCTAssertEqual(try BuildProducts.run(["new", "p-\(lang)", "--lang", lang, "--dir", dir, "-q"]).status, 0)
            try assertConforms(dir + "/p-\(lang)/manifest.json", to: try checker("manifest"))
            try assertConforms(dir + "/p-\(lang)/demo.json", to: try checker("scenario"))
        }
        let manifest = try checker("manifest")
        let typo = try JSONParser.parse(#"{"name": "x", "version": "1", "abi": "1.2", "library": "l.so", "animators": [{"id": "a", "rotues": []}]}"#)
        XCTAssertEqual(manifest.check(typo), [#"$.animators[0]: "rotues" is not allowed"#])
        let wrong = try JSONParser.parse(#"{"name": "x", "version": "1", "abi": "1.2", "library": "l.so", "animators": [{"id": "a", "routes": [{"container": "nav"}]}]}"#)
        XCTAssertEqual(manifest.check(wrong).first, #"$.animators[0].routes[0].container: "nav" is not one of "navigation", "tab", "modal", "any""#)
        let scenario = try checker("scenario")
        let noRoot = try JSONParser.parse(#"{"name": "s", "controllers": {}, "scirpt": []}"#)
        XCTAssertEqual(Set(scenario.check(noRoot)), [#"$: missing required "root""#, #"$: "scirpt" is not allowed"#])
    }
}
