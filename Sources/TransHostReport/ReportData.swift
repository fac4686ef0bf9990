import TransHostSupport

/// The report's data as JSON (`transhost-report/1`), embedded in report.html so that
/// `merge-reports` can read a report back: keys sorted, numbers with at most 6 decimals (the
/// same report gives the same bytes). Nothing here is a public format beyond that page.
public enum ReportData {
    public static let format = "transhost-report/1"

    public static func json(_ r: Report) -> JSONValue {
        .object([
            "format": .string(format),
            "title": .string(r.title),
            "shards": .array(r.shards.map { .string($0.description) }),
            "jobs": .array(r.jobs.map(job)),
        ])
    }

    static func strings(_ a: [String]) -> JSONValue { .array(a.map(JSONValue.string)) }
    static func opt(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
    static func ints(_ a: [Int]) -> JSONValue { .array(a.map { .number(Double($0)) }) }

    static func job(_ j: ReportJob) -> JSONValue {
        .object([
            "name": .string(j.name), "dir": .string(j.dir), "scenario": .string(j.scenario), "source": .string(j.source),
            "screen": .string(j.screen), "verdict": .string(j.verdict.rawValue), "failure": opt(j.failure),
            "parameters": strings(j.parameters), "notes": strings(j.notes), "finalStack": .string(j.finalStack),
            "comparison": j.comparison.map { c in
                .object(["golden": .string(c.golden), "matches": .bool(c.matches), "differences": .number(Double(c.differences)),
                         "summary": strings(c.summary), "listed": strings(c.listed)])
            } ?? .null,
            "transitions": .array(j.transitions.map(transition)),
        ])
    }

    static func transition(_ t: ReportTransition) -> JSONValue {
        .object([
            "index": .number(Double(t.index)), "container": .string(t.container), "operation": .string(t.operation),
            "from": .string(t.from), "to": .string(t.to), "animator": opt(t.animator), "interactive": .bool(t.interactive),
            "duration": .number(t.duration), "outcome": .string(t.outcome), "breaches": strings(t.breaches), "repairs": strings(t.repairs),
            "pluginFailure": opt(t.pluginFailure), "route": strings(t.route), "animation": opt(t.animation), "sheet": opt(t.sheet),
            "times": .array(t.times.map(JSONValue.number)),
            "pictures": .array(t.pictures.map { p in
                .object(["frame": .number(Double(p.frame)), "t": .number(p.t), "file": .string(p.file),
                         "crop": p.crop.map(ints) ?? .null, "size": ints(p.size)])
            }),
            "curves": .array(t.curves.map { c in
                .object(["id": .string(c.id), "name": .string(c.name),
                         "series": .object(c.series.mapValues { .array($0.map { $0.map(JSONValue.number) ?? .null }) })])
            }),
            "diffs": .array(t.diffs.map { d in
                .object(["frame": .number(Double(d.frame)), "text": .string(d.text), "expected": opt(d.expected),
                         "actual": opt(d.actual), "diff": opt(d.diff)])
            }),
        ])
    }

    /// The JSON text, safe inside a <script> element: every "<" is written as \u003c, which
    /// any JSON reader turns back into "<".
    public static func scriptText(_ r: Report) -> String { scriptText(r, jobTexts: [:]) }

    /// The same text, with the jobs numbered in `jobTexts` taken from there (each
    /// `jobText` of that job, made ahead: see HTML.PreparedJob).
    static func scriptText(_ r: Report, jobTexts: [Int: String]) -> String {
        guard !jobTexts.isEmpty else { return JSONWriter.write(json(r), pretty: false).replacingAll("<", with: "\\u003c") }
        // json(r)'s members as JSONWriter writes them (keys sorted), its jobs one by one.
        guard case .object(let members) = json(Report(title: r.title, shards: r.shards, jobs: [])) else { return "" }
        var out = JSONWriter.Output()
        out.object(members.keys.sorted(), indent: nil) { out, key, _ in
            guard key == "jobs" else { return out.value(members[key]!, indent: nil) }
            out.array(count: r.jobs.count, indent: nil) { out, k, _ in
                if let text = jobTexts[k] { out.raw(text) } else { out.value(job(r.jobs[k]), indent: nil) }
            }
        }
        return out.string.replacingAll("<", with: "\\u003c")
    }

    /// A job's member of the data's `jobs`, as `scriptText` writes it.
    static func jobText(_ j: ReportJob) -> String { JSONWriter.write(job(j), pretty: false) }

    // MARK: - Reading

    /// Reads a report written by `json`; an error names the file and field.
    public static func read(_ doc: JSONDocument) throws -> Report {
        let o = try doc.top.object()
        let f = try o.required("format").string()
        guard f == format else { throw o.error("format", "is \"\(f)\"; this transhost reads \(format) reports (the report was written by another version)") }
        var shards: [Shard] = []
        for s in try o.required("shards").array() {
            guard case .success(let shard) = Shard.parse(try s.string()) else { throw s.error("expected a shard such as \"1/3\"") }
            shards.append(shard)
        }
        return Report(title: try o.required("title").text(), shards: shards, jobs: try o.required("jobs").array().map(readJob))
    }

    static func texts(_ o: JSONObject, _ key: String) throws -> [String] { try o.required(key).array().map { try $0.text() } }
    static func optText(_ o: JSONObject, _ key: String) throws -> String? { try o[key]?.text() }

    static func readJob(_ f: JSONField) throws -> ReportJob {
        let o = try f.object()
        let v = try o.required("verdict")
        guard let verdict = Verdict(rawValue: try v.string()) else {
            throw v.error("must be one of \(Verdict.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        var j = ReportJob(name: try o.required("name").string(), dir: try o.required("dir").text(), scenario: try o.required("scenario").text(),
                          source: try o.required("source").text(), screen: try o.required("screen").text(), verdict: verdict,
                          failure: try optText(o, "failure"), parameters: try texts(o, "parameters"), notes: try texts(o, "notes"),
                          finalStack: try o.required("finalStack").text())
        if let c = try o["comparison"]?.object() {
            j.comparison = ReportComparison(golden: try c.required("golden").text(), matches: try c.required("matches").bool(),
                                            differences: try c.required("differences").int(in: 0...Int.max >> 8),
                                            summary: try texts(c, "summary"), listed: try texts(c, "listed"))
        }
        j.transitions = try o.required("transitions").array().map(readTransition)
        guard j.dir.isEmpty || j.dir.hasSuffix("/") && PathUtil.staysInside(relative: j.dir) else { throw o.error("dir", "must be a path inside the report's directory") }
        return j
    }

    static func file(_ f: JSONField) throws -> String {
        let s = try f.string()
        guard PathUtil.componentProblem(s) == nil else { throw f.error("must be a file name in the job's directory") }
        return s
    }

    /// `count` whole pixel numbers (a rectangle, a size), each within what an image can have.
    static func pixels(_ f: JSONField, count: Int) throws -> [Int] {
        let a = try f.array()
        guard a.count == count else { throw f.error("expected \(count) numbers of pixels, found \(a.count)") }
        return try a.map { try $0.int(in: 0...(1 << 20)) }
    }

    static func readTransition(_ f: JSONField) throws -> ReportTransition {
        let o = try f.object()
        var t = ReportTransition(index: try o.required("index").int(in: 0...Int(Int32.max)), container: try o.required("container").text(),
                                 operation: try o.required("operation").text(), from: try o.required("from").text(), to: try o.required("to").text(),
                                 animator: try optText(o, "animator"), interactive: try o.required("interactive").bool(),
                                 duration: try o.required("duration").number(), outcome: try o.required("outcome").text(),
                                 breaches: try texts(o, "breaches"), repairs: try texts(o, "repairs"), pluginFailure: try optText(o, "pluginFailure"),
                                 route: try texts(o, "route"), animation: try o["animation"].map(file), sheet: try o["sheet"].map(file))
        t.times = try o.required("times").array().map { try $0.number() }
        t.pictures = try o.required("pictures").array().map { pf in
            let p = try pf.object()
            return ReportPicture(frame: try p.required("frame").int(in: 0...Int(Int32.max)), t: try p.required("t").number(),
                                 file: try file(p.required("file")),
                                 crop: try p["crop"].map { try pixels($0, count: 4) },
                                 size: try pixels(p.required("size"), count: 2))
        }
        t.curves = try o.required("curves").array().map { cf in
            let c = try cf.object()
            var series: [String: [Double?]] = [:]
            for (k, v) in try c.required("series").object().fields {
                guard let a = v.arrayValue else { throw c.error("series", "\(k) must be an array") }
                series[k] = a.map(\.doubleValue)
            }
            return ViewCurves(id: try c.required("id").text(), name: try c.required("name").text(), series: series)
        }
        t.diffs = try o.required("diffs").array().map { df in
            let d = try df.object()
            return FrameDiff(frame: try d.required("frame").int(in: 0...Int(Int32.max)), text: try d.required("text").text(),
                             expected: try d["expected"].map(file), actual: try d["actual"].map(file), diff: try d["diff"].map(file))
        }
        return t
    }
}

extension String {
    /// Every `target` (an ASCII character) replaced, byte by byte: no byte of a longer
    /// character is ASCII.
    func replacingAll(_ target: Character, with replacement: String) -> String {
        guard let t = target.asciiValue else { preconditionFailure("replacingAll takes an ASCII character") }
        guard utf8.contains(t) else { return self }
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count + 64)
        let r = Array(replacement.utf8)
        for b in utf8 { if b == t { out += r } else { out.append(b) } }
        return String(decoding: out, as: UTF8.self)
    }
}
