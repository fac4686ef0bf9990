import TransHostDiscovery
import TransHostIsolation
import TransHostManifest
import TransHostPluginHost
import TransHostRender
import TransHostReport
import TransHostRun
import TransHostScenario
import TransHostSupport

enum RunCommand {
    static let help = """
    usage: transhost run [PLUGIN | --scenario FILE] [--out DIR] [--gif] [--sheet] [--frames [all]] [--at LIST]
                         [--format gif|webp]
                         [--trace-only] [--fps N] [--scale 1|2|3] [--device NAME] [--json] [-q]
                         [--plugins DIR]... [--param PLUGIN.NAME=VALUE]... [--rescan] [--no-fork]
                         [--expect PATH [--tolerance X] [--record-mode MODE] [--threshold X]
                          [--max-diff-pixels N] [--max-diff-ratio R]] [--record DIR]
                         [--isolation worker|none] [--fail-fast] [--shard I/N] [--watch]

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
                        which pictures to write (default: --gif --sheet); `--frames all` writes
                        every frame
      --format gif|webp the animation's format (default gif): webp is lossless (every colour
                        exact), DIR/transition-N-OP.webp
      --at LIST         the instants --frames writes: progress fractions (0,0.25,1), times (250ms,
                        0.25s) or frame numbers (f12); default 0,0.25,0.5,0.75,1; implies --frames
      --trace-only      write only the trace
      --fps N           frames per second of the trace, both ends included (default 60); GIFs use
                        every k-th frame to stay at or under 50 fps
      --scale 1|2|3     pixels per point of the pictures (default: the scenario's device, else 2)
      --device NAME     play on another screen: iphone-4 (320x480), iphone-5 (320x568),
                        iphone-8 (375x667), iphone-12 (390x844), or WxH
      --json            print the summary as JSON on stdout (nothing else; with --expect it
                        holds the comparison: matches, the count of differences, the first 50)
      --expect PATH     compare each trace with a golden one (a trace file, or a directory holding
                        trace.json, or for the gallery <plugin>/trace.json); print every difference
                        (transition, frame, view, field, both values) and exit 1 on a mismatch
      --tolerance X     numbers within X count as equal for --expect (default 0: exact)
                        With a directory, --expect also compares frames: each golden PNG there
                        named like --frames names them, and the instants --at chooses (or every
                        frame with --frames all). A frame that differs writes DIR-of-the-run/
                        transition-N-OP-fFFF-MSms-{expected,actual,diff}.png and exits 1.
      --record-mode M   what --expect does about goldens: missing (default: record what has no
                        golden and say so), all (record every golden afresh), never (compare
                        only; for CI), failed (re-record what differs; still exit 1)
      --threshold X     0..1, the largest perceptual (YIQ) colour distance still equal (default
                        0.1); anti-aliased edge pixels are told apart and not counted
      --max-diff-pixels N, --max-diff-ratio R
                        differing pixels a frame may have (default 0); the larger allowance wins
      --record DIR      write goldens into DIR (the trace and the chosen frames) without
                        comparing: --expect DIR --record-mode all
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
      --watch           after the run, wait for a change to the scenario, a plugin's manifest or
                        library (or a demo.json beside one), print what changed and play again,
                        until Ctrl-C (exit: the last run's code). Not with --isolation none or --json
      --fail-fast       stop at the first plugin that crashes, hangs or exits (exit 3), without
                        replaying
      --no-fork         with --isolation none, load a new or changed plugin straight into
                        transhost, without first loading it in a validation child process
                        (default timeout 5 s, TRANSHOST_VALIDATE_TIMEOUT), so that
                        a plugin that crashes then crashes transhost. With workers (the default)
                        the worker is the sandbox and no validation child is needed.

      --shard I/N       play only the I-th of N parts of the jobs, for spreading a gallery or
                        regression run over CI jobs: the jobs sorted by name (output directory),
                        the k-th (from 0) goes to shard k mod N + 1. Join the parts' outputs with
                        `transhost merge-reports OUT DIR...` (a sharded run always writes
                        its report.html, even with --trace-only or no scenario to play)

    Every run that renders pictures also writes DIR/report.html: one page (no network) with an
    index of the scenarios and transitions (animator, from -> to, duration, outcome, breaches,
    parameters, the route explanation), per transition the animation, a scrubber over the frames
    rendered as pictures (the contact sheet's, and every --frames PNG), curves of each animated
    view's alpha, position, scale and rotation, and for --expect failures an expected/actual/diff
    viewer. The gallery also writes one for all its scenarios, DIR/report.html above theirs.

    The trace records the --param values, plugin log lines, warnings and breaches. DIR/.transhost-outputs
    lists the files a run wrote; the next run into DIR removes exactly those first.

    Exit codes: 0 ok, 1 a trace or frame differs from --expect, 3 a routed plugin failed to load, or a
    plugin's manifest cannot be read (the reason is printed even with -q; the default transition
    ran instead), or a plugin failed while animating (in a worker: its transitions were played with
    the default), 4 an animator broke the transition contract (the host recovered), 5 invalid
    scenario or unwritable output.
    """

    static func run(_ argv: [String], environment: [String: String], console: Console,
                    watched: (([String]) -> Void)? = nil) throws -> ExitCode {
        if watched == nil && argv.prefix(while: { $0 != "--" }).contains("--watch") {
            return try watch(argv.filter { $0 != "--watch" }, environment: environment, console: console)
        }
        let args = try Arguments(argv, valued: PluginOptions.valued.union(["--scenario", "--out", "--fps", "--param", "--scale", "--device", "--at", "--expect", "--tolerance",
                                                                          "--record", "--record-mode", "--threshold", "--max-diff-pixels", "--max-diff-ratio", "--format", "--shard"]).union(IsolationOptions.valued),
                                 flags: PluginOptions.flags.union(["--json", "-q", "--quiet", "--gif", "--sheet", "--frames", "--trace-only"]).union(IsolationOptions.flags),
                                 words: ["--frames": ["all"]])
        guard args.positionals.count <= 1 else { throw UsageError(message: "give at most one plugin name") }
        let quiet = args.flag("-q") || args.flag("--quiet")
        let json = args.flag("--json")
        let plugins = try PluginOptions(args, environment: environment)
        let isolation = try IsolationOptions(args, environment: environment, loadTimeout: plugins.timeout)
        // In the host, a plugin that crashes while it animates is named, with exit code 3.
        if isolation.mode == .none { PluginCrashGuard.install() }
        // What plugins print goes to stderr, never into stdout (a --json summary, a pipe).
        StandardOutput.keepForHost()
        // The first worker loads while the plugins are scanned and the scenarios read.
        let standby = Supervisor.standby(options: isolation)
        let scan = try plugins.scan()
        watched?(inputs(args, scan: scan))
        for w in scan.warnings where !quiet { console.err("warning: \(w)") }
        var options = try runOptions(args, plugins: plugins, scan: scan)
        let planned: [RunJob]
        do { planned = try plan(args, scan: scan) } catch let e as JSONInputError {
            console.err("transhost run: \(e)")
            return .inputError
        }
        let jobs = try shard(planned, args, options: &options, quiet: quiet, console: console)
        // The host has no thread yet: the other scenarios' workers are forked now, not spawned later.
        standby?.prepare(scenarios: jobs.count, options: isolation)
        for job in jobs where options.device != nil || options.scale != nil {
            if let problem = options.sizeProblem(for: job.scenario) { throw UsageError(message: "--device/--scale: \(problem)") }
        }

        let session = RunSession(scan: scan, options: options)
        session.galleryDirectory = galleryRoot(args, planned: planned)
        if isolation.mode == .worker {
            session.player = { scenarios, unroutable, played in
                Supervisor.playAll(scenarios, scan: scan, fps: options.fps, loading: options.loading, unroutable: unroutable,
                                   options: isolation, standby: standby, played: { played($0.outcome) }).map(\.outcome)
            }
        }
        if !quiet { session.renderWarning = { console.err("warning: \($0)") } }
        let line = ProgressLine(console: console, environment: environment, quiet: quiet)
        if let line {
            session.progress = { job, done, total in
                line.render(done: done, total: total, of: job.scenario.name)
                if done == total { line.clear() }
            }
            session.renderWarning = { line.clear(); console.err("warning: \($0)") }
        }
        var exit = ExitCode.ok
        var summaries: [JSONValue] = []
        let reports = session.run(jobs) { report in
            line?.clear()
            let (code, summary) = show(report, quiet: quiet, json: json, console: console, jobs: jobs.count, expect: options.expect)
            exit = worse(exit, code)
            if let summary { summaries.append(summary) }
        }
        exit = worse(exit, writeSharedReport(session, reports, args, planned: planned, quiet: quiet || json, console: console))
        if json && !summaries.isEmpty { console.out(JSONWriter.write(jobs.count == 1 ? summaries[0] : .object(["runs": .array(summaries)]))) }
        return exit
    }

    /// Prints one job's events (each once: load failures even with -q), its summary (text, or
    /// returned as JSON) and its comparison; returns the job's exit code.
    static func show(_ report: JobReport, quiet: Bool, json: Bool, console: Console, jobs: Int,
                     expect: RunOptions.Expectation?) -> (ExitCode, JSONValue?) {
        let r = report.result
        for event in r.events {
            switch event {
            case .loadFailure(_, let m): console.err("error: \(m)")
            case .warning(let m): if !quiet { console.err("warning: \(m)") }
            case .log(let l): if !quiet { console.err(l) }
            case .breach(let b, _): console.err("contract breach: \(b)")
            case .error(let m): console.err("error: \(report.job.scenario.name): \(m)")
            case .pluginFailure(let f): console.err("plugin failure: \(f.message)")
            }
        }
        if let failure = report.failure {
            switch failure {
            case .stopped, .unplayable:
                console.err("transhost run: \(failure)")
                return (.pluginFailed, nil)
            default:
                console.err("transhost run: \(report.job.scenario.name): \(failure)")
                return (.inputError, nil)
            }
        }
        if !json && !quiet { console.out(summary(report)) }
        if let g = report.goldens, !json { printGoldens(g, comparison: report.comparison, quiet: quiet, console: console) }
        return (ExitCode(report.verdict), json ? summaryJSON(report) : nil)
    }

    /// Exit codes by severity: unwritable output outranks everything, then a plugin that failed
    /// to load, then a contract breach, then a mismatch.
    static func worse(_ a: ExitCode, _ b: ExitCode) -> ExitCode {
        let rank: [ExitCode: Int] = [.ok: 0, .mismatch: 1, .contractBreach: 2, .pluginFailed: 3, .inputError: 4]
        return (rank[b] ?? 0) > (rank[a] ?? 0) ? b : a
    }

    /// Every option of `run`, parsed and checked here, once.
    static func runOptions(_ args: Arguments, plugins: PluginOptions, scan: PluginScan) throws -> RunOptions {
        var o = RunOptions()
        if let f = args.value("--fps") {
            guard let n = Int(f), let rate = FrameRate(n) else {
                throw UsageError(message: "--fps must be an integer from \(FrameRate.range.lowerBound) to \(FrameRate.range.upperBound), got \"\(f)\"")
            }
            o.fps = rate
        }
        if let name = args.value("--device") {
            guard let d = Device.named(name) else {
                throw UsageError(message: "--device \"\(name)\" is not one of \(Device.named.map(\.name).joined(separator: ", ")) or WxH (points, each at most 4096)")
            }
            o.device = d
        }
        if let text = args.value("--scale") {
            guard let n = Int(text), let scale = PixelScale(n) else { throw UsageError(message: "--scale must be 1, 2 or 3, got \"\(text)\"") }
            o.scale = scale
        }
        o.pictures = try pictureOptions(args)
        var tolerance = 0.0
        if let t = args.value("--tolerance") {
            guard let x = Double(t), x.isFinite, x >= 0 else { throw UsageError(message: "--tolerance must be a number >= 0, got \"\(t)\"") }
            guard args.value("--expect") != nil else { throw UsageError(message: "--tolerance only applies with --expect") }
            tolerance = x
        }
        o.expect = try expectation(args, tolerance: tolerance)
        o.loading = try plugins.loading(args, scan: scan)
        return o
    }

    /// --expect / --record and their settings.
    static func expectation(_ args: Arguments, tolerance: Double) throws -> RunOptions.Expectation? {
        let record = args.value("--record"), expect = args.value("--expect")
        if record != nil && expect != nil { throw UsageError(message: "give --expect DIR or --record DIR, not both (--record DIR is --expect DIR --record-mode all)") }
        guard let path = record ?? expect else {
            for o in ["--record-mode", "--threshold", "--max-diff-pixels", "--max-diff-ratio"] where args.value(o) != nil {
                throw UsageError(message: "\(o) only applies with --expect")
            }
            return nil
        }
        var e = RunOptions.Expectation(path: path, tolerance: tolerance)
        if let m = args.value("--record-mode") {
            guard let mode = RecordMode(rawValue: m) else {
                throw UsageError(message: "--record-mode must be one of \(RecordMode.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(m)\"")
            }
            guard record == nil || mode == .all else { throw UsageError(message: "--record always records everything; use --expect DIR --record-mode \(m)") }
            e.recordMode = mode
        }
        if record != nil { e.recordMode = .all }
        if let t = args.value("--threshold") {
            guard let x = Double(t), (0...1).contains(x) else { throw UsageError(message: "--threshold must be a number from 0 to 1, got \"\(t)\"") }
            e.pixels.threshold = x
        }
        if let t = args.value("--max-diff-pixels") {
            guard let n = Int(t), n >= 0 else { throw UsageError(message: "--max-diff-pixels must be an integer >= 0, got \"\(t)\"") }
            e.pixels.maxDiffPixels = n
        }
        if let t = args.value("--max-diff-ratio") {
            guard let x = Double(t), (0...1).contains(x) else { throw UsageError(message: "--max-diff-ratio must be a number from 0 to 1, got \"\(t)\"") }
            e.pixels.maxDiffRatio = x
        }
        e.pictures = !args.flag("--trace-only")
        return e
    }

    /// What to play: the gallery, one plugin's demo, or a scenario file.
    static func plan(_ args: Arguments, scan: PluginScan) throws -> [RunJob] {
        let out = args.value("--out")
        if let file = args.value("--scenario") {
            guard args.positionals.isEmpty else { throw UsageError(message: "give a plugin name or --scenario, not both") }
            let scenario = file == "default" ? Scenario.builtInDefault : try Scenario.load(file: file)
            return [RunJob(scenario: scenario, outDir: out ?? "out/\(scenario.name)")]
        }
        if let name = args.positionals.first {
            guard let record = scan.records.first(where: { $0.name == name }) else { throw PluginHostError.unknownPlugin(name: name, installed: scan.records.map(\.name)) }
            guard let demo = demoPath(record) else {
                throw UsageError(message: "plugin \(name) has no demo scenario (a demo.json beside its manifest); use --scenario FILE")
            }
            return [RunJob(scenario: try Scenario.load(file: demo), outDir: out ?? "out/\(name)")]
        }
        // The gallery: every first-party plugin with a demo, in registry order.
        let demos = scan.records.filter { $0.source == "first-party" && $0.status == .ok }.compactMap { r in demoPath(r).map { (r.name, $0) } }
        if demos.isEmpty { return [RunJob(scenario: .builtInDefault, outDir: out ?? "out/\(Scenario.builtInDefault.name)")] }
        return try demos.map { name, path in RunJob(scenario: try Scenario.load(file: path), outDir: PathUtil.join(out ?? "out", name)) }
    }

    static func demoPath(_ r: PluginRecord) -> String? {
        guard let manifest = r.manifestPath else { return nil }
        let p = PathUtil.join(PathUtil.dirname(manifest), "demo.json")
        return FileIO.exists(p) ? p : nil
    }

    /// The pictures to write, from --gif/--sheet/--frames/--at/--trace-only.
    static func pictureOptions(_ args: Arguments) throws -> RunExporter.Options {
        var o = RunExporter.Options()
        let chosen = args.flag("--gif") || args.flag("--sheet") || args.flag("--frames")
        if chosen {
            o.gif = args.flag("--gif")
            o.sheet = args.flag("--sheet")
            o.frames = args.flag("--frames")
            o.allFrames = args.value("--frames") == "all"
        }
        if let f = args.value("--format") {
            guard let format = AnimationFormat(rawValue: f) else {
                throw UsageError(message: "--format must be \(AnimationFormat.allCases.map(\.rawValue).joined(separator: " or ")), got \"\(f)\"")
            }
            o.format = format
        }
        if let at = args.value("--at") {
            if args.value("--frames") == "all" { throw UsageError(message: "--frames all writes every frame; it cannot be combined with --at") }
            do { o.frameSelection = try FrameSelector.parse(list: at) } catch let e as FrameSelector.ParseError {
                throw UsageError(message: e.description)
            }
            o.frames = true
        }
        if args.flag("--trace-only") {
            if chosen || args.value("--at") != nil || args.value("--format") != nil {
                throw UsageError(message: "--trace-only cannot be combined with --gif, --sheet, --frames, --at or --format")
            }
            o.gif = false; o.sheet = false; o.frames = false
        }
        return o
    }

    static func summary(_ report: JobReport) -> String {
        let r = report.result
        let scale = report.scale
        let d = r.scenario.device
        var lines = ["scenario \(r.scenario.name) (\(r.scenario.source == "built-in" ? "built-in" : PathUtil.basename(PathUtil.dirname(r.scenario.source)) + "/" + PathUtil.basename(r.scenario.source))) on \(d.name) \(JSONWriter.format(d.width))x\(JSONWriter.format(d.height)) @\(scale)x, \(r.fps) fps"]
        if !report.parameters.isEmpty { lines.append("parameters: \(parameterText(report.parameters))") }
        for t in r.transitions {
            let rec = t.record
            let who = rec.animator.map { "\($0.plugin)/\($0.id)" } ?? "default"
            let breaches = r.breaches(ofTransition: rec.index).count
            lines.append("  #\(t.index) \(rec.container.rawValue) \(rec.operation.rawValue) \(rec.fromType) -> \(rec.toType)  \(who)  \(JSONWriter.format(rec.duration)) s  \(rec.outcome.rawValue)  \(t.frames.count) frames\(breaches == 0 ? "" : "  \(breaches) breach(es)")\(rec.repairs.isEmpty ? "" : "  \(rec.repairs.count) repair(s) by the host")\(t.pluginFailure?.failedHere == true ? "  plugin-failed" : "")")
            if let note = FailureReport.note(t) { lines.append(note) }
        }
        if r.transitions.isEmpty { lines.append("  no transitions") }
        if !r.finalStack.isEmpty { lines.append("final stack: \(r.finalStack.joined(separator: " > "))") }
        if let sel = r.finalSelected { lines.append("selected tab: \(sel)") }
        if !r.finalPresented.isEmpty { lines.append("presented: \(r.finalPresented.joined(separator: " > "))") }
        if let tree = r.finalTree { lines.append("final tree: \(treeText(tree))") }
        for f in report.files { lines.append("wrote \(f)") }
        return lines.joined(separator: "\n")
    }

    /// The trace's final.tree in one line: `tabs[*mail[inbox > message], settingsNav[settings]]`
    /// (a stack bottom first with `>`, the selected tab starred, `presents` for a presentation).
    static func treeText(_ node: JSONValue) -> String {
        guard let o = node.objectValue else { return "?" }
        var text = o["id"]?.stringValue ?? "?"
        if let stack = o["stack"]?.arrayValue {
            text += "[" + stack.map(treeText).joined(separator: " > ") + "]"
        } else if let tabs = o["tabs"]?.arrayValue {
            let selected = o["selected"]?.doubleValue.map { Int($0) }
            text += "[" + tabs.enumerated().map { ($0.offset == selected ? "*" : "") + treeText($0.element) }.joined(separator: ", ") + "]"
        } else if let children = o["children"]?.arrayValue {
            text += "[" + children.map(treeText).joined(separator: ", ") + "]"
        }
        if let p = o["presented"] { text += " presents \(treeText(p)) (\(p.objectValue?["style"]?.stringValue ?? "fullScreen"))" }
        return text
    }

    /// "fade-scale.duration=0.5, rotate-spring.damping=0.8", sorted.
    static func parameterText(_ p: [String: [String: String]]) -> String {
        p.keys.sorted().flatMap { plugin in p[plugin]!.keys.sorted().map { "\(plugin).\($0)=\(p[plugin]![$0]!)" } }.joined(separator: ", ")
    }

    static func summaryJSON(_ report: JobReport) -> JSONValue {
        let r = report.result
        var o: [String: JSONValue] = [
            "scenario": .string(r.scenario.name),
            "transitions": .array(r.transitions.map { t in
                .object(["index": .number(Double(t.index)), "container": .string(t.record.container.rawValue),
                         "operation": .string(t.record.operation.rawValue), "from": .string(t.record.fromType), "to": .string(t.record.toType),
                         "animator": t.record.animator.map { ["plugin": .string($0.plugin), "id": .string($0.id)] } ?? .null,
                         "duration": .number(t.record.duration), "outcome": .string(t.record.outcome.rawValue),
                         "frames": .number(Double(t.frames.count)), "breaches": .number(Double(r.breaches(ofTransition: t.record.index).count)),
                         "repairs": .number(Double(t.record.repairs.count))]
                        .merging(t.pluginFailure.map { ["pluginFailure": TraceWriter.failureNote($0)] } ?? [:]) { a, _ in a })
            }),
            "final": ["stack": .array(r.finalStack.map(JSONValue.string)), "selected": r.finalSelected.map { .number(Double($0)) } ?? .null,
                      "presented": .array(r.finalPresented.map(JSONValue.string))],
            "files": .array(report.files.map(JSONValue.string)),
            "warnings": .array(r.warnings.map(JSONValue.string)),
        ]
        if let tree = r.finalTree, var final = o["final"]?.objectValue {
            final["tree"] = tree
            o["final"] = .object(final)
        }
        if !r.pluginFailures.isEmpty { o["pluginFailures"] = .array(r.pluginFailures.map(TraceWriter.failure)) }
        if !report.parameters.isEmpty { o["parameters"] = .object(report.parameters.mapValues { .object($0.mapValues(JSONValue.string)) }) }
        if let c = report.comparison {
            o["expect"] = ["matches": .bool(c.matches), "differences": .number(Double(c.total)),
                           "listed": .array(c.listed.map { .string($0.description) }),
                           "summary": .array(c.summary.map { f in
                               .object(["transition": .string(f.transition), "view": .string(f.viewID), "name": .string(f.viewName),
                                        "field": .string(f.field), "components": .array(f.components.map(JSONValue.string)),
                                        "frames": .array(f.frames.map { .number(Double($0)) }),
                                        "maxDelta": f.maxDelta.map(JSONValue.number) ?? .null, "text": .string(f.description)])
                           })]
        }
        if let g = report.goldens { o["goldens"] = goldensJSON(g) }
        return .object(o)
    }
}
