import Foundation
import TransHostManifest
import TransHostTestSupport
import XCTest

/// Where the package's build products are, and helpers to run the real binary.
enum BuildProducts {
    static var binDirectory: String { TestProcess.binDirectory }
    static var packageRoot: String { TestProcess.packageRoot }

    /// How many demos the gallery plays: one per plugin in registry.json.
    static func galleryDemoCount() throws -> Int {
        let data = try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/registry.json"))
        let registry = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return (registry?["plugins"] as? [Any])?.count ?? 0
    }
    static var transhost: String { binDirectory + "/transhost" }

    struct NotBuilt: Error, CustomStringConvertible { let description: String }

    static func library(_ name: String) throws -> String {
        let p = binDirectory + "/" + name
        guard FileManager.default.fileExists(atPath: p) else {
            throw NotBuilt(description: "\(p) is not built; run ./scripts/setup (or swift build) first")
        }
        return p
    }

    /// A fresh temporary directory, removed at the end of the test.
    static func temporaryDirectory(_ test: XCTestCase) throws -> String { try TestProcess.temporaryDirectory(test) }

    /// Builds a one-animator C plugin NAME (its id NAME too) routed for navigation push Src -> Dst
    /// into ROOT/plugins/NAME, and writes ROOT/app.json: a navigation app on Src whose script is
    /// `script` (by default one push of Dst).
    static func writePushPlugin(named name: String, body: String, script: String = #"[{"action": "push", "controller": "d"}]"#,
                                in root: String) throws {
        let dir = root + "/plugins/\(name)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try compileC(body, to: dir + "/lib\(name).so")
        try """
        {"name": "\(name)", "version": "1.0.0", "abi": "\(HostABI.text)", "library": "lib\(name).so",
         "animators": [{"id": "\(name)", "routes": [{"container": "navigation", "operations": ["push"], "from": "Src", "to": "Dst"}]}]}
        """.write(toFile: dir + "/manifest.json", atomically: true, encoding: .utf8)
        try """
        {"name": "\(name)-app", "types": {"Src": "UIViewController", "Dst": "UIViewController"},
         "controllers": {"s": {"type": "Src"}, "d": {"type": "Dst"}},
         "root": {"container": "navigation", "stack": ["s"]}, "script": \(script)}
        """.write(toFile: root + "/app.json", atomically: true, encoding: .utf8)
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

    typealias Output = TestProcess.Output

    /// Runs the real `transhost` binary (with a private scan cache unless the test gives one).
    static func run(_ args: [String], environment: [String: String] = [:], cwd: String? = nil) throws -> Output {
        var env = environment
        if env["TRANSHOST_CACHE"] == nil && env["XDG_CACHE_HOME"] == nil {
            // Tests never touch the user's scan cache unless they pass their own.
            env["TRANSHOST_CACHE"] = FileManager.default.temporaryDirectory.appendingPathComponent("transhost-test-cache-\(getpid()).json").path
        }
        return try TestProcess.run(transhost, args, environment: env, cwd: cwd)
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
