#if canImport(Glibc)
import Glibc
#endif
import TransHostCoordinators
import TransHostCore
import TransHostDiscovery
import TransHostPluginHost
import TransHostRender
import TransHostReport
import TransHostRouting
import TransHostScenario
import TransHostSupport

/// Turns what a run did into the HTML report's values: the summary's facts, the route
/// explanation of each transition, the pictures the run wrote (for the scrubber: the contact
/// sheet's cells and any --frames PNGs), each animated view's curves and the frames --expect
/// found different.
struct ReportBuilder {
    let scan: PluginScan
    let pictures: RunExporter.Options
    /// The routable plugins' manifests, each with the name `portable` gives it (the scan
    /// sorts its routable plugins afresh whenever they are asked for).
    private let manifests: [(file: String, portable: String)]

    init(scan: PluginScan, pictures: RunExporter.Options) {
        self.scan = scan
        self.pictures = pictures
        manifests = scan.routable.compactMap { r in
            guard let file = r.manifestPath, !file.isEmpty else { return nil }
            return (file, PathUtil.join(PathUtil.basename(PathUtil.dirname(file)), PathUtil.basename(file)))
        }
    }

    /// The job as its report shows it; `dir` is its directory relative to the report's.
    /// `transitions`, when given, are this job's transitions as an earlier page built them
    /// (they do not depend on `dir`): the gallery's page then reuses each job's.
    func job(_ r: JobReport, dir: String, transitions: [ReportTransition]? = nil) -> ReportJob {
        let res = r.result, d = res.scenario.device
        let source = res.scenario.source == "built-in" ? "built-in" : PathUtil.basename(PathUtil.dirname(res.scenario.source)) + "/" + PathUtil.basename(res.scenario.source)
        var notes = res.warnings.map { "warning: \($0)" } + res.errors.map { "error: \($0)" }
        notes += res.pluginFailures.map { "plugin failure: \($0.message)" }
        // Golden frames of transitions this run does not have belong to no transition's section.
        for f in r.goldens?.frames ?? [] where f.failed && f.transition >= res.transitions.count {
            if case .broken(let reason, _) = f.outcome { notes.append("golden frame \(f.golden): \(reason)") }
        }
        var j = ReportJob(name: PathUtil.basename(r.job.outDir), dir: dir, scenario: res.scenario.name, source: source,
                          screen: "\(d.name) \(JSONWriter.format(d.width))x\(JSONWriter.format(d.height)) @\(r.scale)x, \(res.fps) fps",
                          verdict: r.verdict, failure: r.failure.map { "\($0)" },
                          parameters: r.parameters.keys.sorted().flatMap { p in r.parameters[p]!.keys.sorted().map { "\(p).\($0)=\(r.parameters[p]![$0]!)" } },
                          notes: notes, finalStack: res.finalStack.joined(separator: " > "))
        if let c = r.comparison, let g = r.goldens {
            j.comparison = ReportComparison(golden: g.trace, matches: c.matches, differences: c.total, summary: c.summary.map(\.description),
                                            listed: c.listed.map(\.description) + (c.unlisted > 0 ? ["... and \(c.unlisted) more"] : []))
        }
        if let transitions {
            j.transitions = transitions
            return j
        }
        let names = Set(r.files.map(PathUtil.basename))
        let router = Router(rules: PluginRuntime.rules(from: scan.routable), types: TypeHierarchy(superclasses: res.scenario.types))
        j.transitions = res.transitions.map { transition($0, of: r, files: names, router: router) }
        return j
    }

    func transition(_ t: TransitionTrace, of r: JobReport, files: Set<String>, router: Router) -> ReportTransition {
        let rec = t.record, res = r.result
        let base = "transition-\(t.index)-\(rec.operation.rawValue)"
        let failure = t.pluginFailure.map { n in
            n.failedHere ? "plugin failed: \(n.failure.message); the host played its default transition"
                : "default transition: plugin \(n.failure.plugin) failed in transition #\(n.failure.transition ?? 0) (\(n.failure.cause) in \(n.failure.call))"
        }
        var out = ReportTransition(index: t.index, container: rec.container.rawValue, operation: rec.operation.rawValue,
                                   from: rec.fromType, to: rec.toType, animator: rec.animator.map { "\($0.plugin)/\($0.id)" },
                                   interactive: rec.interactive, duration: rec.duration, outcome: rec.outcome.rawValue,
                                   breaches: res.breaches(ofTransition: rec.index).map { "\($0.kind): \($0.message)" },
                                   repairs: rec.repairs.map { "\($0.kind) \($0.subject): \($0.message)" }, pluginFailure: failure,
                                   route: router.resolve(RouteQuery(container: rec.container, operation: rec.operation, from: rec.fromType, to: rec.toType))
                                       .explanation.map(portable))
        // The run wrote one of the two, as --format said.
        out.animation = ["\(base).webp", "\(base).gif"].first(where: files.contains)
        out.sheet = files.contains("\(base)-sheet.png") ? "\(base)-sheet.png" : nil
        out.times = t.frames.map(\.t)
        out.pictures = scrubberPictures(t, of: r, base: base, files: files)
        out.curves = Self.curves(t.frames)
        out.diffs = (r.goldens?.frames ?? []).filter { $0.transition == t.index && $0.failed }.map(diff)
        return out
    }

    /// A route explanation's line with each manifest named from its plugin's directory
    /// ("fade-scale/manifest.json"), so the page does not depend on where plugins are installed.
    func portable(_ line: String) -> String {
        var out = line
        for m in manifests where Self.bytes(of: out, contain: m.file) { out = Self.replacing(m.file, in: out, with: m.portable) }
        return out
    }

    // By UTF-8 bytes (a path is found where its bytes are): String's own search builds a table
    // on every call, and the gallery asks for every line of every route explanation and every
    // plugin, a few percent of its CPU.
    static func bytes(of text: String, contain part: String) -> Bool {
        text.withCString { t in part.withCString { p in strstr(t, p) != nil } }
    }

    static func replacing(_ part: String, in text: String, with replacement: String) -> String {
        let t = Array(text.utf8), p = Array(part.utf8), r = Array(replacement.utf8)
        guard !p.isEmpty, t.count >= p.count else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(t.count)
        var i = 0
        while i < t.count {
            if i + p.count <= t.count, t[i] == p[0], t[i..<(i + p.count)].elementsEqual(p) {
                out += r
                i += p.count
            } else {
                out.append(t[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The frames the run rendered as pictures: each --frames PNG, and the contact sheet's
    /// cells for the frames that have no PNG of their own.
    func scrubberPictures(_ t: TransitionTrace, of r: JobReport, base: String, files: Set<String>) -> [ReportPicture] {
        let dir = r.job.outDir, d = r.result.scenario.device
        var byFrame: [Int: ReportPicture] = [:]
        let sheet = "\(base)-sheet.png"
        if files.contains(sheet), let size = FileIO.pngSize(PathUtil.join(dir, sheet)) {
            let picks = RunExporter(options: pictures).sheetFrames(t.frames.map(\.t), fps: r.result.fps)
            // The renderer's pixel size for this screen and scale.
            let w = max(Int((d.width * Double(r.scale)).rounded()), 1), h = max(Int((d.height * Double(r.scale)).rounded()), 1)
            let layout = ContactSheet.layout(count: picks.count, frameWidth: w, frameHeight: h, caption: ContactSheet.Caption(t.record))
            // Only when the file is the sheet this layout describes.
            if layout.width == size.width && layout.height == size.height {
                for (k, i) in picks.enumerated() {
                    byFrame[i] = ReportPicture(frame: i, t: t.frames[i].t, file: sheet, crop: layout.cells[k], size: [size.width, size.height])
                }
            }
        }
        for (i, f) in t.frames.enumerated() {
            let name = PathUtil.basename(RunExporter.frameFileName(base: base, index: i, time: f.t))
            guard files.contains(name), let size = FileIO.pngSize(PathUtil.join(dir, name)) else { continue }
            byFrame[i] = ReportPicture(frame: i, t: f.t, file: name, size: [size.width, size.height])
        }
        return byFrame.keys.sorted().map { byFrame[$0]! }
    }

    func diff(_ f: FrameCheck) -> FrameDiff {
        switch f.outcome {
        case .differs(let n, let total, let allowed, _, let e, let a, let d):
            return FrameDiff(frame: f.frame, text: "frame \(f.frame) differs from \(f.golden): \(n) of \(total) pixels (allowed \(allowed)); red: changed, yellow: anti-aliasing",
                             expected: PathUtil.basename(e), actual: PathUtil.basename(a), diff: PathUtil.basename(d))
        case .broken(let reason, let a):
            return FrameDiff(frame: f.frame, text: "frame \(f.frame)\(f.golden.isEmpty ? "" : " against \(f.golden)"): \(reason)",
                             expected: nil, actual: a.map(PathUtil.basename), diff: nil)
        case .matches, .recorded:
            return FrameDiff(frame: f.frame, text: "", expected: nil, actual: nil, diff: nil)
        }
    }

    /// Each view that changes during the frames, with its values per frame (views in the order
    /// they first appear). A chart's series are kept only when one of them changes.
    static func curves(_ frames: [TraceFrame]) -> [ViewCurves] {
        // Each view's series in one flat array: series k of view v at frame i is at
        // v * stride + k * frames.count + i (`ViewCurves.names` order). A view's frames are many
        // and its series few, and the report is written while pictures still render: rows by
        // index rather than dictionaries by name, and a view found by the identity of its
        // sampled values (shared by the frames that sampled it unchanged) before its id.
        let names = ViewCurves.names
        let column = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        let slots = [column["alpha"]!, column["x"]!, column["y"]!, column["scaleX"]!, column["scaleY"]!,
                     column["rotationZ"]!, column["rotationY"]!, column["rotationX"]!]
        let count = frames.count, stride = names.count * count
        var order: [String] = [], viewNames: [String: String] = [:], row: [String: Int] = [:]
        var rowOfValues: [ObjectIdentifier: Int] = [:]
        var series: [Double?] = [], lastTurn: [Turn?] = []
        for (i, f) in frames.enumerated() {
            for n in f.nodes {
                let v: Int
                if let known = rowOfValues[n.view.storageIdentity] {
                    v = known
                } else {
                    let id = n.view.id
                    if let known = row[id] {
                        v = known
                    } else {
                        v = order.count
                        row[id] = v
                        order.append(id); viewNames[id] = n.view.name
                        series.append(contentsOf: repeatElement(nil, count: stride))
                        lastTurn.append(nil)
                    }
                    rowOfValues[n.view.storageIdentity] = v
                }
                let turn = rotation(n.state.transform, after: lastTurn[v])
                lastTurn[v] = turn
                let p = placement(n.state)
                let base = v * stride + i
                func put(_ slot: Int, _ x: Double) { series[base + slots[slot] * count] = x.isFinite ? (x * 10_000).rounded() / 10_000 : 0 }
                put(0, p.alpha); put(1, p.x); put(2, p.y); put(3, p.scaleX); put(4, p.scaleY)
                put(5, turn.z); put(6, turn.y); put(7, turn.x)
            }
        }
        return order.enumerated().compactMap { v, id in
            var s = Dictionary(uniqueKeysWithValues: names.enumerated().map { k, name in
                (name, Array(series[(v * stride + k * count)..<(v * stride + (k + 1) * count)]))
            })
            for chart in ViewCurves.charts where !chart.series.contains(where: { CurveValues.varies(s[$0] ?? []) }) {
                for k in chart.series { s[k] = nil }
            }
            return s.isEmpty ? nil : ViewCurves(id: id, name: viewNames[id] ?? id, series: s)
        }
    }

    /// alpha; where the anchor point is in the parent (the position moved by the transform's
    /// translation, so a view slid with a transform moves on the chart as on the screen); and
    /// the transform's scale (the lengths of its first two rows).
    static func values(_ s: PresentationState) -> [String: Double] {
        let p = placement(s)
        return ["alpha": p.alpha, "x": p.x, "y": p.y, "scaleX": p.scaleX, "scaleY": p.scaleY]
    }

    static func placement(_ s: PresentationState) -> (alpha: Double, x: Double, y: Double, scaleX: Double, scaleY: Double) {
        let m = s.transform
        func len(_ a: Double, _ b: Double, _ c: Double) -> Double { (a * a + b * b + c * c).squareRoot() }
        return (s.alpha, s.position.x + m.m41, s.position.y + m.m42, len(m.m11, m.m12, m.m13), len(m.m21, m.m22, m.m23))
    }

    /// Angles about z, y and x, degrees.
    typealias Turn = (z: Double, y: Double, x: Double)

    /// The rotation of a transform's rows as angles about z, y and x (degrees). A rotation has
    /// two such triples; the one nearest the previous frame's is taken, and each angle is moved
    /// by whole turns next to its previous value, so a turn past 90 or 180 degrees reads as one
    /// continuous curve instead of jumping.
    static func rotation(_ m: Transform3D, after previous: Turn?) -> Turn {
        func len(_ a: Double, _ b: Double, _ c: Double) -> Double { (a * a + b * b + c * c).squareRoot() }
        let sx = len(m.m11, m.m12, m.m13), sy = len(m.m21, m.m22, m.m23), sz = len(m.m31, m.m32, m.m33)
        guard sx > 1e-12, sy > 1e-12, sz > 1e-12 else { return previous ?? (0, 0, 0) }
        let deg = 180 / Double.pi
        let r13 = max(-1, min(1, m.m13 / sx))
        let y1 = asin(-r13) * deg
        var a: Turn, b: Turn
        if abs(r13) < 0.999999 {
            let z1 = atan2(m.m12 / sx, m.m11 / sx) * deg, x1 = atan2(m.m23 / sy, m.m33 / sz) * deg
            a = (z1, y1, x1)
            b = (z1 + 180, 180 - y1, x1 + 180)
        } else {
            // Gimbal lock: only z - x (or z + x) is known; keep x where it was.
            let x = previous?.x ?? 0
            let zx = atan2(-m.m21 / sy, m.m22 / sy) * deg
            a = (zx + (r13 < 0 ? x : -x), y1, x)
            b = a
        }
        func near(_ v: Double, _ p: Double) -> Double { v - 360 * ((v - p) / 360).rounded() }
        let p = previous ?? (0, 0, 0)
        a = (near(a.z, p.z), near(a.y, p.y), near(a.x, p.x))
        b = (near(b.z, p.z), near(b.y, p.y), near(b.x, p.x))
        func dist(_ v: Turn) -> Double { abs(v.z - p.z) + abs(v.y - p.y) + abs(v.x - p.x) }
        return dist(b) < dist(a) ? b : a
    }
}

enum CurveValues {
    static func varies(_ values: [Double?]) -> Bool {
        let v = values.compactMap { $0 }
        guard let lo = v.min(), let hi = v.max() else { return false }
        return hi - lo > 1e-6
    }
}

extension JobReport {
    /// How the job ended; the run's exit code is its worst job's.
    public var verdict: Verdict {
        if let failure {
            switch failure {
            case .stopped, .unplayable: return .pluginFailed
            default: return .inputError
            }
        }
        let r = result
        var v = Verdict.ok
        if let g = goldens, comparison.map({ !$0.matches }) ?? false || !g.failedFrames.isEmpty { v = max(v, .mismatch) }
        if !r.loadFailures.isEmpty || !r.pluginFailures.isEmpty { v = max(v, .pluginFailed) }
        if !r.breaches.isEmpty { v = max(v, .contractBreach) }
        if !r.errors.isEmpty { v = max(v, .inputError) }
        return v
    }
}
