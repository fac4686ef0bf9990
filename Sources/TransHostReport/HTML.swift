import TransHostSupport

/// Writes `report.html`: one self-contained page (inline CSS and script, no network) that
/// links the pictures beside it by relative paths. The page is the same bytes for the same
/// report: nothing in it depends on the clock, the machine or the order files were written.
public enum HTML {
    public static let fileName = "report.html"
    /// Where the page keeps its data (ReportData) for `merge-reports`.
    static let dataOpen = "<script type=\"application/json\" id=\"transhost-report-data\">"
    static let dataClose = "</script>"

    /// One job's part of a page (its section and its data) made ahead, while later jobs are
    /// still being rendered: the gallery's page, written once the last job is drawn, then has
    /// little left to make. `page` takes it for a job equal to `job` at place `number` only.
    public struct PreparedJob: Sendable {
        let job: ReportJob
        let number: Int
        let section: String
        let data: String
    }

    /// The page; a job with a matching part in `prepared` takes it instead of being made again
    /// (the bytes are the same).
    public static func page(_ r: Report, prepared: [PreparedJob] = []) -> String {
        var ready: [Int: PreparedJob] = [:]
        for p in prepared where r.jobs.indices.contains(p.number) && r.jobs[p.number] == p.job { ready[p.number] = p }
        var out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        out += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        out += "<title>\(escape(r.title)) \u{2014} transhost report</title>\n<style>\n\(ReportAssets.css)</style>\n</head>\n<body>\n"
        out += "<header><h1>\(escape(r.title))</h1>\n<p class=\"totals\">\(totals(r))</p></header>\n"
        out += index(r)
        for (j, job) in r.jobs.enumerated() { out += ready[j]?.section ?? section(job, number: j) }
        out += "<pre id=\"selftest-result\" hidden></pre>\n"
        out += dataOpen + ReportData.scriptText(r, jobTexts: ready.mapValues(\.data)) + dataClose + "\n"
        out += "<script>\n\(ReportAssets.script)</script>\n</body>\n</html>\n"
        return out
    }

    /// Writes the page to DIR/report.html atomically; returns its path.
    @discardableResult
    public static func write(_ r: Report, prepared: [PreparedJob] = [], in dir: String) throws -> String {
        let path = PathUtil.join(dir, fileName)
        try FileIO.makeDirectories(dir)
        try FileIO.writeAtomically(path, page(r, prepared: prepared))
        return path
    }

    /// The report a page holds, read back; an error names the file.
    public static func read(_ path: String) throws -> Report {
        let bytes: [UInt8]
        do { bytes = try FileIO.readAll(path) } catch let e as FileIO.Failure {
            throw JSONInputError(file: path, kind: .unreadable, reason: e.reason)
        }
        guard let start = find(Array(dataOpen.utf8), in: bytes, from: 0), let end = find(Array(dataClose.utf8), in: bytes, from: start + dataOpen.utf8.count) else {
            throw JSONInputError(file: path, kind: .unreadable, reason: "it holds no transhost report data; give the output directory of a `transhost run` that rendered pictures (its report.html)")
        }
        return try ReportData.read(try JSONDocument(file: path, bytes: Array(bytes[(start + dataOpen.utf8.count)..<end])))
    }

    static func find(_ needle: [UInt8], in hay: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, hay.count >= needle.count else { return nil }
        var i = from
        while i + needle.count <= hay.count {
            if hay[i] == needle[0] && Array(hay[i..<(i + needle.count)]) == needle { return i }
            i += 1
        }
        return nil
    }

    static func totals(_ r: Report) -> String {
        let n = r.jobs.reduce(0) { $0 + $1.transitions.count }
        var parts = ["\(r.jobs.count) scenario\(r.jobs.count == 1 ? "" : "s")", "\(n) transition\(n == 1 ? "" : "s")"]
        for v in Verdict.allCases {
            let k = r.jobs.filter { $0.verdict == v }.count
            if k > 0 { parts.append("<span class=\"verdict \(v.rawValue)\">\(k) \(v.rawValue)</span>") }
        }
        if !r.shards.isEmpty { parts.append("shard\(r.shards.count == 1 ? "" : "s") \(r.shards.map(\.description).joined(separator: ", "))") }
        return parts.joined(separator: " \u{00B7} ")
    }

    static func index(_ r: Report) -> String {
        var out = "<nav><table class=\"index\">\n<thead><tr><th>scenario</th><th>#</th><th>transition</th><th>from \u{2192} to</th><th>animator</th><th>duration</th><th>outcome</th><th>breaches</th></tr></thead>\n<tbody>\n"
        for (j, job) in r.jobs.enumerated() {
            let rows = max(job.transitions.count, 1)
            out += "<tr class=\"job\"><td rowspan=\"\(rows)\"><a href=\"#j\(j)\">\(escape(job.name))</a> <span class=\"verdict \(job.verdict.rawValue)\">\(job.verdict.rawValue)</span></td>"
            if job.transitions.isEmpty { out += "<td colspan=\"7\">\(escape(job.failure ?? "no transitions"))</td></tr>\n"; continue }
            for (k, t) in job.transitions.enumerated() {
                if k > 0 { out += "<tr>" }
                out += "<td><a href=\"#j\(j)-t\(t.index)\">\(t.index)</a></td><td>\(escape(t.container)) \(escape(t.operation))</td>"
                out += "<td>\(escape(t.from)) \u{2192} \(escape(t.to))</td><td>\(escape(t.animator ?? "default"))</td>"
                out += "<td>\(JSONWriter.format(t.duration)) s</td><td class=\"outcome \(escape(t.outcome))\">\(escape(t.outcome))</td>"
                out += "<td\(t.breaches.isEmpty ? "" : " class=\"breached\"")>\(t.breaches.count)</td></tr>\n"
            }
        }
        return out + "</tbody></table></nav>\n"
    }

    static func list(_ items: [String], cls: String) -> String {
        items.isEmpty ? "" : "<ul class=\"\(cls)\">" + items.map { "<li>\(escape($0))</li>" }.joined() + "</ul>\n"
    }

    static func section(_ job: ReportJob, number j: Int) -> String {
        var out = "<section class=\"job\" id=\"j\(j)\">\n<h2>\(escape(job.name)) <span class=\"verdict \(job.verdict.rawValue)\">\(job.verdict.rawValue)</span></h2>\n"
        out += "<p class=\"meta\">scenario \(escape(job.scenario)) (\(escape(job.source))) on \(escape(job.screen))"
        if !job.finalStack.isEmpty { out += "; final stack \(escape(job.finalStack))" }
        out += "</p>\n"
        if let f = job.failure { out += "<p class=\"failure\">\(escape(f))</p>\n" }
        out += "<p class=\"parameters\">parameters: \(job.parameters.isEmpty ? "none (the plugins' defaults)" : escape(job.parameters.joined(separator: ", ")))</p>\n"
        out += list(job.notes, cls: "notes")
        if let c = job.comparison {
            out += "<div class=\"comparison \(c.matches ? "matches" : "differs")\"><p>\(c.matches ? "trace matches" : "trace MISMATCH: \(c.differences) difference\(c.differences == 1 ? "" : "s") against") \(escape(c.golden))</p>"
            out += list(c.summary, cls: "summary")
            if !c.listed.isEmpty { out += "<details class=\"listed\"><summary>in detail</summary>" + list(c.listed, cls: "listed") + "</details>" }
            out += "</div>\n"
        }
        for t in job.transitions { out += transition(t, job: job, number: j) }
        return out + "</section>\n"
    }

    static func transition(_ t: ReportTransition, job: ReportJob, number j: Int) -> String {
        let d = job.dir
        var out = "<article class=\"transition\" id=\"j\(j)-t\(t.index)\">\n"
        out += "<h3>#\(t.index) \(escape(t.container)) \(escape(t.operation)) \u{00B7} \(escape(t.from)) \u{2192} \(escape(t.to))"
        if t.outcome == "cancelled" { out += " <span class=\"badge cancelled\">CANCELLED</span>" }
        if !t.breaches.isEmpty { out += " <span class=\"badge breach\">BREACH \u{00D7}\(t.breaches.count)</span>" }
        out += "</h3>\n<dl class=\"facts\"><dt>animator</dt><dd>\(escape(t.animator ?? "the host's default transition"))</dd>"
        out += "<dt>duration</dt><dd>\(JSONWriter.format(t.duration)) s\(t.interactive ? ", interactive" : "")</dd><dt>outcome</dt><dd>\(escape(t.outcome))</dd>"
        out += "<dt>frames</dt><dd>\(t.times.count)</dd></dl>\n"
        if let f = t.pluginFailure { out += "<p class=\"failure\">\(escape(f))</p>\n" }
        if !t.breaches.isEmpty { out += "<h4>breaches</h4>" + list(t.breaches, cls: "breaches") }
        if !t.repairs.isEmpty { out += "<h4>repairs by the host</h4>" + list(t.repairs, cls: "repairs") }
        if !t.route.isEmpty { out += "<details class=\"route\"><summary>route explanation</summary><pre>\(escape(t.route.joined(separator: "\n")))</pre></details>\n" }
        out += "<div class=\"media\">\n"
        if let a = t.animation { out += "<figure class=\"animation\"><img src=\"\(escape(d + a))\" alt=\"animation of transition \(t.index)\" width=\"200\"><figcaption><a href=\"\(escape(d + a))\">\(escape(a))</a></figcaption></figure>\n" }
        out += scrubber(t, dir: d)
        out += "</div>\n"
        if let s = t.sheet { out += "<p class=\"sheet\">contact sheet: <a href=\"\(escape(d + s))\">\(escape(s))</a></p>\n" }
        let charts = t.curves.map { c in (c, CurveChart.charts(c, times: t.times)) }.filter { !$0.1.isEmpty }
        if !charts.isEmpty {
            out += "<div class=\"curves\">\n"
            for (c, svgs) in charts {
                out += "<div class=\"view\"><h4>\(escape(c.name)) <span class=\"id\">\(escape(c.id))</span></h4>\(svgs.joined())</div>\n"
            }
            out += "</div>\n"
        }
        for diff in t.diffs { out += diffViewer(diff, dir: d, id: "j\(j)-t\(t.index)-f\(diff.frame)") }
        return out + "</article>\n"
    }

    /// The frames rendered as pictures, one shown at a time; the range input picks which.
    static func scrubber(_ t: ReportTransition, dir: String) -> String {
        guard let first = t.pictures.first else { return "" }
        let data = JSONValue.array(t.pictures.map { p in
            .object(["f": .number(Double(p.frame)), "t": .number(p.t), "src": .string(dir + p.file),
                     "crop": .array((p.crop ?? [0, 0, p.size[0], p.size[1]]).map { .number(Double($0)) }),
                     "size": .array(p.size.map { .number(Double($0)) })])
        })
        var out = "<figure class=\"scrubber\" data-pictures=\"\(escape(JSONWriter.write(data, pretty: false)))\">"
        out += "<div class=\"frame\" data-frame=\"\(first.frame)\" style=\"\(frameStyle(first, dir: dir))\"></div>"
        out += "<input type=\"range\" class=\"scrub\" min=\"0\" max=\"\(t.pictures.count - 1)\" value=\"0\" step=\"1\" aria-label=\"frame\">"
        out += "<figcaption class=\"frame-label\">\(frameLabel(first))</figcaption>"
        if t.pictures.count < t.times.count {
            out += "<p class=\"hint\">\(t.pictures.count) of \(t.times.count) frames were rendered as pictures; run with --frames all for every one</p>"
        }
        out += "</figure>\n"
        return out
    }

    static let frameWidth = 200.0

    /// The CSS that shows one picture in a frameWidth-wide box (the page's script computes the same).
    static func frameStyle(_ p: ReportPicture, dir: String) -> String {
        let c = p.crop ?? [0, 0, p.size[0], p.size[1]]
        let s = frameWidth / Double(max(c[2], 1))
        func px(_ v: Double) -> String { JSONWriter.format((v * 100).rounded() / 100) + "px" }
        return "width:\(px(frameWidth));height:\(px(Double(c[3]) * s));background-image:url('\(escape(dir + p.file))');"
            + "background-size:\(px(Double(p.size[0]) * s)) \(px(Double(p.size[1]) * s));background-position:\(px(-Double(c[0]) * s)) \(px(-Double(c[1]) * s))"
    }

    static func frameLabel(_ p: ReportPicture) -> String { "frame \(p.frame) \u{00B7} \(JSONWriter.format(p.t)) s" }

    static func diffViewer(_ d: FrameDiff, dir: String, id: String) -> String {
        var out = "<div class=\"diffviewer\" id=\"\(id)\" data-mode=\"slider\"><p class=\"failure\">\(escape(d.text))</p>\n"
        guard let e = d.expected, let a = d.actual, let x = d.diff else {
            if let a = d.actual { out += "<img class=\"lone\" src=\"\(escape(dir + a))\" alt=\"actual frame \(d.frame)\" width=\"320\">" }
            return out + "</div>\n"
        }
        out += "<div class=\"modes\">" + ["slider", "diff", "expected", "actual"].map { "<button type=\"button\" data-mode=\"\($0)\">\($0)</button>" }.joined() + "</div>"
        out += "<div class=\"stage\"><img class=\"expected\" src=\"\(escape(dir + e))\" alt=\"expected frame \(d.frame)\">"
        out += "<div class=\"actual-clip\"><img class=\"actual\" src=\"\(escape(dir + a))\" alt=\"actual frame \(d.frame)\"></div>"
        out += "<img class=\"diff\" src=\"\(escape(dir + x))\" alt=\"difference in frame \(d.frame)\"></div>"
        out += "<input type=\"range\" class=\"diff-slider\" min=\"0\" max=\"100\" value=\"50\" aria-label=\"expected | actual\">"
        out += "<p class=\"legend\">left of the line: expected; right: actual \u{00B7} <a href=\"\(escape(dir + e))\">expected</a> <a href=\"\(escape(dir + a))\">actual</a> <a href=\"\(escape(dir + x))\">diff</a></p></div>\n"
        return out
    }

    /// Text for HTML content and quoted attributes.
    static func escape(_ s: String) -> String {
        // By UTF-8 byte: the five are ASCII, and no byte of a longer character is ASCII.
        guard s.utf8.contains(where: { $0 == 0x26 || $0 == 0x3c || $0 == 0x3e || $0 == 0x22 || $0 == 0x27 }) else { return s }
        var out: [UInt8] = []
        out.reserveCapacity(s.utf8.count + 16)
        for b in s.utf8 {
            switch b {
            case 0x26: out += Array("&amp;".utf8)
            case 0x3c: out += Array("&lt;".utf8)
            case 0x3e: out += Array("&gt;".utf8)
            case 0x22: out += Array("&quot;".utf8)
            case 0x27: out += Array("&#39;".utf8)
            default: out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension HTML.PreparedJob {
    /// `job`'s part of a page that shows it as its `number`-th job (from 0).
    public init(_ job: ReportJob, number: Int) {
        self.init(job: job, number: number, section: HTML.section(job, number: number), data: ReportData.jobText(job))
    }
}
