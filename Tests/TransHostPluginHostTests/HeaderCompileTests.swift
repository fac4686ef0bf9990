import Foundation
import XCTest

/// Every public header must compile on its own, as C11 and as C++17, with every warning an error:
/// plugin authors build with their own strict flags, and C++ authors include it directly.
final class HeaderCompileTests: XCTestCase {
    static var includeDirectory: String {
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) { dir = dir.deletingLastPathComponent() }
        return dir.appendingPathComponent("Sources/CTransHost/include").path
    }

    var headers: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: Self.includeDirectory)) ?? []
        return names.filter { $0.hasSuffix(".h") }.sorted()
    }

    func compiler(_ name: String) throws -> String {
        for dir in ["/usr/bin", "/usr/local/bin", "/bin"] where FileManager.default.isExecutableFile(atPath: "\(dir)/\(name)") {
            return "\(dir)/\(name)"
        }
        throw XCTSkip("\(name) is not installed")
    }

    func compile(_ compiler: String, _ flags: [String], source: String, ext: String) throws -> (Int32, String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("transhost-hdr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = dir.appendingPathComponent("t.\(ext)").path
        try source.write(toFile: src, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: compiler)
        p.arguments = flags + ["-Wall", "-Wextra", "-pedantic", "-Werror", "-I", Self.includeDirectory, "-c", src, "-o", dir.appendingPathComponent("t.o").path]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = err
        try p.run()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: e, as: UTF8.self))
    }

    /// Included twice (the include guard), and something from it used so nothing is skipped.
    func source(_ header: String) -> String {
        "#include \"\(header)\"\n#include \"\(header)\"\nint th_header_test_anchor(void);\nint th_header_test_anchor(void) { return (int)sizeof(int); }\n"
    }

    func testThereAreHeaders() {
        XCTAssertTrue(headers.contains("transhost.h"), "\(headers)")
    }

    func testEveryHeaderCompilesAsC11() throws {
        let cc = try compiler("cc")
        for h in headers {
            let (status, output) = try compile(cc, ["-std=c11"], source: source(h), ext: "c")
            XCTAssertEqual(status, 0, "\(h) does not compile as C11 with -Wall -Wextra -pedantic -Werror:\n\(output)")
        }
    }

    func testEveryHeaderCompilesAsCxx17() throws {
        let cxx = try compiler("c++")
        for h in headers {
            let (status, output) = try compile(cxx, ["-std=c++17"], source: source(h), ext: "cpp")
            XCTAssertEqual(status, 0, "\(h) does not compile as C++17 with -Wall -Wextra -pedantic -Werror:\n\(output)")
        }
    }

    /// The entry struct's first two fields are what the host reads from the file before running
    /// any plugin code; a plugin built in C and one built in C++ must agree on them.
    func testEntryLayoutIsTheSameInCAndCxx() throws {
        let check = """
        #include "transhost.h"
        #include <stddef.h>
        #ifdef __cplusplus
        static_assert(offsetof(th_plugin_entry, abi_major) == 0, "abi_major first");
        static_assert(offsetof(th_plugin_entry, abi_minor) == 4, "abi_minor second");
        #else
        _Static_assert(offsetof(th_plugin_entry, abi_major) == 0, "abi_major first");
        _Static_assert(offsetof(th_plugin_entry, abi_minor) == 4, "abi_minor second");
        #endif
        int th_layout_anchor(void);
        int th_layout_anchor(void) { return (int)sizeof(th_host_api); }
        """
        let (s1, o1) = try compile(try compiler("cc"), ["-std=c11"], source: check, ext: "c")
        XCTAssertEqual(s1, 0, o1)
        let (s2, o2) = try compile(try compiler("c++"), ["-std=c++17"], source: check, ext: "cpp")
        XCTAssertEqual(s2, 0, o2)
    }
}
