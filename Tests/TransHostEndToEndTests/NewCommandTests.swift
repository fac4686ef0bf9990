import Foundation
import TransHostTestSupport
import XCTest

/// `transhost new NAME --lang c|swift`: the project builds out of tree against a checkout,
/// passes `transhost validate` as generated, plays its demo, and names the plugin once.
/// (NewCommandSDKTests builds the same projects against an installed SDK.)
final class NewCommandTests: XCTestCase {
    static func build(_ project: String, into plugins: String, environment: [String: String]) throws -> TestProcess.Output {
        try TestProcess.run("/bin/sh", [project + "/build.sh", plugins], environment: environment)
    }

    /// Generates, builds, validates and plays one project; returns its directory.
    @discardableResult
    static func roundTrip(_ test: XCTestCase, name: String, lang: String, root: String, build environment: [String: String],
                          transhost: String, file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let made = try TestProcess.run(transhost, ["new", name, "--lang", lang, "--dir", root])
        XCTAssertEqual(made.status, 0, made.stderr, file: file, line: line)
        let project = root + "/" + name
        for f in ["manifest.json", "demo.json", "README.md", "build.sh"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: project + "/" + f), "\(f) missing", file: file, line: line)
        }
        // The name is written once: renaming the plugin is one edit.
        var count = 0
        for f in try FileManager.default.subpathsOfDirectory(atPath: project) {
            guard let text = try? String(contentsOfFile: project + "/" + f, encoding: .utf8) else { continue }
            count += text.components(separatedBy: name).count - 1
        }
        XCTAssertEqual(count, 1, "the plugin name should appear exactly once in the project", file: file, line: line)
        let built = try build(project, into: root + "/plugins", environment: environment)
        XCTAssertEqual(built.status, 0, built.stderr, file: file, line: line)
        let cache = ["TRANSHOST_CACHE": root + "/cache.json"]
        let v = try TestProcess.run(transhost, ["validate", root + "/plugins/" + name], environment: cache)
        XCTAssertEqual(v.status, 0, v.stdout + v.stderr, file: file, line: line)
        XCTAssertTrue(v.stdout.contains("\(name): 20 passed, 0 failed, 0 skipped"), v.stdout, file: file, line: line)
        let r = try TestProcess.run(transhost, ["run", "--scenario", root + "/plugins/\(name)/demo.json", "--plugins", root + "/plugins",
                                                "--out", root + "/out-\(name)", "--trace-only"], environment: cache)
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        XCTAssertTrue(r.stdout.contains("#2 navigation push ListController -> DetailController  \(name)/slide-in  0.4 s  cancelled"), r.stdout, file: file, line: line)
        return project
    }

    func testACProjectBuildsAgainstACheckoutAndPassesValidate() throws {
        _ = try BuildProducts.library("libfade-scale.so")
        let root = try BuildProducts.temporaryDirectory(self)
        let project = try Self.roundTrip(self, name: "my-slide", lang: "c", root: root, build: ["TRANSHOST_SRC": BuildProducts.packageRoot],
                                         transhost: BuildProducts.transhost)
        // Renaming is one edit: the manifest's name.
        let m = project + "/manifest.json"
        try String(contentsOfFile: m, encoding: .utf8).replacingOccurrences(of: "\"my-slide\"", with: "\"renamed\"")
            .write(toFile: m, atomically: true, encoding: .utf8)
        let again = try Self.build(project, into: root + "/plugins", environment: ["TRANSHOST_SRC": BuildProducts.packageRoot])
        XCTAssertEqual(again.status, 0, again.stderr)
        let list = try BuildProducts.run(["list", "--plugins", root + "/plugins"], environment: ["TRANSHOST_CACHE": root + "/cache.json"])
        XCTAssertTrue(list.stdout.contains("renamed 0.1.0  ABI"), list.stdout)
        XCTAssertFalse(list.stdout.contains("failed"), list.stdout)
    }

    func testASwiftProjectBuildsAgainstACheckoutAndPassesValidate() throws {
        _ = try BuildProducts.library("libfade-scale.so")
        let root = try BuildProducts.temporaryDirectory(self)
        let project = try Self.roundTrip(self, name: "swift-slide", lang: "swift", root: root, build: ["TRANSHOST_SRC": BuildProducts.packageRoot],
                                         transhost: BuildProducts.transhost)
        let export = try String(contentsOfFile: project + "/Swift/Export.swift", encoding: .utf8)
        XCTAssertTrue(export.contains("TransHostExport(animators: [\"slide-in\": SlideIn.init])"), export)
    }

    func testBadArgumentsAndAnOccupiedDirectoryAreRefused() throws {
        let root = try BuildProducts.temporaryDirectory(self)
        XCTAssertEqual(try BuildProducts.run(["new", "x", "--lang", "rust", "--dir", root]).status, 2)
        XCTAssertEqual(try BuildProducts.run(["new", "Bad Name", "--lang", "c", "--dir", root]).status, 2)
        XCTAssertEqual(try BuildProducts.run(["new", "--lang", "c", "--dir", root]).status, 2)
        XCTAssertEqual(try BuildProducts.run(["new", "taken", "--lang", "c", "--dir", root]).status, 0)
        let again = try BuildProducts.run(["new", "taken", "--lang", "swift", "--dir", root])
        XCTAssertEqual(again.status, 5)
        XCTAssertTrue(again.stderr.contains("already exists and is not empty"), again.stderr)
        // A library that does not export the entry is refused by the build, not at dlopen.
        let c = root + "/taken/plugin.c"
        try String(contentsOfFile: c, encoding: .utf8).replacingOccurrences(of: "TH_EXPORT const th_plugin_entry", with: "const th_plugin_entry")
            .replacingOccurrences(of: "-fvisibility=hidden", with: "").write(toFile: c, atomically: true, encoding: .utf8)
        try String(contentsOfFile: c, encoding: .utf8).replacingOccurrences(of: "const th_plugin_entry transhost_plugin_entry", with: "__attribute__((visibility(\"hidden\"))) const th_plugin_entry transhost_plugin_entry")
            .write(toFile: c, atomically: true, encoding: .utf8)
        let hidden = try Self.build(root + "/taken", into: root + "/plugins", environment: ["TRANSHOST_SRC": BuildProducts.packageRoot])
        XCTAssertNotEqual(hidden.status, 0)
        XCTAssertTrue(hidden.stderr.contains("does not export transhost_plugin_entry"), hidden.stderr)
        // Without an SDK or a checkout, build.sh says what to do.
        let bare = try Self.build(root + "/taken", into: root + "/plugins", environment: ["PKG_CONFIG_PATH": root, "PKG_CONFIG_LIBDIR": root, "TRANSHOST_SRC": ""])
        XCTAssertNotEqual(bare.status, 0)
        XCTAssertTrue(bare.stderr.contains("the transhost SDK is not installed"), bare.stderr)
    }
}
