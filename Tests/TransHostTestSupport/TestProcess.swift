import Foundation
import XCTest

/// What the end-to-end and plugin test targets share: where the build products are, temporary
/// directories, and running a program with both of its outputs collected.
public enum TestProcess {
    /// The directory holding the test bundle, the `transhost` binary and the plugin libraries.
    public static var binDirectory: String {
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        // The bundle may be a directory (…/transhostPackageTests.xctest/…) on some platforms.
        while dir.path != "/" && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("transhost").path) {
            dir = dir.deletingLastPathComponent()
        }
        return dir.path
    }

    /// The package's root (the directory holding Package.swift).
    public static var packageRoot: String {
        var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
            dir = dir.deletingLastPathComponent()
        }
        return dir.path
    }

    public static var transhost: String { binDirectory + "/transhost" }

    /// A fresh temporary directory, removed at the end of the test.
    public static func temporaryDirectory(_ test: XCTestCase, prefix: String = "transhost-test") throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        test.addTeardownBlock { try? FileManager.default.removeItem(at: dir) }
        return dir.path
    }

    public struct Output {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    /// Runs a program with TRANSHOST_PLUGIN_PATH unset and NO_COLOR set, plus `environment`.
    /// stderr is read on another thread, so neither pipe can fill up and block the child.
    public static func run(_ executable: String, _ args: [String], environment: [String: String] = [:], cwd: String? = nil) throws -> Output {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["TRANSHOST_PLUGIN_PATH"] = nil
        env["NO_COLOR"] = "1"
        for (k, v) in environment { env[k] = v }
        p.environment = env
        if let cwd { p.currentDirectoryURL = URL(fileURLWithPath: cwd) }
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        final class Box: @unchecked Sendable { var data = Data() }
        let box = Box()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async { box.data = err.fileHandleForReading.readDataToEndOfFile(); group.leave() }
        let o = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        p.waitUntilExit()
        return Output(status: p.terminationStatus, stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: box.data, as: UTF8.self))
    }
}
