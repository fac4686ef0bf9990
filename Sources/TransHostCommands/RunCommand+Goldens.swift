import TransHostRun
import TransHostScenario
import TransHostSupport

extension RunCommand {
    /// What --expect found, for a person: the trace's verdict, then each frame that differs or
    /// was recorded; matching frames are counted, not listed.
    static func printGoldens(_ g: GoldenReport, comparison: TraceComparison.Report?, quiet: Bool, console: Console) {
        if let c = comparison {
            if c.matches {
                if !quiet { console.out("matches \(g.trace)") }
            } else {
                console.out("MISMATCH against \(g.trace): \(c.total) difference\(c.total == 1 ? "" : "s")")
                if !c.summary.isEmpty {
                    console.out("  by view and field:")
                    for f in c.summary { console.out("    \(f)") }
                    console.out("  in detail:")
                }
                for d in c.listed { console.out("    \(d)") }
                if c.unlisted > 0 { console.out("    ... and \(c.unlisted) more") }
            }
        }
        if let why = g.traceRecorded, !g.rerecorded.contains(g.trace) { console.out("recorded \(g.trace) (\(why))") }
        var matching = 0
        for f in g.frames {
            let which = "transition \(f.transition), frame \(f.frame)"
            switch f.outcome {
            case .matches: matching += 1
            case .recorded(let why): console.out("recorded \(f.golden) (\(why))")
            case .differs(let n, let total, let allowed, let b, let expected, let actual, let diff):
                let where_ = b.count == 4 ? " in x \(b[0]) to \(b[2] - 1), y \(b[1]) to \(b[3] - 1)" : ""
                console.out("FRAME MISMATCH \(which) against \(f.golden): \(n) of \(total) pixels differ (\(percent(n, total)), allowed \(allowed))\(where_)")
                console.out("  expected \(expected)\n  actual   \(actual)\n  diff     \(diff)")
            case .broken(let reason, let actual):
                console.out("FRAME MISMATCH \(which)\(f.golden.isEmpty ? "" : " against \(f.golden)"): \(reason)")
                if let actual { console.out("  actual   \(actual)") }
            }
        }
        if matching > 0 && !quiet { console.out("\(matching) frame\(matching == 1 ? "" : "s") match \(PathUtil.dirname(g.trace))") }
        for p in g.rerecorded { console.out("re-recorded \(p) (--record-mode failed)") }
    }

    static func percent(_ n: Int, _ total: Int) -> String {
        let p = total > 0 ? Double(n) * 100 / Double(total) : 0
        return "\(JSONWriter.format((p * 100).rounded() / 100)) %"
    }

    static func goldensJSON(_ g: GoldenReport) -> JSONValue {
        .object([
            "trace": .string(g.trace),
            "traceRecorded": g.traceRecorded.map(JSONValue.string) ?? .null,
            "rerecorded": .array(g.rerecorded.map(JSONValue.string)),
            "frames": .array(g.frames.map { f in
                var o: [String: JSONValue] = ["golden": .string(f.golden), "transition": .number(Double(f.transition)),
                                              "frame": .number(Double(f.frame))]
                switch f.outcome {
                case .matches(let n, let aa):
                    o["outcome"] = "matches"; o["differing"] = .number(Double(n)); o["antialiased"] = .number(Double(aa))
                case .recorded(let why):
                    o["outcome"] = "recorded"; o["reason"] = .string(why)
                case .differs(let n, let total, let allowed, let b, let expected, let actual, let diff):
                    o["outcome"] = "differs"; o["differing"] = .number(Double(n)); o["pixels"] = .number(Double(total))
                    o["allowed"] = .number(Double(allowed)); o["bounds"] = .array(b.map { .number(Double($0)) })
                    o["expected"] = .string(expected); o["actual"] = .string(actual); o["diff"] = .string(diff)
                case .broken(let reason, let actual):
                    o["outcome"] = "broken"; o["reason"] = .string(reason); o["actual"] = actual.map(JSONValue.string) ?? .null
                }
                return .object(o)
            }),
        ])
    }
}
