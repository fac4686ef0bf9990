import Foundation
import TransHostTestSupport
import XCTest

/// Plays the compatibility corpus (Tests/CompatCorpus) the way a user would: the built
/// `libcompat-corpus.so` and its manifest are installed into a fresh plugins directory, and the
/// real `transhost` binary plays one of the corpus scenarios into a fresh output directory. The
/// trace it writes is read back as plain JSON, so these tests see only what a user sees.
enum Corpus {
    static let plugin = "compat-corpus"
    static var root: String { TestProcess.packageRoot + "/Tests/CompatCorpus" }

    struct Missing: Error, CustomStringConvertible { let description: String }

    /// A plugins directory holding only the corpus plugin.
    static func installPlugin(_ test: XCTestCase) throws -> String {
        let fm = FileManager.default
        let lib = TestProcess.binDirectory + "/lib\(plugin).so"
        guard fm.fileExists(atPath: lib) else {
            throw Missing(description: "\(lib) is not built; run `swift build` (the product `\(plugin)` is declared in Package.swift)")
        }
        let plugins = try TestProcess.temporaryDirectory(test, prefix: "transhost-corpus") + "/plugins"
        let dir = plugins + "/" + plugin
        try fm.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try fm.copyItem(atPath: lib, toPath: dir + "/lib\(plugin).so")
        try fm.copyItem(atPath: root + "/manifest.json", toPath: dir + "/manifest.json")
        return plugins
    }

    struct Run {
        let output: TestProcess.Output
        let trace: Trace
        var status: Int32 { output.status }
    }

    /// Plays `Scenarios/<scenario>.json` with the corpus plugin and returns the run and its trace.
    static func play(_ scenario: String, _ test: XCTestCase, extra: [String] = [],
                     file: StaticString = #filePath, line: UInt = #line) throws -> Run {
        let plugins = try installPlugin(test)
        let out = URL(fileURLWithPath: plugins).deletingLastPathComponent().path + "/out"
        let output = try TestProcess.run(TestProcess.transhost, ["run", "--scenario", root + "/Scenarios/\(scenario).json",
                                                                  "--plugins", plugins, "--out", out, "--trace-only"] + extra)
        let traceFile = out + "/trace.json"
        guard FileManager.default.fileExists(atPath: traceFile) else {
            XCTFail("transhost wrote no trace (exit \(output.status))\nstdout:\n\(output.stdout)\nstderr:\n\(output.stderr)", file: file, line: line)
            throw Missing(description: "no trace for \(scenario)")
        }
        let data = try Data(contentsOf: URL(fileURLWithPath: traceFile))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any], file: file, line: line)
        return Run(output: output, trace: try Trace(object))
    }
}

// MARK: - The trace, as plain values

struct Trace {
    let transitions: [Transition]
    let finalStack: [String]
    let finalPresented: [String]
    let finalSelected: Int?

    init(_ o: [String: Any]) throws {
        transitions = try (o["transitions"] as? [[String: Any]] ?? []).map(Transition.init)
        let final = o["final"] as? [String: Any] ?? [:]
        finalStack = final["stack"] as? [String] ?? []
        finalPresented = final["presented"] as? [String] ?? []
        finalSelected = (final["selected"] as? NSNumber)?.intValue
    }
}

struct Breach { let plugin: String, kind: String, message: String }

struct Transition {
    let index: Int
    let container: String
    let operation: String
    let from: String
    let to: String
    /// "plugin/id", or nil when the host's default transition ran.
    let animator: String?
    let interactive: Bool
    let duration: Double
    let outcome: String
    let breaches: [Breach]
    let frames: [Frame]
    /// The window once the transition ended (after completeTransition; docs/trace.md).
    let after: Frame

    init(_ o: [String: Any]) throws {
        index = (o["index"] as? NSNumber)?.intValue ?? -1
        container = o["container"] as? String ?? ""
        operation = o["operation"] as? String ?? ""
        from = o["from"] as? String ?? ""
        to = o["to"] as? String ?? ""
        if let a = o["animator"] as? [String: Any], let p = a["plugin"] as? String, let i = a["id"] as? String {
            animator = p + "/" + i
        } else {
            animator = nil
        }
        interactive = o["interactive"] as? Bool ?? false
        duration = (o["duration"] as? NSNumber)?.doubleValue ?? .nan
        outcome = o["outcome"] as? String ?? ""
        breaches = (o["breaches"] as? [[String: Any]] ?? []).map {
            Breach(plugin: $0["plugin"] as? String ?? "", kind: $0["kind"] as? String ?? "", message: $0["message"] as? String ?? "")
        }
        frames = (o["frames"] as? [[String: Any]] ?? []).map(Frame.init)
        after = Frame(o["after"] as? [String: Any] ?? [:])
    }

    var summary: String { "#\(index) \(container) \(operation) \(from) -> \(to) \(animator ?? "default") \(outcome)" }

    var first: Frame { frames.first ?? Frame([:]) }
    var last: Frame { frames.last ?? Frame([:]) }

    /// The frame nearest to time t.
    func frame(at t: Double) -> Frame {
        frames.min { abs($0.t - t) < abs($1.t - t) } ?? Frame([:])
    }

    /// The named view's states over the transition, in frame order (frames without it skipped).
    func track(_ name: String) -> [ViewState] { frames.compactMap { $0[name] } }
}

struct Frame {
    let t: Double
    let views: [ViewState]
    init(_ o: [String: Any]) {
        t = (o["t"] as? NSNumber)?.doubleValue ?? .nan
        views = (o["views"] as? [[String: Any]] ?? []).map(ViewState.init)
    }
    subscript(name: String) -> ViewState? { views.first { $0.name == name } }
    var snapshots: [ViewState] { views.filter(\.snapshot) }
}

struct ViewState {
    let id: String
    let name: String
    let parent: String?
    let z: Int
    let alpha: Double
    let hidden: Bool
    let snapshot: Bool
    let bounds: [Double]
    let position: [Double]
    let anchor: [Double]
    /// Row-major m11 ... m44.
    let transform: [Double]
    /// The view layer's sublayers, mask and style (docs/trace.md), when it has any.
    let layer: [String: Any]?

    init(_ o: [String: Any]) {
        func numbers(_ k: String) -> [Double] { (o[k] as? [NSNumber] ?? []).map(\.doubleValue) }
        id = o["id"] as? String ?? ""
        name = o["name"] as? String ?? ""
        parent = o["parent"] as? String
        z = (o["z"] as? NSNumber)?.intValue ?? 0
        alpha = (o["alpha"] as? NSNumber)?.doubleValue ?? .nan
        hidden = o["hidden"] as? Bool ?? false
        snapshot = o["snapshot"] as? Bool ?? false
        bounds = numbers("bounds")
        position = numbers("position")
        anchor = numbers("anchor")
        transform = numbers("transform")
        layer = o["layer"] as? [String: Any]
    }

    /// The bounds [x, y, w, h] of the mask's path, when the view's layer has a shape mask.
    var maskPathBounds: [Double]? {
        let path = ((layer?["mask"] as? [String: Any])?["shape"] as? [String: Any])?["path"] as? [String: Any]
        return (path?["bounds"] as? [NSNumber])?.map(\.doubleValue)
    }

    var x: Double { position.first ?? .nan }
    var y: Double { position.count > 1 ? position[1] : .nan }
    var width: Double { bounds.count > 2 ? bounds[2] : .nan }
    var height: Double { bounds.count > 3 ? bounds[3] : .nan }
    var m11: Double { transform.count == 16 ? transform[0] : .nan }
    var m22: Double { transform.count == 16 ? transform[5] : .nan }
    var tx: Double { transform.count == 16 ? transform[12] : .nan }
    var ty: Double { transform.count == 16 ? transform[13] : .nan }
    var isIdentity: Bool {
        let id: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        return transform.count == 16 && zip(transform, id).allSatisfy { abs($0 - $1) < 1e-6 }
    }
    /// The on-screen centre: the position moved by the transform's translation (anchor at the
    /// centre), which is where the view's middle is drawn.
    var screenX: Double { x + tx }
    var screenY: Double { y + ty }
}

// MARK: - Assertions shared by the corpus tests

extension XCTestCase {
    /// The transition was animated by the corpus plugin's `id`, ended with `outcome`, and the
    /// host reported no contract breach.
    func assertClean(_ t: Transition, animator id: String, outcome: String = "completed",
                     file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(t.animator, "\(Corpus.plugin)/\(id)", "who animated \(t.summary)", file: file, line: line)
        XCTAssertEqual(t.outcome, outcome, t.summary, file: file, line: line)
        XCTAssertTrue(t.breaches.isEmpty, "\(t.summary): \(t.breaches.map { "\($0.kind): \($0.message)" })", file: file, line: line)
        XCTAssertGreaterThan(t.frames.count, 2, "\(t.summary) was sampled", file: file, line: line)
    }

    /// The run ended with exit code 0 (nothing failed to load, no breach).
    func assertExitedCleanly(_ run: Corpus.Run, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(run.status, 0, "stdout:\n\(run.output.stdout)\nstderr:\n\(run.output.stderr)", file: file, line: line)
    }

    /// Values that only move one way (within `slack` for printing noise).
    func assertMonotonic(_ values: [Double], increasing: Bool, slack: Double = 1e-6, _ what: String,
                         file: StaticString = #filePath, line: UInt = #line) {
        for (a, b) in zip(values, values.dropFirst()) where increasing ? b < a - slack : b > a + slack {
            XCTFail("\(what) is not \(increasing ? "increasing" : "decreasing"): \(a) then \(b) in \(values)", file: file, line: line)
            return
        }
    }
}
