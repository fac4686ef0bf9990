import Foundation
import XCTest
@testable import TransHostManifest
@testable import TransHostDiscovery
import CTransHost

/// `list` inspects every library on the search path inside the host process, so a damaged file
/// must give an error, never a crash.
final class ELFInspectorTests: XCTestCase {
    func compiledPlugin(linking libraries: [String] = []) throws -> [UInt8] {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("elf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let src = dir.appendingPathComponent("p.c"), lib = dir.appendingPathComponent("libp.so")
        try "__attribute__((visibility(\"default\"))) const unsigned transhost_plugin_entry[2] = { 1, 1 };\n"
            .write(to: src, atomically: true, encoding: .utf8)
        let cc = Process()
        cc.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        cc.arguments = ["cc", "-shared", "-fPIC", "-o", lib.path, src.path, "-Wl,--no-as-needed"] + libraries
        try cc.run()
        cc.waitUntilExit()
        XCTAssertEqual(cc.terminationStatus, 0)
        return Array(try Data(contentsOf: lib))
    }

    func testTheEntryAndItsABIAreReadFromTheFile() throws {
        let r = try ELFInspector.inspect(bytes: try compiledPlugin(), entrySymbol: "transhost_plugin_entry")
        XCTAssertEqual(r, ELFInspection(hasEntrySymbol: true, abiMajor: 1, abiMinor: 1, needed: ["libc.so.6"]))
    }

    /// The libraries a plugin links are read from its dynamic section, in link order (a worker
    /// loads the Swift toolchain's among them before the plugin itself).
    func testTheLibrariesItLinksAreReadInOrder() throws {
        let r = try ELFInspector.inspect(bytes: try compiledPlugin(linking: ["-lz", "-lm"]), entrySymbol: "transhost_plugin_entry")
        XCTAssertEqual(r.needed, ["libz.so.1", "libm.so.6", "libc.so.6"])
        XCTAssertTrue(r.hasEntrySymbol)
    }

    /// `list` on a 2 GiB library must not read 2 GiB: only the headers and tables are read.
    func testOnlyTheHeadersAndTablesAreReadNotTheWholeFile() throws {
        let b = try compiledPlugin()
        let huge = 2 << 30
        var bytesRead = 0
        let r = try ELFInspector.inspect(size: huge, read: { off, count in
            bytesRead += count
            guard off < b.count else { return [UInt8](repeating: 0, count: min(count, huge - off)) }
            return Array(b[off..<min(b.count, off + count)])
        }, entrySymbol: "transhost_plugin_entry")
        XCTAssertEqual(r, ELFInspection(hasEntrySymbol: true, abiMajor: 1, abiMinor: 1, needed: ["libc.so.6"]))
        XCTAssertLessThan(bytesRead, b.count, "read \(bytesRead) bytes of a \(b.count)-byte library image")
    }

    func testALibraryThatIsNotARegularFileIsRefusedByPath() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("elf-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("lib.so").path
        XCTAssertEqual(mkfifo(fifo, 0o644), 0)
        XCTAssertThrowsError(try ELFInspector.inspect(path: fifo)) { e in
            XCTAssertEqual("\(e)", "cannot read the library: \(fifo) is a FIFO (named pipe), not a regular file; give the path of a regular file")
        }
    }

    func testAHugeSectionHeaderOffsetIsAnErrorNotACrash() throws {
        var b = try compiledPlugin()
        for k in 0..<8 { b[0x28 + k] = k == 0 ? 0xF0 : 0xFF }
        XCTAssertThrowsError(try ELFInspector.inspect(bytes: b, entrySymbol: "transhost_plugin_entry")) { e in
            XCTAssertTrue("\(e)".contains("section headers are missing or truncated"), "\(e)")
        }
    }

    /// Deterministic mutation of the headers and tables: every variant is inspected without a
    /// trap (the result may be an error or a reading; what matters is that the host survives).
    func testRandomlyDamagedLibrariesNeverCrashTheInspector() throws {
        let original = try compiledPlugin()
        var seed: UInt64 = 0x5EED
        func next() -> UInt64 { seed = seed &* 6364136223846793005 &+ 1442695040888963407; return seed >> 33 }
        var outcomes = (errors: 0, readings: 0)
        for _ in 0..<3000 {
            var b = original
            for _ in 0..<(1 + Int(next() % 4)) {
                // Bias toward the ELF header and the section header table, where offsets live.
                let shoff = Int(b[0x28]) | Int(b[0x29]) << 8 | Int(b[0x2A]) << 16
                let region = next() % 2 == 0 ? Int(next() % 64) : min(b.count - 1, shoff + Int(next() % UInt64(max(1, b.count - shoff))))
                b[region] = UInt8(truncatingIfNeeded: next())
            }
            if (try? ELFInspector.inspect(bytes: b, entrySymbol: "transhost_plugin_entry")) != nil { outcomes.readings += 1 } else { outcomes.errors += 1 }
        }
        XCTAssertGreaterThan(outcomes.errors, 0, "some mutations must be detected")
    }
}

/// Structs only grow by appending: the smallest size a plugin may pass stays the ABI 1.0 one.
final class StructGrowthTests: XCTestCase {
    func testMinimumSizesAreTheABI10LayoutsAndNeverExceedTheHeaders() {
        XCTAssertEqual([HostABI.minimumAnimationParamsSize, HostABI.minimumAnimatorSize, HostABI.minimumEntrySize], [32, 48, 56])
        XCTAssertLessThanOrEqual(Int(HostABI.minimumAnimationParamsSize), MemoryLayout<th_animation_params>.size)
        XCTAssertLessThanOrEqual(Int(HostABI.minimumAnimatorSize), MemoryLayout<th_animator>.size)
        XCTAssertLessThanOrEqual(Int(HostABI.minimumEntrySize), MemoryLayout<th_plugin_entry>.size)
    }
}
