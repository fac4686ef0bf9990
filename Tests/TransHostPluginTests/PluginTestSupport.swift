import Foundation
import TransHostCoordinators
import TransHostCore
import TransHostPluginHost
import TransHostRouting
import TransHostManifest
import TransHostFFI
import TransHostDiscovery
import TransHostRun
import TransHostScenario
import TransHostSupport
import TransHostTestSupport
import XCTest

/// Where the build products are, how to install a staged plugin into a temporary plugins
/// directory, and how to play a scenario with only that directory on the search path.
enum Products {
    static var binDirectory: String { TestProcess.binDirectory }
    static var packageRoot: String { TestProcess.packageRoot }
    static var transhost: String { binDirectory + "/transhost" }

    struct Missing: Error, CustomStringConvertible { let description: String }

    /// A fresh temporary directory, removed at the end of the test.
    static func temporaryDirectory(_ test: XCTestCase) throws -> String {
        try TestProcess.temporaryDirectory(test, prefix: "transhost-plugintest")
    }

    /// Copies the staged plugin `<bin>/plugins/<name>/` (manifest.json, demo.json, lib<name>.so;
    /// see scripts/setup) into `pluginsDir/<name>/`. When the plugin was built but not staged
    /// (plain `swift build`), the directory is assembled from Plugins/<name>/ and <bin>/lib<name>.so.
    /// Returns the installed directory.
    @discardableResult
    static func install(_ name: String, into pluginsDir: String) throws -> String {
        let fm = FileManager.default
        let dest = pluginsDir + "/" + name
        try fm.createDirectory(atPath: dest, withIntermediateDirectories: true)
        let staged = binDirectory + "/plugins/" + name
        let lib = "lib\(name).so"
        if fm.fileExists(atPath: staged + "/" + lib) {
            for f in try fm.contentsOfDirectory(atPath: staged) {
                try fm.copyItem(atPath: staged + "/" + f, toPath: dest + "/" + f)
            }
        } else {
            guard fm.fileExists(atPath: binDirectory + "/" + lib) else {
                throw Missing(description: "\(binDirectory)/\(lib) is not built; run ./scripts/setup first")
            }
            try fm.copyItem(atPath: binDirectory + "/" + lib, toPath: dest + "/" + lib)
            for f in ["manifest.json", "demo.json"] {
                try fm.copyItem(atPath: packageRoot + "/Plugins/\(name)/" + f, toPath: dest + "/" + f)
            }
        }
        return dest
    }

    static func scan(_ pluginsDir: String) throws -> PluginScan {
        try PluginScanner.scan(PluginSearchPath(entries: [.init(path: pluginsDir, origin: "--plugins", required: true)]), registry: nil)
    }

    /// Installs `plugins` into a fresh directory and plays `scenario` with only them.
    static func play(_ scenario: Scenario, plugins: [String], test: XCTestCase, fps: Int = 60) throws -> Playback {
        let dir = try temporaryDirectory(test)
        for p in plugins { try install(p, into: dir) }
        let scan = try scan(dir)
        for r in scan.records { XCTAssertEqual(r.status, .ok, "\(r.name): \(r.status.reason ?? "")") }
        return Playback.play(scenario, scan: scan, fps: try XCTUnwrap(FrameRate(fps)))
    }

    /// A plugin's demo scenario, optionally edited as JSON (e.g. a different device or script)
    /// and written to a temporary file first.
    static func demo(_ plugin: String, test: XCTestCase, edit: ((inout [String: Any]) -> Void)? = nil) throws -> Scenario {
        let source = packageRoot + "/Plugins/\(plugin)/demo.json"
        guard let edit else { return try Scenario.load(file: source) }
        let data = try Data(contentsOf: URL(fileURLWithPath: source))
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        edit(&object)
        let file = try temporaryDirectory(test) + "/\(plugin)-edited.json"
        try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]).write(to: URL(fileURLWithPath: file))
        return try Scenario.load(file: file)
    }

    /// A scenario written inline as JSON text.
    static func scenario(_ json: String, test: XCTestCase) throws -> Scenario {
        let file = try temporaryDirectory(test) + "/scenario.json"
        try json.write(toFile: file, atomically: true, encoding: .utf8)
        return try Scenario.load(file: file)
    }

    typealias Output = TestProcess.Output

    /// Runs a program and collects its output.
    static func run(_ executable: String, _ args: [String], environment: [String: String] = [:], cwd: String? = nil) throws -> Output {
        try TestProcess.run(executable, args, environment: environment, cwd: cwd)
    }
}

// MARK: - Finding things in a trace

extension TransitionTrace {
    /// The frame sampled at time t (seconds from the transition's start).
    func frame(at t: Double, file: StaticString = #filePath, line: UInt = #line) throws -> TraceFrame {
        try XCTUnwrap(frames.first { abs($0.t - t) < 1e-9 }, "no frame at t = \(t); frames at \(frames.map(\.t))", file: file, line: line)
    }
}

extension TraceFrame {
    func node(named name: String, file: StaticString = #filePath, line: UInt = #line) throws -> PresentationNode {
        try XCTUnwrap(nodes.first { $0.view.name == name }, "no view named \(name) at t = \(t); views: \(nodes.map(\.view.name))", file: file, line: line)
    }
    func nodes(prefix: String) -> [PresentationNode] { nodes.filter { $0.view.name.hasPrefix(prefix) } }
    func has(_ name: String) -> Bool { nodes.contains { $0.view.name == name } }
}

// MARK: - Reference math, written here from DESIGN.md section 8 (not the host's code)

enum Reference {
    /// y of the cubic Bezier (0,0) P1 P2 (1,1) at x, solved by plain bisection on x(s) to
    /// machine precision (the host uses Newton first; the answers must agree).
    static func bezier(_ x: Double, _ p1x: Double, _ p1y: Double, _ p2x: Double, _ p2y: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        func b(_ s: Double, _ a: Double, _ c: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * s * a + 3 * u * s * s * c + s * s * s
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if b(mid, p1x, p2x) < x { lo = mid } else { hi = mid }
        }
        return b((lo + hi) / 2, p1y, p2y)
    }

    /// UIKit's default curve for UIView animations.
    static func easeInOut(_ x: Double) -> Double { bezier(x, 0.42, 0, 0.58, 1) }

    /// Spring progress 1 - x(t) for a unit mass with stiffness k, damping c and initial velocity
    /// v (fractions of the distance per second), from the closed forms of DESIGN.md section 8.
    static func springProgress(k: Double, c: Double, v: Double, t: Double) -> Double {
        let w0 = k.squareRoot()
        let zeta = c / (2 * w0)
        let x: Double
        if zeta < 1 {
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            x = exp(-zeta * w0 * t) * (cos(wd * t) + ((zeta * w0 - v) / wd) * sin(wd * t))
        } else if zeta == 1 {
            x = (1 + (w0 - v) * t) * exp(-w0 * t)
        } else {
            let b = zeta * w0, g = w0 * (zeta * zeta - 1).squareRoot()
            x = ((b + g - v) / (2 * g)) * exp((g - b) * t) + ((g - b + v) / (2 * g)) * exp(-(b + g) * t)
        }
        return 1 - x
    }

    /// The (k, c) of UIKit's spring for (damping ratio, duration, velocity). The numbers come from
    /// the host's solver, but they are checked against their definition: the envelope of the
    /// displacement, |(zeta w0 - v) / wd| e^(-zeta w0 T), must have decayed to 0.001 at T.
    static func spring(damping zeta: Double, duration T: Double, velocity v: Double,
                       file: StaticString = #filePath, line: UInt = #line) -> (k: Double, c: Double) {
        let s = SpringSolver(dampingRatio: zeta, duration: T, initialVelocity: v)
        let w0 = s.stiffness.squareRoot()
        XCTAssertEqual(s.damping / (2 * w0), zeta, accuracy: 1e-9, "the solver keeps the damping ratio", file: file, line: line)
        let envelope = abs((zeta * w0 - v) / (w0 * (1 - zeta * zeta).squareRoot())) * exp(-zeta * w0 * T)
        XCTAssertEqual(envelope, 0.001, accuracy: 1e-6, "the spring settles to 0.001 at the duration", file: file, line: line)
        return (s.stiffness, s.damping)
    }

    /// Row-vector 4x4 product a x b (CATransform3DConcat(a, b)).
    static func multiply(_ a: Transform3D, _ b: Transform3D) -> Transform3D {
        let x = a.values, y = b.values
        var out = [Double](repeating: 0, count: 16)
        for i in 0..<4 { for j in 0..<4 { for k in 0..<4 { out[i * 4 + j] += x[i * 4 + k] * y[k * 4 + j] } } }
        return Transform3D(out)
    }

    /// CATransform3DRotate(t, angle, 0, 1, 0) = R_y(angle) x t, written out.
    static func rotateY(_ t: Transform3D, _ angle: Double) -> Transform3D {
        let c = cos(angle), s = sin(angle)
        let r = Transform3D([c, 0, -s, 0,
                             0, 1, 0, 0,
                             s, 0, c, 0,
                             0, 0, 0, 1])
        return multiply(r, t)
    }

    /// Seed 000's firstTransform (sign +1) and secondTransform (sign -1): identity with
    /// m34 = -1/900, then rotated by +-angle (radians; the seed's 90) about Y.
    static func splitTransform(sign: Double, angle: Double = 90, eye: Double = 900) -> Transform3D {
        var t = Transform3D.identity
        t.m34 = 1.0 / -eye
        return rotateY(t, sign * angle)
    }

    /// The z rotation of an affine-in-the-plane transform, atan2(m12, m11).
    static func angle(_ t: Transform3D) -> Double { atan2(t.m12, t.m11) }

    /// a - b wrapped into (-pi, pi].
    static func angleDifference(_ a: Double, _ b: Double) -> Double {
        var d = (a - b).truncatingRemainder(dividingBy: 2 * .pi)
        if d > .pi { d -= 2 * .pi }
        if d <= -.pi { d += 2 * .pi }
        return d
    }
}

func XCTAssertTransform(_ actual: Transform3D, _ expected: Transform3D, accuracy: Double = 1e-9, _ message: String = "",
                        file: StaticString = #filePath, line: UInt = #line) {
    let a = actual.values, e = expected.values
    for i in 0..<16 where abs(a[i] - e[i]) > accuracy || !a[i].isFinite {
        XCTFail("m\(i / 4 + 1)\(i % 4 + 1): \(a[i]) != \(e[i]) (±\(accuracy)) \(message)\nactual   \(a)\nexpected \(e)", file: file, line: line)
        return
    }
}

func XCTAssertPoint(_ actual: Point, _ x: Double, _ y: Double, accuracy: Double = 1e-9, _ message: String = "",
                    file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(actual.x, x, accuracy: accuracy, "x \(message)", file: file, line: line)
    XCTAssertEqual(actual.y, y, accuracy: accuracy, "y \(message)", file: file, line: line)
}
