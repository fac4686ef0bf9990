import Foundation
import TransHostPluginHost
import TransHostRouting
import TransHostManifest
import TransHostFFI
import TransHostDiscovery
import XCTest

/// The C template builds out of tree with its Makefile and the public header only, is listed,
/// runs, and takes --param overrides through libffi; the scan cache behaves as documented.
final class TemplateAndParameterTests: XCTestCase {
    var root = ""
    var pluginsDir = ""
    var env: [String: String] = [:]

    override func setUpWithError() throws {
        _ = try BuildProducts.library("libfade-scale.so")
        root = try BuildProducts.temporaryDirectory(self)
        pluginsDir = root + "/plugins"
        env = ["TRANSHOST_CACHE": root + "/scan-cache.json"]
        try buildTemplate(into: pluginsDir + "/my-fade")
    }

    /// Copies templates/c-plugin somewhere else and builds it there with make, as a third party would.
    func buildTemplate(into dest: String) throws {
        let src = BuildProducts.packageRoot + "/templates/c-plugin"
        let work = root + "/my-fade-src"
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        for f in ["manifest.json", "demo.json", "plugin.c", "Makefile"] { try FileManager.default.copyItem(atPath: src + "/" + f, toPath: work + "/" + f) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["make", "-C", work, "TRANSHOST_INCLUDE=\(BuildProducts.packageRoot)/Sources/CTransHost/include", "CFLAGS=-O2 -std=c11 -Wall -Wextra -pedantic -Werror"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = Pipe()
        try p.run()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, String(decoding: e, as: UTF8.self))
        try FileManager.default.createDirectory(atPath: dest, withIntermediateDirectories: true)
        for f in ["manifest.json", "demo.json", "libmy-fade.so"] { try FileManager.default.copyItem(atPath: work + "/" + f, toPath: dest + "/" + f) }
    }

    func testTheTemplateIsListedAndRuns() throws {
        let l = try BuildProducts.run(["list", "--plugins", pluginsDir], environment: env)
        XCTAssertEqual(l.status, 0, l.stderr)
        XCTAssertTrue(l.stdout.contains("my-fade 0.1.0  ABI \(HostABI.text)  third-party  ok"), l.stdout)
        let r = try BuildProducts.run(["run", "my-fade", "--plugins", pluginsDir, "--out", root + "/out"], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("#0 navigation push InboxController -> MessageController  my-fade/my-fade  0.3 s  completed"), r.stdout)
    }

    func testInspectShowsParametersWithDefaultsAndRanges() throws {
        let r = try BuildProducts.run(["inspect", "my-fade", "--plugins", pluginsDir], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("configure: my_fade_configure(double duration)"), r.stdout)
        XCTAssertTrue(r.stdout.contains("parameter duration: double = 0.3, range [0.05, 2] — seconds the fade takes"), r.stdout)
    }

    func testParamOverridesReachThePluginThroughLibffi() throws {
        let r = try BuildProducts.run(["run", "my-fade", "--plugins", pluginsDir, "--out", root + "/out", "--param", "my-fade.duration=0.5"], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("#0 navigation push InboxController -> MessageController  my-fade/my-fade  0.5 s  completed  31 frames"), r.stdout)
    }

    func testWrongParamsAreUsageErrorsNamingPluginParameterAndValue() throws {
        let cases: [(String, String)] = [
            ("nobody.duration=1", "no plugin named nobody is installed"),
            ("my-fade.speed=1", "parameter \"speed\" of plugin my-fade: no such parameter (the parameters of my-fade are duration"),
            ("my-fade.duration=fast", "parameter \"duration\" of plugin my-fade: \"fast\" is not a double"),
            ("my-fade.duration=9", "parameter \"duration\" of plugin my-fade: 9 is out of range [0.05, 2]"),
            ("my-fade-duration", "is not of the form PLUGIN.NAME=VALUE"),
        ]
        for (param, message) in cases {
            let r = try BuildProducts.run(["run", "my-fade", "--plugins", pluginsDir, "--out", root + "/out", "--param", param], environment: env)
            XCTAssertEqual(r.status, 2, "\(param): \(r.stderr)")
            XCTAssertTrue(r.stderr.contains(message), "\(param): \(r.stderr)")
        }
    }

    func testAMissingConfigureSymbolIsALoadFailureNamingIt() throws {
        let m = pluginsDir + "/my-fade/manifest.json"
        let text = try String(contentsOfFile: m, encoding: .utf8).replacingOccurrences(of: "\"my_fade_configure\"", with: "\"my_fade_setup\"")
        try text.write(toFile: m, atomically: true, encoding: .utf8)
        let r = try BuildProducts.run(["run", "my-fade", "--plugins", pluginsDir, "--out", root + "/out"], environment: env)
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("the manifest's configure symbol my_fade_setup is not exported by the library"), r.stderr)
        XCTAssertTrue(r.stdout.contains("#0 navigation push InboxController -> MessageController  default"), r.stdout)
    }

    func testTheScanCacheIsWrittenReusedAndIgnoredWithRescan() throws {
        let cache = root + "/scan-cache.json"
        XCTAssertEqual(try BuildProducts.run(["list", "--plugins", pluginsDir], environment: env).status, 0)
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: cache))) as? [String: Any])
        XCTAssertEqual(doc["format"] as? String, "transhost-scan-cache/1")
        XCTAssertEqual(doc["host_abi"] as? String, HostABI.text)
        let entry = try XCTUnwrap((doc["plugins"] as? [String: Any])?[pluginsDir + "/my-fade/manifest.json"] as? [String: Any])
        XCTAssertEqual(entry["status"] as? String, "ok")
        // list loaded the new plugin once, in a validation child, and remembers that it passed.
        XCTAssertEqual((entry["validation"] as? [String: Any])?["passed"] as? Bool, true, "\(entry)")
        // The stamp includes ctime and a content hash: overwriting the library in place with
        // garbage of the same size and putting the mtime back does not fool the cache ...
        let lib = pluginsDir + "/my-fade/libmy-fade.so"
        let attrs = try FileManager.default.attributesOfItem(atPath: lib)
        let size = try XCTUnwrap(attrs[.size] as? Int)
        var st = stat()
        XCTAssertEqual(stat(lib, &st), 0)
        let fh = try XCTUnwrap(FileHandle(forWritingAtPath: lib))
        fh.write(Data(repeating: 0x41, count: size))
        fh.closeFile()
        var times = [st.st_atim, st.st_mtim]
        XCTAssertEqual(utimensat(AT_FDCWD, lib, &times, 0), 0)
        let warm = try BuildProducts.run(["list", "--plugins", pluginsDir], environment: env)
        XCTAssertTrue(warm.stdout.contains("not an ELF shared library"), warm.stdout)
        // ... and --rescan inspects it afresh too.
        let fresh = try BuildProducts.run(["list", "--rescan", "--plugins", pluginsDir], environment: env)
        XCTAssertTrue(fresh.stdout.contains("not an ELF shared library"), fresh.stdout)
        // A change of mtime alone is enough to miss the cache.
        var now = [st.st_atim, timespec(tv_sec: st.st_mtim.tv_sec + 10, tv_nsec: st.st_mtim.tv_nsec)]
        XCTAssertEqual(utimensat(AT_FDCWD, lib, &now, 0), 0)
        let changed = try BuildProducts.run(["list", "--plugins", pluginsDir], environment: env)
        XCTAssertTrue(changed.stdout.contains("not an ELF shared library"), changed.stdout)
    }

    func testTheCacheCanBeTurnedOff() throws {
        let r = try BuildProducts.run(["list", "--plugins", pluginsDir], environment: ["TRANSHOST_CACHE": "", "XDG_CACHE_HOME": root + "/xdg"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/xdg/transhost/scan-cache.json"))
        try XCTSkipIf(ProcessInfo.processInfo.environment["TRANSHOST_CACHE"] != nil, "TRANSHOST_CACHE is set for the whole test run")
        let x = try BuildProducts.run(["list", "--plugins", pluginsDir], environment: ["XDG_CACHE_HOME": root + "/xdg"])
        XCTAssertEqual(x.status, 0, x.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/xdg/transhost/scan-cache.json"))
    }
}
