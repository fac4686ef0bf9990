import Foundation
import XCTest

/// Where the package's build products are, and helpers to run the real binary.
enum BuildProducts {
    /// The directory holding the test bundle, the `transhost` binary and the plugin libraries.
    static var binDirectory: String {
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        // The bundle may be a directory (…/transhostPackageTests.xctest/…) on some platforms.
        while dir.path != "/" && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("transhost").path) {
            dir = dir.deletingLastPathComponent()
        }
        return dir.path
    }

    static var packageRoot: String {
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
            dir = dir.deletingLastPathComponent()
        }
        return dir.path
    }

    static var transhost: String { binDirectory + "/transhost" }

    static func library(_ name: String) throws -> String {
        let p = binDirectory + "/" + name
        guard FileManager.default.fileExists(atPath: p) else {
            throw XCTSkip("\(p) is not built; run scripts/setup (or swift build) first")
        }
        return p
    }

    /// A fresh temporary directory, removed at the end of the test.
    static func temporaryDirectory(_ test: XCTestCase) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("transhost-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir.path
    }

    /// Copies a first-party plugin (manifest + built library) into `pluginsDir/<name>/`.
    @discardableResult
    static func installPlugin(_ name: String, library: String, into pluginsDir: String) throws -> String {
        let dest = pluginsDir + "/" + name
        try FileManager.default.createDirectory(atPath: dest, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: packageRoot + "/Plugins/\(name)/manifest.json", toPath: dest + "/manifest.json")
        try FileManager.default.copyItem(atPath: try self.library(library), toPath: dest + "/" + library)
        let demo = packageRoot + "/Plugins/\(name)/demo.json"
        if FileManager.default.fileExists(atPath: demo) { try FileManager.default.copyItem(atPath: demo, toPath: dest + "/demo.json") }
        return dest
    }

    struct Output { let status: Int32; let stdout: String; let stderr: String }

    /// Runs the real `transhost` binary.
    static func run(_ args: [String], environment: [String: String] = [:], cwd: String? = nil) throws -> Output {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: transhost)
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["TRANSHOST_PLUGIN_PATH"] = nil
        env["NO_COLOR"] = "1"
        // Tests never touch the user's scan cache unless they pass their own.
        if environment["XDG_CACHE_HOME"] == nil { env["TRANSHOST_CACHE"] = FileManager.default.temporaryDirectory.appendingPathComponent("transhost-test-cache-\(getpid()).json").path }
        for (k, v) in environment { env[k] = v }
        p.environment = env
        if let cwd { p.currentDirectoryURL = URL(fileURLWithPath: cwd) }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return Output(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    /// Compiles C source into a shared library with the public header on the include path.
    static func compileC(_ source: String, to output: String, extraFlags: [String] = []) throws {
        let src = output + ".c"
        try source.write(toFile: src, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["cc", "-shared", "-fPIC", "-std=c11", "-I", packageRoot + "/Sources/CTransHost/include", "-o", output, src] + extraFlags
        let err = Pipe()
        p.standardError = err
        try p.run()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw NSError(domain: "cc", code: Int(p.terminationStatus), userInfo: [NSLocalizedDescriptionKey: String(decoding: e, as: UTF8.self)]) }
    }
}
