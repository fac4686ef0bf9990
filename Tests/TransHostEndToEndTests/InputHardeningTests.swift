import Foundation
import XCTest

/// Inputs a careless or hostile user gives the real binary: each is a clear error with the exit
/// code the README gives, never a trap, a hang or a silent success.
final class InputHardeningTests: XCTestCase {
    var root = ""

    override func setUpWithError() throws {
        root = try BuildProducts.temporaryDirectory(self)
    }

    /// A small valid scenario with `edit` applied to its top-level object.
    func scenario(_ edit: (inout [String: Any]) -> Void = { _ in }) throws -> String {
        var o: [String: Any] = [
            "format": "transhost-scenario/1", "name": "s",
            "types": ["A": "UIViewController", "B": "UIViewController"],
            "controllers": ["a": ["type": "A", "view": ["background": "#ff0000"]], "b": ["type": "B"]],
            "root": ["container": "navigation", "stack": ["a"]],
            "script": [["action": "push", "controller": "b"]],
        ]
        edit(&o)
        let file = root + "/scenario-\(UUID().uuidString).json"
        try JSONSerialization.data(withJSONObject: o, options: [.sortedKeys, .prettyPrinted]).write(to: URL(fileURLWithPath: file))
        return file
    }

    func run(_ args: [String], environment: [String: String] = [:]) throws -> BuildProducts.Output {
        try BuildProducts.run(args, environment: environment)
    }

    func assertInputError(_ file: String, _ fragments: [String], line: UInt = #line) throws {
        let r = try run(["run", "--scenario", file, "--out", root + "/out", "--trace-only", "--plugins", root])
        XCTAssertEqual(r.status, 5, "stdout: \(r.stdout)\nstderr: \(r.stderr)", line: line)
        for f in fragments { XCTAssertTrue(r.stderr.contains(f), "missing \(f.debugDescription) in: \(r.stderr)", line: line) }
    }

    func testNumbersThatDoNotFitAreInputErrorsNamingFileAndField() throws {
        let scale = try scenario { $0["device"] = ["width": 320, "height": 568, "scale": 1e300] }
        try assertInputError(scale, [scale + ":", #"field "device.scale": 1e+300 is out of range"#])
        let selected = try scenario { $0["root"] = ["container": "tab", "tabs": ["a", "b"], "selected": 1e300] }
        try assertInputError(selected, [#"field "root.selected": 1e+300 is out of range; use an integer from 0 to 1"#])
        let index = try scenario {
            $0["root"] = ["container": "tab", "tabs": ["a", "b"]]
            $0["script"] = [["action": "select", "index": 1e20]]
        }
        try assertInputError(index, [#"field "script[0].index": 1e+20 is out of range"#])
    }

    func testAMisspeltScenarioKeyIsAnErrorWithASuggestion() throws {
        let file = try scenario { $0["scirpt"] = $0["script"]; $0["script"] = nil }
        try assertInputError(file, [#"field "scirpt": unknown key "scirpt"; did you mean "script"?"#])
        let action = try scenario { $0["script"] = [["action": "push", "controler": "b"]] }
        try assertInputError(action, [#"field "script[0].controler": unknown key "controler"; did you mean "controller"?"#])
        let verb = try scenario { $0["script"] = [["action": "psuh", "controller": "b"]] }
        try assertInputError(verb, [#""psuh" is not one of push"#, #"did you mean "push"?"#])
    }

    func testAManifestWithAMisspeltOrMistypedKeyIsListedAsFailed() throws {
        let dir = root + "/plugins/typo"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        func manifest(_ animators: String) throws {
            try #"{"name": "typo", "version": "1", "abi": "1.0", "library": "libtypo.so", "animators": [\#(animators)]}"#
                .write(toFile: dir + "/manifest.json", atomically: true, encoding: .utf8)
        }
        try manifest(#"{"id": "a", "rotues": [{"container": "navigation"}]}"#)
        var r = try run(["list", "--plugins", root + "/plugins"])
        XCTAssertTrue(r.stdout.contains(#"field "animators[0].rotues": unknown key "rotues"; did you mean "routes"?"#), r.stdout)
        XCTAssertTrue(r.stdout.contains("manifest.json:1:"), r.stdout)
        try manifest(#"{"id": "a", "routes": "string"}"#)
        r = try run(["list", "--plugins", root + "/plugins"])
        XCTAssertTrue(r.stdout.contains(#"field "animators[0].routes": expected an array, found the string "string""#), r.stdout)
    }

    // MARK: - special files

    func testSpecialFilesAsScenarioAreRefusedWithTheirPathNeverBlocking() throws {
        let fifo = root + "/fifo.json"
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        try assertInputError(fifo, [fifo, "is a FIFO (named pipe), not a regular file"])
        try assertInputError("/dev/zero", ["/dev/zero", "is a character device, not a regular file"])
        try assertInputError(root, [root, "is a directory, not a regular file"])
    }

    func testSpecialFilesAsRegistryManifestLibraryAndImageAreReported() throws {
        let r = try run(["list", "--registry", "/dev/zero", "--plugins", root])
        XCTAssertEqual(r.status, 5, r.stderr)
        XCTAssertTrue(r.stderr.contains("/dev/zero: cannot read: is a character device"), r.stderr)

        let plugins = root + "/plugins"
        try FileManager.default.createDirectory(atPath: plugins + "/pipe", withIntermediateDirectories: true)
        XCTAssertEqual(mkfifo(plugins + "/pipe/manifest.json", 0o644), 0)
        try FileManager.default.createDirectory(atPath: plugins + "/libpipe", withIntermediateDirectories: true)
        try #"{"name": "libpipe", "version": "1", "abi": "1.0", "library": "lib.so", "animators": [{"id": "a"}]}"#
            .write(toFile: plugins + "/libpipe/manifest.json", atomically: true, encoding: .utf8)
        XCTAssertEqual(mkfifo(plugins + "/libpipe/lib.so", 0o644), 0)
        let l = try run(["list", "--plugins", plugins])
        XCTAssertTrue(l.stdout.contains("\(plugins)/pipe/manifest.json: cannot read: is a FIFO (named pipe)"), l.stdout)
        XCTAssertTrue(l.stdout.contains("library \(plugins)/libpipe/lib.so named by \(plugins)/libpipe/manifest.json is a FIFO"), l.stdout)

        let image = root + "/image.png"
        XCTAssertEqual(mkfifo(image, 0o644), 0)
        let withImage = try scenario { $0["controllers"] = ["a": ["type": "A", "view": ["image": "image.png"]], "b": ["type": "B"]] }
        try assertInputError(withImage, [#"field "controllers.a.view.image": image file"#, "is a FIFO"])
    }

    // MARK: - limits

    func testHugeScenariosAreRefusedWhenReadWithTheLimit() throws {
        let big = try scenario { $0["device"] = ["width": 4096, "height": 4096, "scale": 3] }
        try assertInputError(big, [#"field "device""#, "4096x4096 points at @3x is 12288x12288 pixels"])
        let actions = try scenario { $0["script"] = Array(repeating: ["action": "wait", "seconds": 0], count: 10_001) }
        try assertInputError(actions, [#"field "script": has 10001 elements; at most 10000 are allowed"#])
        let samples = try scenario {
            $0["script"] = [["action": "push", "controller": "b",
                             "gesture": ["samples": (0...100_000).map { [Double($0) * 1e-5, Double($0) * 1e-3] }]]]
        }
        try assertInputError(samples, [#"field "script[0].gesture.samples": has 100001 elements; at most 100000 are allowed"#])
        let radius = try scenario { $0["controllers"] = ["a": ["type": "A", "view": ["cornerRadius": 1e30]], "b": ["type": "B"]] }
        try assertInputError(radius, [#"field "controllers.a.view.cornerRadius": 1e+30 is out of range"#])
        let frame = try scenario {
            $0["controllers"] = ["a": ["type": "A", "view": ["subviews": [["frame": [0, 0, 1e6, 10]]]]], "b": ["type": "B"]]
        }
        try assertInputError(frame, [#"field "controllers.a.view.subviews[0].frame": origin and size must each be within ±100000 points"#])
        var deep: [String: Any] = ["frame": [0, 0, 1, 1]]
        for _ in 0..<40 { deep = ["frame": [0, 0, 1, 1], "subviews": [deep]] }
        let nested = try scenario { $0["controllers"] = ["a": ["type": "A", "view": ["subviews": [deep]]], "b": ["type": "B"]] }
        try assertInputError(nested, ["subviews nest deeper than 32 levels, the limit"])
        let many = try scenario {
            $0["controllers"] = ["a": ["type": "A", "view": ["subviews": Array(repeating: ["frame": [0, 0, 1, 1]], count: 10_001)]], "b": ["type": "B"]]
        }
        try assertInputError(many, ["more than 10000 views, the limit"])
    }

    func testImagesMustBePNGsWithinThePixelLimit() throws {
        // A PNG header claiming 100000 x 100000 pixels: refused before cairo would decode it.
        var header: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        for v in [100_000, 100_000] { header += [UInt8(v >> 24 & 255), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }
        try Data(header + [8, 6, 0, 0, 0]).write(to: URL(fileURLWithPath: root + "/huge.png"))
        try "not a picture".write(toFile: root + "/text.png", atomically: true, encoding: .utf8)
        for (image, says) in [("huge.png", "is 100000x100000 pixels; at most 16 M pixels can be drawn"), ("text.png", "is not a PNG file")] {
            let file = try scenario { $0["controllers"] = ["a": ["type": "A", "view": ["image": image]], "b": ["type": "B"]] }
            try assertInputError(file, [#"field "controllers.a.view.image""#, says])
        }
    }

    func testADeviceOverrideTooLargeToRenderIsAUsageError() throws {
        let r = try run(["run", "--scenario", "default", "--device", "4096x4096", "--scale", "3", "--out", root + "/o", "--plugins", root])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("--device/--scale: 4096x4096 points at @3x is 12288x12288 pixels"), r.stderr)
    }

    func testAScenePastTheRasterBudgetIsAnErrorBeforeAnythingIsDrawn() throws {
        let file = try scenario {
            $0["controllers"] = ["a": ["type": "A", "view": ["subviews": Array(repeating: ["frame": [0, 0, 100_000, 100_000], "background": "#00ff00"], count: 8)]],
                                 "b": ["type": "B"]]
        }
        let r = try run(["run", "--scenario", file, "--out", root + "/o", "--sheet", "--plugins", root])
        XCTAssertEqual(r.status, 5, r.stderr)
        XCTAssertTrue(r.stderr.contains("over the 1024 MiB render budget; the largest is view"), r.stderr)
        XCTAssertTrue(r.stderr.contains("100000x100000 points"), r.stderr)
    }

    // MARK: - names that become file names

    func testAScenarioNameMustBeOneFileNameSoNothingIsWrittenOutsideTheOutputDirectory() throws {
        let work = root + "/work"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        for name in ["../../x", "a/b", "..", "."] {
            let file = try scenario { $0["name"] = name }
            let r = try BuildProducts.run(["run", "--scenario", file, "--trace-only", "--plugins", root], cwd: work)
            XCTAssertEqual(r.status, 5, "\(name): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(#"field "name": the scenario name"#), r.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/x"), "a name climbed out of the output directory")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: work), [])
    }

    // MARK: - what discovery skipped, and the cache

    func testSkippedDirectoriesAreNamedWithTheReason() throws {
        let plugins = root + "/plugins"
        try BuildProducts.installPlugin("fade-scale", library: "libfade-scale.so", into: plugins)
        try FileManager.default.createDirectory(atPath: plugins + "/empty", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: plugins + "/dangling", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: plugins + "/dangling/manifest.json", withDestinationPath: root + "/gone.json")
        let r = try run(["list", "--plugins", plugins])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("skipped \(plugins)/empty: it has no manifest.json"), r.stderr)
        XCTAssertTrue(r.stderr.contains("skipped \(plugins)/dangling: its manifest.json is a symlink to \(root)/gone.json, which does not exist"), r.stderr)

        let own = try run(["list", "--plugins", plugins + "/fade-scale"])
        XCTAssertTrue(own.stderr.contains("\(plugins)/fade-scale (from --plugins) is a plugin's own folder (it holds manifest.json), not a directory of plugins, so it was skipped; give the directory that contains it, \(plugins)"), own.stderr)
    }

    func testACacheThatCannotBeWrittenIsAWarningNotAFailedPlugin() throws {
        let plugins = root + "/plugins"
        try BuildProducts.installPlugin("fade-scale", library: "libfade-scale.so", into: plugins)
        let blocker = root + "/a-file"
        try "x".write(toFile: blocker, atomically: true, encoding: .utf8)
        let dirCache = root + "/cache-dir"
        try FileManager.default.createDirectory(atPath: dirCache, withIntermediateDirectories: true)
        for (cache, says) in [(blocker + "/scan-cache.json", "the scan cache could not be written"), (dirCache, "is a directory, so nothing is cached this run")] {
            let r = try run(["run", "--scenario", "default", "--trace-only", "--out", root + "/o", "--plugins", plugins], environment: ["TRANSHOST_CACHE": cache])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdout.contains("fade-scale/fade-scale"), r.stdout)
            XCTAssertTrue(r.stderr.contains("warning: ") && r.stderr.contains(says), r.stderr)
        }
    }
}
