import Foundation
import XCTest
@testable import TransHostPluginHost
@testable import TransHostManifest
@testable import TransHostDiscovery
import TransHostSupport

/// The validation child process and the scan cache, without the CLI.
final class ValidatorAndCacheTests: XCTestCase {
    var dir = ""

    override func setUpWithError() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("transhost-val-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        addTeardownBlock { [dir] in try? FileManager.default.removeItem(atPath: dir) }
    }

    static var includeDirectory: String { HeaderCompileTests.includeDirectory }

    /// Writes `<dir>/<name>/{manifest.json, lib<name>.so}` with an init running `initBody`.
    func plugin(_ name: String, initBody: String = "") throws -> PluginManifest {
        let pdir = dir + "/" + name
        try FileManager.default.createDirectory(atPath: pdir, withIntermediateDirectories: true)
        let src = """
        #include "transhost.h"
        #include <signal.h>
        #include <stdlib.h>
        #include <unistd.h>
        static double d(const th_animator *s, th_context *c) { (void)s; (void)c; return 0.1; }
        static void a(const th_animator *s, th_context *c) { (void)s; (void)c; }
        static const th_animator A = { sizeof(th_animator), "\(name)", d, a, NULL, NULL };
        static int init(const th_host_api *h) { (void)h; \(initBody) return 0; }
        static void deinit(void) { }
        static const th_animator *get(const char *id) { (void)id; return &A; }
        TH_EXPORT const th_plugin_entry transhost_plugin_entry = { 1, 0, sizeof(th_plugin_entry), "\(name)", "1.0.0", init, deinit, get };
        """
        try src.write(toFile: pdir + "/p.c", atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["cc", "-shared", "-fPIC", "-std=c11", "-I", Self.includeDirectory, "-o", pdir + "/lib\(name).so", pdir + "/p.c"]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        let manifest = """
        {"name": "\(name)", "version": "1.0.0", "abi": "1.0", "library": "lib\(name).so", "animators": [{"id": "\(name)"}]}
        """
        try manifest.write(toFile: pdir + "/manifest.json", atomically: true, encoding: .utf8)
        return try PluginManifest.load(file: pdir + "/manifest.json")
    }

    func testAWellBehavedPluginPasses() throws {
        XCTAssertEqual(PluginValidator.validate(try plugin("fine")), .passed)
    }

    func testCrashesAreNamedBySignalAndStep() throws {
        guard case .failed(let r) = PluginValidator.validate(try plugin("segv", initBody: "raise(SIGSEGV);")) else { return XCTFail("passed") }
        XCTAssertTrue(r.hasPrefix("init crashed with SIGSEGV in the validation child process"), r)
        guard case .failed(let b) = PluginValidator.validate(try plugin("bus", initBody: "raise(SIGBUS);")) else { return XCTFail("passed") }
        XCTAssertTrue(b.hasPrefix("init crashed with SIGBUS"), b)
    }

    func testAHangIsKilledAfterTheTimeout() throws {
        let start = PluginValidator.monotonicSeconds()
        guard case .failed(let r) = PluginValidator.validate(try plugin("hang", initBody: "for (;;) pause();"), timeout: 0.5) else { return XCTFail("passed") }
        XCTAssertLessThan(PluginValidator.monotonicSeconds() - start, 5)
        XCTAssertTrue(r.hasPrefix("did not finish loading within 0.5 s (it was still in init)"), r)
    }

    func testAnInitThatExitsIsReported() throws {
        guard case .failed(let r) = PluginValidator.validate(try plugin("quits", initBody: "_exit(42);")) else { return XCTFail("passed") }
        XCTAssertTrue(r.contains("exited with code 42"), r)
    }

    func testAnInitThatRefusesIsReportedWithItsCode() throws {
        guard case .failed(let r) = PluginValidator.validate(try plugin("refuses", initBody: "return 7;")) else { return XCTFail("passed") }
        XCTAssertEqual(r, "init returned 7 (not 0), so the plugin refused to start")
    }

    func testTheCacheRoundTripsAndInvalidatesOnChange() throws {
        let m = try plugin("cached")
        let file = dir + "/cache/scan-cache.json"
        let search = PluginSearchPath(entries: [.init(path: dir, origin: "--plugins", required: true)])
        let c1 = ScanCache(path: file)
        let s1 = try PluginScanner.scan(search, registry: nil, cache: c1)
        XCTAssertEqual(s1.records.first { $0.name == "cached" }?.status, .ok)
        XCTAssertTrue(FileIO.exists(file))
        c1.setValidation(.passed, for: m.file)
        try c1.save()

        let s2 = try PluginScanner.scan(search, registry: nil, cache: ScanCache(path: file))
        XCTAssertEqual(s2.records.first { $0.name == "cached" }?.statusText, "ok (validated)")
        XCTAssertEqual(try PluginScanner.scan(search, registry: nil, cache: ScanCache(path: file, fresh: true))
            .records.first { $0.name == "cached" }?.validation, nil, "--rescan forgets validation")

        // Rewriting the manifest (new mtime) makes the entry miss: not validated any more.
        try String(contentsOfFile: m.file, encoding: .utf8).write(toFile: m.file + ".new", atomically: false, encoding: .utf8)
        XCTAssertEqual(rename(m.file + ".new", m.file), 0)
        let s3 = try PluginScanner.scan(search, registry: nil, cache: ScanCache(path: file))
        XCTAssertEqual(s3.records.first { $0.name == "cached" }?.statusText, "ok")
    }

    func testACacheOfAnotherFormatIsIgnoredWithAWarning() throws {
        _ = try plugin("p")
        let file = dir + "/c.json"
        try "{\"format\": \"something-else\"}".write(toFile: file, atomically: true, encoding: .utf8)
        let s = try PluginScanner.scan(PluginSearchPath(entries: [.init(path: dir, origin: "--plugins", required: true)]), registry: nil,
                                       cache: ScanCache(path: file))
        XCTAssertEqual(s.records.first?.status, .ok)
        XCTAssertTrue(s.warnings.contains { $0.contains("is not a transhost-scan-cache/1 file; it will be rewritten") }, "\(s.warnings)")
        XCTAssertTrue(try FileIO.readString(file).contains("transhost-scan-cache/1"))
    }

    func testSignalNames() {
        XCTAssertEqual(PluginValidator.signalName(SIGSEGV), "SIGSEGV")
        XCTAssertEqual(PluginValidator.signalName(SIGABRT), "SIGABRT")
        XCTAssertEqual(PluginValidator.signalName(63), "signal 63")
    }
}
