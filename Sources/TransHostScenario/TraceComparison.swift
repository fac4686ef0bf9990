import TransHostSupport

/// Compares a trace with a golden one (`run --expect`), frame by frame, and describes every
/// difference a user would look for: a transition that ran differently (animator, outcome,
/// duration), a frame that is missing, a view that appeared or disappeared, or a value of a view
/// that moved.
public enum TraceComparison {
    public struct Difference: Equatable, CustomStringConvertible {
        /// Where: "transition 0 (navigation push A -> B), frame 5 (t = 0.083333), view v4 (B)".
        public let location: String
        public let detail: String
        public var description: String { location.isEmpty ? detail : "\(location): \(detail)" }
    }

    /// The outcome of a comparison: the first differences, and how many there are in all.
    public struct Report: Equatable {
        /// At most the comparison's limit, in trace order.
        public let listed: [Difference]
        /// Every difference, listed or not.
        public let total: Int
        /// Every differing view field, one entry per transition, view and field, in trace order
        /// (all of them, not only the listed ones): what to read before the details.
        public var summary: [FieldSummary] = []
        public var matches: Bool { total == 0 }
        /// How many were found but not listed.
        public var unlisted: Int { total - listed.count }
    }

    /// One view field that differs over some frames of a transition:
    /// "transition 0 (navigation push A -> B), view v2 (A): transform m11/m22 frames 1–15, max Δ 0.4".
    public struct FieldSummary: Equatable, CustomStringConvertible {
        /// "transition 0 (navigation push A -> B)".
        public let transition: String
        public let viewID: String
        public let viewName: String
        public let field: String
        /// The parts that differ ("m11", "m22"; "x", "y"; empty for a whole value), in order.
        public var components: [String] { indices.sorted().map { Self.componentName(field, $0, count: length) } }
        /// Which elements of an array value differ, and the array's length.
        var indices: Set<Int> = []
        var length = 0
        /// The frame numbers where it differs, increasing.
        public internal(set) var frames: [Int]
        /// The largest numeric difference, nil for values that are not numbers.
        public internal(set) var maxDelta: Double?

        public var description: String {
            let what = components.isEmpty ? field : "\(field) \(components.joined(separator: "/"))"
            let delta = maxDelta.map { ", max \u{0394} \(JSONWriter.format($0))" } ?? ""
            return "\(transition), view \(viewID) (\(viewName)): \(what) \(frames.count == 1 ? "frame" : "frames") \(Self.ranges(frames))\(delta)"
        }

        /// "1–15", "0, 3–5, 9": runs of consecutive numbers.
        static func ranges(_ xs: [Int]) -> String {
            var parts: [String] = []
            var i = 0
            while i < xs.count {
                var j = i
                while j + 1 < xs.count && xs[j + 1] == xs[j] + 1 { j += 1 }
                parts.append(j > i ? "\(xs[i])\u{2013}\(xs[j])" : "\(xs[i])")
                i = j + 1
            }
            return parts.joined(separator: ", ")
        }

        /// What differs between two values of `field`: the parts' names and the largest
        /// numeric difference beyond `tolerance`.
        static func parts(_ a: JSONValue?, _ b: JSONValue?, tolerance: Double) -> (indices: [Int], length: Int, delta: Double?) {
            switch (a, b) {
            case (.number(let x)?, .number(let y)?): return ([], 0, abs(x - y))
            case (.array(let x)?, .array(let y)?) where x.count == y.count:
                var indices: [Int] = [], delta: Double?
                for (i, (p, q)) in zip(x, y).enumerated() {
                    guard case .number(let u) = p, case .number(let v) = q else {
                        if p != q { indices.append(i) }
                        continue
                    }
                    if abs(u - v) > tolerance {
                        indices.append(i)
                        delta = max(delta ?? 0, abs(u - v))
                    }
                }
                return (indices, x.count, delta)
            default: return ([], 0, nil)
            }
        }

        static func componentName(_ field: String, _ i: Int, count: Int) -> String {
            switch (field, count) {
            case ("transform", 16): return "m\(i / 4 + 1)\(i % 4 + 1)"
            case ("bounds", 4), ("frame", 4): return ["x", "y", "width", "height"][i]
            case (_, 2) where i < 2: return ["x", "y"][i]
            default: return "[\(i)]"
            }
        }
    }

    /// The differences between `actual` and `expected`; numbers within `tolerance` are equal.
    /// At most `limit` are listed (the count of the rest is reported in a last entry).
    public static func compare(_ actual: JSONValue, expected: JSONValue, tolerance: Double = 0, limit: Int = 50) -> [Difference] {
        let r = report(actual, expected: expected, tolerance: tolerance, limit: limit)
        return r.unlisted > 0 ? r.listed + [Difference(location: "", detail: "... and \(r.unlisted) more differences")] : r.listed
    }

    /// Compares `actual` with `expected`, listing at most `limit` differences and counting all.
    public static func report(_ actual: JSONValue, expected: JSONValue, tolerance: Double = 0, limit: Int = 50) -> Report {
        var out: [Difference] = []
        var dropped = 0
        var summaries: [FieldSummary] = []
        var summaryIndex: [String: Int] = [:]
        func summarise(_ transition: String, _ frame: Int, _ id: String, _ name: String, _ field: String, _ a: JSONValue?, _ b: JSONValue?) {
            let key = "\(transition)\u{0}\(id)\u{0}\(field)"
            let (indices, length, delta) = FieldSummary.parts(a, b, tolerance: tolerance)
            if summaryIndex[key] == nil {
                summaryIndex[key] = summaries.count
                summaries.append(FieldSummary(transition: transition, viewID: id, viewName: name, field: field, frames: [], maxDelta: nil))
            }
            let k = summaryIndex[key]!
            var s = summaries[k]
            if s.frames.last != frame { s.frames.append(frame) }
            s.indices.formUnion(indices)
            s.length = max(s.length, length)
            if let d = delta { s.maxDelta = max(s.maxDelta ?? 0, d) }
            summaries[k] = s
        }
        func add(_ location: String, _ detail: String) {
            if out.count < limit { out.append(Difference(location: location, detail: detail)) } else { dropped += 1 }
        }
        func text(_ v: JSONValue?) -> String { v.map { JSONWriter.write($0, pretty: false) } ?? "(missing)" }
        func same(_ a: JSONValue?, _ b: JSONValue?) -> Bool {
            switch (a, b) {
            case (.number(let x)?, .number(let y)?): return abs(x - y) <= tolerance
            case (.array(let x)?, .array(let y)?): return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
            case (.object(let x)?, .object(let y)?): return Set(x.keys) == Set(y.keys) && x.keys.allSatisfy { same(x[$0], y[$0]) }
            default: return a == b
            }
        }
        for key in ["format", "scenario", "device", "fps", "final"] where !same(actual[key], expected[key]) {
            add("", "\(key) is \(text(actual[key])), expected \(text(expected[key]))")
        }
        let ta = actual["transitions"]?.arrayValue ?? [], te = expected["transitions"]?.arrayValue ?? []
        if ta.count != te.count { add("", "\(ta.count) transitions, expected \(te.count)") }
        for (i, (a, e)) in zip(ta, te).enumerated() {
            let name = "transition \(i) (\(e["container"]?.stringValue ?? "?") \(e["operation"]?.stringValue ?? "?") \(e["from"]?.stringValue ?? "?") -> \(e["to"]?.stringValue ?? "?"))"
            for key in ["container", "operation", "from", "to", "animator", "interactive", "duration", "outcome", "breaches"] where !same(a[key], e[key]) {
                add(name, "\(key) is \(text(a[key])), expected \(text(e[key]))")
            }
            let fa = a["frames"]?.arrayValue ?? [], fe = e["frames"]?.arrayValue ?? []
            if fa.count != fe.count { add(name, "\(fa.count) frames, expected \(fe.count)") }
            for (k, (f, g)) in zip(fa, fe).enumerated() {
                let frame = "\(name), frame \(k) (t = \(JSONWriter.format(g["t"]?.doubleValue ?? 0)))"
                let va = f["views"]?.arrayValue ?? [], ve = g["views"]?.arrayValue ?? []
                var byID: [String: JSONValue] = [:]
                for v in va { if let id = v["id"]?.stringValue { byID[id] = v } }
                for v in ve {
                    guard let id = v["id"]?.stringValue else { continue }
                    let label = "\(frame), view \(id) (\(v["name"]?.stringValue ?? ""))"
                    guard let w = byID.removeValue(forKey: id) else { add(label, "is missing"); continue }
                    for key in (v.objectValue?.keys.sorted() ?? []) where !same(w[key], v[key]) {
                        add(label, "\(key) is \(text(w[key])), expected \(text(v[key]))")
                        summarise(name, k, id, v["name"]?.stringValue ?? "", key, w[key], v[key])
                    }
                }
                for id in byID.keys.sorted() { add("\(frame), view \(id) (\(byID[id]?["name"]?.stringValue ?? ""))", "was not expected") }
            }
        }
        var report = Report(listed: out, total: out.count + dropped)
        report.summary = summaries
        return report
    }
}
