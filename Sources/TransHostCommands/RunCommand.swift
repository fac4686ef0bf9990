import TransHostCore
import TransHostCoordinators
import TransHostIsolation
import TransHostPluginHost
import TransHostRender
import TransHostScenario
import TransHostSupport
import TransHostDiscovery
import TransHostManifest
import TransHostRouting

enum RunCommand {
    static let help = """
    usage: transhost run [PLUGIN | --scenario FILE] [--out DIR] [--gif] [--sheet] [--frames] [--at LIST]
                         [--trace-only] [--fps N] [--scale 1|2|3] [--device NAME] [--json] [-q]
                         [--plugins DIR]... [--param PLUGIN.NAME=VALUE]... [--rescan] [--no-fork]
                         [--isolation worker|none] [--fail-fast] [--expect PATH [--tolerance X]]

    Plays a scenario through the navigation, tab and modal coordinators, lets the routed plugin
    animators animate on virtual time, prints a summary (each transition, who animated it, its
    duration, the final stack) and writes DIR/trace.json (format transhost-trace/1) and, per
    transition, pictures: DIR/transition-N-OP.gif, DIR/transition-N-OP-sheet.png (a contact sheet)
    and, with --frames, DIR/transition-N-OP-fFFF-MSms.png.

      (no argument)     the gallery: every first-party plugin's demo scenario, each written to
                        DIR/<plugin>/ (DIR defaults to out/)
      PLUGIN            that plugin's demo scenario (demo.json beside its manifest), written to
                        DIR (default out/<plugin>)
      --scenario FILE   a scenario file (docs/scenario.md); `--scenario default` is the built-in
                        A-pushes-B scenario. Written to DIR (default out/<scenario name>)
      --out DIR         output directory, created if missing
      --gif, --sheet, --frames
                        which pictures to write (default: --gif --sheet)
      --at LIST         the instants --frames writes: progress fractions (0,0.25,1), times (250ms,
                        0.25s) or frame numbers (f12); default 0,0.25,0.5,0.75,1; implies --frames
      --trace-only      write only the trace
      --fps N           frames per second of the trace, both ends included (default 60); GIFs use
                        every k-th frame to stay at or under 50 fps
      --scale 1|2|3     pixels per point of the pictures (default: the scenario's device, else 2)
      --device NAME     play on another screen: iphone-4 (320x480), iphone-5 (320x568),
                        iphone-8 (375x667), iphone-12 (390x844), or WxH
      --json            print the summary as JSON on stdout
      --expect PATH     compare each trace with a golden one (a trace file, or a directory holding
                        trace.json, or for the gallery <plugin>/trace.json); print every difference
                        (transition, frame, view, field, both values) and exit 1 on a mismatch
      --tolerance X     numbers within X count as equal for --expect (default 0: exact)
      --param P.N=V     set parameter N of plugin P's configure function (repeatable; see inspect)
      --rescan          ignore the scan cache: inspect and validate every plugin afresh
      --isolation worker|none
                        where plugin code runs. worker (the default): each scenario plays in a
                        child process; a plugin that crashes, hangs (a call that does not return
                        within TRANSHOST_PLUGIN_TIMEOUT seconds, default 5) or exits costs only its
                        own transitions: they are marked plugin-failed in the summary and the
                        trace, the scenario is replayed with the default transition for them,
                        every other output is made, and run exits 3. none: plugins run inside
                        transhost, for a debugger; a plugin that crashes while animating then
                        stops the run (exit 3)
      --fail-fast       stop at the first plugin that crashes, hangs or exits (exit 3), without
                        replaying
      --no-fork         with --isolation none, load a new or changed plugin straight into
                        transhost, without first loading it in a validation child process
                        (default timeout 5 s, TRANSHOST_VALIDATE_TIMEOUT), so that
                        a plugin that crashes then crashes transhost. With workers (the default)
                        the worker is the sandbox and no validation child is needed.

    Exit codes: 0 ok, 1 a trace differs from --expect, 3 a routed plugin failed to load or failed while
    animating (the default transition ran instead),
    4 an animator broke the transition contract (the host recovered), 5 invalid scenario or
    unwritable output.
    """

    /// One scenario to play and where its outputs go.
    struct Job {
        let scenario: Scenario
        let outDir: String
    }

    static func run(_ argv: [String], environment: [String: String], console: Console) throws -> ExitCode {
        let args = try Arguments(argv, valued: PluginOptions.valued.union(["--scenario", "--out", "--fps", "--param", "--scale", "--device", "--at", "--expect", "--tolerance"]).union(IsolationOptions.valued),
                                 flags: PluginOptions.flags.union(["--json", "-q", "--quiet", "--gif", "--sheet", "--frames", "--trace-only"]).union(IsolationOptions.flags))
        guard args.positionals.count <= 1 else { throw UsageError(message: "give at most one plugin name") }
        let quiet = args.flag("-q") || args.flag("--quiet")
        var fps = 60
        if let f = args.value("--fps") {
            guard let n = Int(f), (1...240).contains(n) else { throw UsageError(message: "--fps must be an integer from 1 to 240, got \"\(f)\"") }
            fps = n
        }
        let options = try PluginOptions(args, environment: environment)
        let isolation = try IsolationOptions(args, environment: environment, loadTimeout: options.timeout)
        // In the host, a plugin that crashes while it animates is named, with exit code 3.
        if isolation.mode == .none { PluginCrashGuard.install() }
        // What plugins print goes to stderr, never into stdout (a --json summary, a pipe).
        StandardOutput.keepForHost()
        let scan = try options.scan()
        for w in scan.warnings where !quiet { console.err("warning: \(w)") }

        let exporter = try pictureOptions(args)
        var tolerance = 0.0
        if let t = args.value("--tolerance") {
            guard let x = Double(t), x.isFinite, x >= 0 else { throw UsageError(message: "--tolerance must be a number >= 0, got \"\(t)\"") }
            guard args.value("--expect") != nil else { throw UsageError(message: "--tolerance only applies with --expect") }
            tolerance = x
        }
        var jobs: [Job]
        do { jobs = try plan(args, scan: scan) } catch let e as ScenarioError {
            console.err("transhost run: \(e)")
            return .inputError
        }
        jobs = try jobs.map { Job(scenario: try override($0.scenario, args), outDir: $0.outDir) }
        let loading = try options.loading(args, scan: scan)
        var exit = ExitCode.ok
        var summaries: [JSONValue] = []
        // Every scenario is played before any picture is rendered, in workers or in this process
        // alike: the pictures then see each view as it was at the end of its scenario either way.
        let played = Supervisor.playAll(jobs.map(\.scenario), scan: scan, fps: fps, loading: loading, options: isolation)
        for p in played {
            for w in p.warnings where !quiet { console.err("warning: \(w)") }
            if let f = p.stoppedAt {
                console.err("transhost run: \(f.headline); stopped at the first plugin failure (--fail-fast)")
                return .pluginFailed
            }
        }
        for (job, supervised) in zip(jobs, played) {
            guard let run = supervised.run else {
                console.err("transhost run: \(supervised.error ?? "scenario \(job.scenario.name) could not be played")")
                exit = worse(exit, .pluginFailed)
                continue
            }
            let result = (run: run, loadFailures: supervised.loadFailures)
            let files: [String]
            var progress = exporter
            if !quiet { progress.warningHandler = { console.err("warning: \($0)") } }
            if console.isTTY && !quiet {
                progress.progress = { done, total in
                    let width = 24, filled = total > 0 ? done * width / total : width
                    console.err("\u{1B}[1A\u{1B}[2K[\(String(repeating: "#", count: filled))\(String(repeating: " ", count: width - filled))] \(job.scenario.name): rendered \(done)/\(total) transitions")
                }
                console.err("")
            }
            do { files = try writeOutputs(result.run, to: job.outDir, pictures: progress) } catch {
                console.err("transhost run: cannot write the outputs of \(job.scenario.name) to \(job.outDir): \(error)")
                return .inputError
            }
            if !quiet {
                for l in result.run.logs { console.err(l) }
                for w in result.run.warnings { console.err("warning: \(w)") }
            }
            for b in result.run.breaches { console.err("contract breach: \(b)") }
            if args.flag("--json") {
                summaries.append(summaryJSON(result.run, files: files))
            } else if !quiet {
                console.out(summary(result.run, files: files))
            }
            if let expect = args.value("--expect") {
                let golden = expectedTracePath(expect, job: job, jobs: jobs.count)
                guard FileIO.exists(golden) else {
                    console.err("transhost run: the expected trace \(golden) does not exist; write one with --out and keep it as the golden copy")
                    return .inputError
                }
                // The trace as written (numbers at the contract's 6 decimals) against the golden one.
                let written = try JSONFile.read(PathUtil.join(job.outDir, "trace.json"))
                let differences = TraceComparison.compare(written, expected: try JSONFile.read(golden), tolerance: tolerance)
                if differences.isEmpty {
                    if !quiet && !args.flag("--json") { console.out("matches \(golden)") }
                } else {
                    console.out("MISMATCH against \(golden): \(differences.count) difference\(differences.count == 1 ? "" : "s")")
                    for d in differences { console.out("  \(d)") }
                    exit = worse(exit, .mismatch)
                }
            }
            if !quiet { for f in result.run.pluginFailures { console.err("plugin failure: \(f.message)") } }
            if result.loadFailures > 0 || !result.run.pluginFailures.isEmpty { exit = worse(exit, .pluginFailed) }
            if !result.run.breaches.isEmpty { exit = worse(exit, .contractBreach) }
        }
        if args.flag("--json") { console.out(JSONWriter.write(jobs.count == 1 ? summaries[0] : .object(["runs": .array(summaries)]))) }
        PluginRuntime.shutdown()
        return exit
    }

    /// Exit codes by severity: a plugin that failed to load outranks a contract breach.
    static func worse(_ a: ExitCode, _ b: ExitCode) -> ExitCode {
        let rank: [ExitCode: Int] = [.ok: 0, .mismatch: 1, .contractBreach: 2, .pluginFailed: 3]
        return (rank[b] ?? 0) > (rank[a] ?? 0) ? b : a
    }

    /// What to play: the gallery, one plugin's demo, or a scenario file.
    static func plan(_ args: Arguments, scan: PluginScan) throws -> [Job] {
        let out = args.value("--out")
        if let file = args.value("--scenario") {
            guard args.positionals.isEmpty else { throw UsageError(message: "give a plugin name or --scenario, not both") }
            let scenario = file == "default" ? Scenario.builtInDefault : try Scenario.load(file: file)
            return [Job(scenario: scenario, outDir: out ?? "out/\(scenario.name)")]
        }
        if let name = args.positionals.first {
            guard let record = scan.records.first(where: { $0.name == name }) else { throw PluginHostError.unknownPlugin(name: name) }
            guard let demo = demoPath(record) else {
                throw UsageError(message: "plugin \(name) has no demo scenario (a demo.json beside its manifest); use --scenario FILE")
            }
            return [Job(scenario: try Scenario.load(file: demo), outDir: out ?? "out/\(name)")]
        }
        // The gallery: every first-party plugin with a demo, in registry order.
        let demos = scan.records.filter { $0.source == "first-party" && $0.status == .ok }.compactMap { r in demoPath(r).map { (r.name, $0) } }
        if demos.isEmpty { return [Job(scenario: .builtInDefault, outDir: out ?? "out/\(Scenario.builtInDefault.name)")] }
        return try demos.map { name, path in Job(scenario: try Scenario.load(file: path), outDir: PathUtil.join(out ?? "out", name)) }
    }

    /// The golden trace for a job: PATH itself if it is a file; else PATH/trace.json for one
    /// scenario, or PATH/<output directory name>/trace.json in the gallery.
    static func expectedTracePath(_ path: String, job: Job, jobs: Int) -> String {
        guard FileIO.isDirectory(path) else { return path }
        return jobs == 1 ? PathUtil.join(path, "trace.json") : PathUtil.join(PathUtil.join(path, PathUtil.basename(job.outDir)), "trace.json")
    }

    static func demoPath(_ r: PluginRecord) -> String? {
        guard let manifest = r.manifestPath else { return nil }
        let p = PathUtil.join(PathUtil.dirname(manifest), "demo.json")
        return FileIO.exists(p) ? p : nil
    }

    /// Writes a run's outputs into `dir`: the trace, then the pictures; returns the files written.
    static func writeOutputs(_ run: RunResult, to dir: String, pictures: RunExporter) throws -> [String] {
        let tracePath = PathUtil.join(dir, "trace.json")
        try TraceWriter.write(run, to: tracePath)
        return [tracePath] + (try pictures.export(run, to: dir))
    }

    /// The pictures to write, from --gif/--sheet/--frames/--at/--trace-only/--scale.
    static func pictureOptions(_ args: Arguments) throws -> RunExporter {
        var o = RunExporter.Options()
        let chosen = args.flag("--gif") || args.flag("--sheet") || args.flag("--frames")
        if chosen {
            o.gif = args.flag("--gif")
            o.sheet = args.flag("--sheet")
            o.frames = args.flag("--frames")
        }
        if let at = args.value("--at") {
            do { o.frameSelection = try FrameSelector.parse(list: at) } catch let e as FrameSelector.ParseError {
                throw UsageError(message: e.description)
            }
            o.frames = true
        }
        if args.flag("--trace-only") {
            if chosen || args.value("--at") != nil { throw UsageError(message: "--trace-only cannot be combined with --gif, --sheet, --frames or --at") }
            o.gif = false; o.sheet = false; o.frames = false
        }
        return RunExporter(options: o)
    }

    /// Applies --device and --scale to a scenario; the pictures use the resulting scale.
    static func override(_ scenario: Scenario, _ args: Arguments) throws -> Scenario {
        var s = scenario
        if let name = args.value("--device") {
            guard let d = Device.named(name) else {
                throw UsageError(message: "--device \"\(name)\" is not one of \(Device.named.map(\.name).joined(separator: ", ")) or WxH (points, each at most 4096)")
            }
            s.device = Device(name: d.name, width: d.width, height: d.height, scale: scenario.device.scale)
        }
        if let text = args.value("--scale") {
            guard let n = Int(text), [1, 2, 3].contains(n) else { throw UsageError(message: "--scale must be 1, 2 or 3, got \"\(text)\"") }
            s.device.scale = n
        }
        return s
    }

    static func summary(_ r: RunResult, files: [String]) -> String {
        let d = r.scenario.device
        var lines = ["scenario \(r.scenario.name) (\(r.scenario.source == "built-in" ? "built-in" : PathUtil.basename(PathUtil.dirname(r.scenario.source)) + "/" + PathUtil.basename(r.scenario.source))) on \(d.name) \(JSONWriter.format(d.width))x\(JSONWriter.format(d.height)) @\(d.scale)x, \(r.fps) fps"]
        for t in r.transitions {
            let rec = t.record
            let who = rec.animator.map { "\($0.plugin)/\($0.id)" } ?? "default"
            lines.append("  #\(t.index) \(rec.container.rawValue) \(rec.operation.rawValue) \(rec.fromType) -> \(rec.toType)  \(who)  \(JSONWriter.format(rec.duration)) s  \(rec.outcome.rawValue)  \(t.frames.count) frames\(rec.breaches.isEmpty ? "" : "  \(rec.breaches.count) breach(es)")\(t.pluginFailure?.failedHere == true ? "  plugin-failed" : "")")
            if let note = FailureReport.note(t) { lines.append(note) }
        }
        if r.transitions.isEmpty { lines.append("  no transitions") }
        if !r.finalStack.isEmpty { lines.append("final stack: \(r.finalStack.joined(separator: " > "))") }
        if let sel = r.finalSelected { lines.append("selected tab: \(sel)") }
        if !r.finalPresented.isEmpty { lines.append("presented: \(r.finalPresented.joined(separator: " > "))") }
        for f in files { lines.append("wrote \(f)") }
        return lines.joined(separator: "\n")
    }

    static func summaryJSON(_ r: RunResult, files: [String]) -> JSONValue {
        var o = summaryFields(r, files: files)
        if !r.pluginFailures.isEmpty { o["pluginFailures"] = .array(r.pluginFailures.map(TraceWriter.failure)) }
        if case .array(let ts)? = o["transitions"] {
            o["transitions"] = .array(zip(ts, r.transitions).map { j, t in
                guard var obj = j.objectValue, let n = t.pluginFailure else { return j }
                obj["pluginFailure"] = TraceWriter.failureNote(n)
                return .object(obj)
            })
        }
        return .object(o)
    }

    static func summaryFields(_ r: RunResult, files: [String]) -> [String: JSONValue] {
        [
            "scenario": .string(r.scenario.name),
            "transitions": .array(r.transitions.map { t in
                .object(["index": .number(Double(t.index)), "container": .string(t.record.container.rawValue),
                         "operation": .string(t.record.operation.rawValue), "from": .string(t.record.fromType), "to": .string(t.record.toType),
                         "animator": t.record.animator.map { ["plugin": .string($0.plugin), "id": .string($0.id)] } ?? .null,
                         "duration": .number(t.record.duration), "outcome": .string(t.record.outcome.rawValue),
                         "frames": .number(Double(t.frames.count)), "breaches": .number(Double(t.record.breaches.count))])
            }),
            "final": ["stack": .array(r.finalStack.map(JSONValue.string)), "selected": r.finalSelected.map { .number(Double($0)) } ?? .null,
                      "presented": .array(r.finalPresented.map(JSONValue.string))],
            "files": .array(files.map(JSONValue.string)),
            "warnings": .array(r.warnings.map(JSONValue.string)),
        ]
    }
}
