import TransHostCore
import TransHostCoordinators
import TransHostPluginHost
import TransHostScenario
import TransHostSupport

enum RunCommand {
    static let help = """
    usage: transhost run [--scenario FILE] [--out DIR] [--fps N] [--json] [--plugins DIR]... [-q]
                         [--param PLUGIN.NAME=VALUE]... [--rescan] [--no-fork]

    Plays a scenario through the navigation, tab and modal coordinators, lets the routed plugin
    animators animate on virtual time, prints a summary (each transition, who animated it, its
    duration, the final stack) and writes DIR/trace.json (format transhost-trace/1).

    With no --scenario, plays the built-in default: A pushes B, then B pops back.

      --scenario FILE   a scenario file (docs/scenario.md)
      --out DIR         output directory, created if missing (default: out/<scenario name>)
      --fps N           frames per second of the trace, both ends included (default 60)
      --json            print the summary as JSON on stdout
      --param P.N=V     set parameter N of plugin P's configure function (repeatable; see inspect)
      --rescan          ignore the scan cache: inspect and validate every plugin afresh
      --no-fork         load a new or changed plugin straight into transhost, without first
                        loading it in a child process (default timeout 5 s,
                        TRANSHOST_VALIDATE_TIMEOUT); a plugin that crashes then crashes transhost

    Exit codes: 0 ok, 3 a routed plugin failed to load (the default transition ran instead),
    4 an animator broke the transition contract (the host recovered), 5 invalid scenario.
    """

    static func run(_ argv: [String], environment: [String: String], console: Console) throws -> ExitCode {
        let args = try Arguments(argv, valued: PluginOptions.valued.union(["--scenario", "--out", "--fps", "--param"]),
                                 flags: PluginOptions.flags.union(["--json", "-q", "--quiet"]))
        if let extra = args.positionals.first { throw UsageError(message: "unexpected argument \"\(extra)\"") }
        let quiet = args.flag("-q") || args.flag("--quiet")
        var fps = 60
        if let f = args.value("--fps") {
            guard let n = Int(f), (1...240).contains(n) else { throw UsageError(message: "--fps must be an integer from 1 to 240, got \"\(f)\"") }
            fps = n
        }
        let scenario: Scenario
        if let file = args.value("--scenario") {
            do { scenario = try Scenario.load(file: file) } catch let e as ScenarioError {
                console.err("transhost run: \(e)")
                return .inputError
            }
        } else {
            scenario = Scenario.builtInDefault
        }
        let outDir = args.value("--out") ?? "out/\(scenario.name)"
        let options = try PluginOptions(args, environment: environment)
        let scan = try options.scan()
        for w in scan.warnings where !quiet { console.err("warning: \(w)") }

        let result = Playback.play(scenario, scan: scan, fps: fps, loading: try options.loading(args, scan: scan))
        let tracePath = PathUtil.join(outDir, "trace.json")
        do { try TraceWriter.write(result.run, to: tracePath) } catch {
            console.err("transhost run: cannot write \(tracePath): \(error)")
            return .inputError
        }
        if !quiet { for w in result.run.warnings { console.err("warning: \(w)") } }
        for b in result.run.breaches { console.err("contract breach: \(b)") }
        if args.flag("--json") {
            console.out(JSONWriter.write(summaryJSON(result.run, files: [tracePath])))
        } else if !quiet {
            console.out(summary(result.run, files: [tracePath]))
        }
        if result.loadFailures > 0 { return .pluginFailed }
        if !result.run.breaches.isEmpty { return .contractBreach }
        return .ok
    }

    static func summary(_ r: RunResult, files: [String]) -> String {
        let d = r.scenario.device
        var lines = ["scenario \(r.scenario.name) (\(r.scenario.source)) on \(d.name) \(JSONWriter.format(d.width))x\(JSONWriter.format(d.height)) @\(d.scale)x, \(r.fps) fps"]
        for t in r.transitions {
            let rec = t.record
            let who = rec.animator.map { "\($0.plugin)/\($0.id)" } ?? "default"
            lines.append("  #\(t.index) \(rec.container.rawValue) \(rec.operation.rawValue) \(rec.fromType) -> \(rec.toType)  \(who)  \(JSONWriter.format(rec.duration)) s  \(rec.outcome.rawValue)  \(t.frames.count) frames\(rec.breaches.isEmpty ? "" : "  \(rec.breaches.count) breach(es)")")
        }
        if r.transitions.isEmpty { lines.append("  no transitions") }
        lines.append("final stack: \(r.finalStack.isEmpty ? "(none)" : r.finalStack.joined(separator: " > "))")
        for f in files { lines.append("wrote \(f)") }
        return lines.joined(separator: "\n")
    }

    static func summaryJSON(_ r: RunResult, files: [String]) -> JSONValue {
        .object([
            "scenario": .string(r.scenario.name),
            "transitions": .array(r.transitions.map { t in
                .object(["index": .number(Double(t.index)), "container": .string(t.record.container.rawValue),
                         "operation": .string(t.record.operation.rawValue), "from": .string(t.record.fromType), "to": .string(t.record.toType),
                         "animator": t.record.animator.map { ["plugin": .string($0.plugin), "id": .string($0.id)] } ?? .null,
                         "duration": .number(t.record.duration), "outcome": .string(t.record.outcome.rawValue),
                         "frames": .number(Double(t.frames.count)), "breaches": .number(Double(t.record.breaches.count))])
            }),
            "final": ["stack": .array(r.finalStack.map(JSONValue.string))],
            "files": .array(files.map(JSONValue.string)),
            "warnings": .array(r.warnings.map(JSONValue.string)),
        ])
    }
}
