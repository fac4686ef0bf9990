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
        public var matches: Bool { total == 0 }
        /// How many were found but not listed.
        public var unlisted: Int { total - listed.count }
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
                    }
                }
                for id in byID.keys.sorted() { add("\(frame), view \(id) (\(byID[id]?["name"]?.stringValue ?? ""))", "was not expected") }
            }
        }
        return Report(listed: out, total: out.count + dropped)
    }
}
