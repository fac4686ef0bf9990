import Foundation
import XCTest

/// `transhost stage-plugins`, the set-up step: it reads manifests with transhost's own reader.
final class StagePluginsTests: XCTestCase {
    func testAPluginIsStagedWithItsLibraryAndDemoAndRunsFromThere() throws {
        let root = try BuildProducts.temporaryDirectory(self)
        let sources = root + "/Plugins/fade-scale"
        try FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: true)
        for f in ["manifest.json", "demo.json"] {
            try FileManager.default.copyItem(atPath: BuildProducts.packageRoot + "/Plugins/fade-scale/" + f, toPath: sources + "/" + f)
        }
        let products = root + "/products"
        try FileManager.default.createDirectory(atPath: products, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: try BuildProducts.library("libfade-scale.so"), toPath: products + "/libfade-scale.so")
        let r = try BuildProducts.run(["stage-plugins", "--sources", root + "/Plugins", "--products", products, "--into", root + "/staged"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: root + "/staged/fade-scale")),
                       ["manifest.json", "demo.json", "libfade-scale.so"])
        let run = try BuildProducts.run(["run", "fade-scale", "--plugins", root + "/staged", "--out", root + "/out", "--trace-only"])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("fade-scale/fade-scale"), run.stdout)
    }

    func testABrokenManifestStopsStagingWithItsError() throws {
        let root = try BuildProducts.temporaryDirectory(self)
        try FileManager.default.createDirectory(atPath: root + "/Plugins/bad", withIntermediateDirectories: true)
        // The old sed-based staging would have found "library" here and copied it.
        try #"{"name": "bad", "version": "1", "abi": "1.0", "library": "libbad.so", "animators": []}"#
            .write(toFile: root + "/Plugins/bad/manifest.json", atomically: true, encoding: .utf8)
        try "x".write(toFile: root + "/libbad.so", atomically: true, encoding: .utf8)
        let r = try BuildProducts.run(["stage-plugins", "--sources", root + "/Plugins", "--products", root, "--into", root + "/staged"])
        XCTAssertEqual(r.status, 5, r.stderr)
        XCTAssertTrue(r.stderr.contains("manifest.json: field \"animators\""), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/staged/bad"))
    }
}
