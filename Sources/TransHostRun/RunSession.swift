import TransHostDiscovery
import TransHostPluginHost
import TransHostRender
import TransHostReport
import TransHostScenario
import TransHostSupport

/// One `transhost run`, assembled in one place. Its steps, in order:
/// 1. resolve plugins: the scan's routable plugins, and those whose manifest cannot be read;
/// 2. play every scenario, in order: in this process (`Playback`), or through the `player`,
///    which the command line sets to the supervisor of playback workers;
/// 3. render and 4. write each job's trace and pictures into its directory, replacing what the
///    previous run there wrote (`OutputIndex`). A job's pictures start as soon as its scenario
///    is played, while later ones still play: they depend only on the played result, and no
///    step forks the process (validation children and workers are exec'ed);
/// 5. compare each trace and its golden frames with the goldens, with `--expect`, recording
///    what the record mode says (`checkGoldens`).
/// Plugin deinit runs once at the end, whatever happened before.
public final class RunSession {
    public let scan: PluginScan
    public let options: RunOptions
    private let libraries: PluginLibraries
    /// Called after each transition of a job is rendered: (job, done, total).
    public var progress: ((RunJob, Int, Int) -> Void)?
    /// Called (from rendering threads, one at a time) for a picture instant that does not exist.
    public var renderWarning: ((String) -> Void)?
    /// Plays the scenarios of step 2, in order (--device applied), given the plugins that cannot
    /// be routed, handing each outcome to `played` as soon as it is known (in order) and
    /// returning them all. nil plays them in this process.
    public var player: ((_ scenarios: [Scenario], _ unroutable: [(plugin: String, message: String)],
                         _ played: (PlayOutcome) -> Void) -> [PlayOutcome])?

    /// Where `writeGalleryReport` will write the page over the run's jobs, when that is known
    /// before `run`: each job's part of that page is then made as soon as the job is reported,
    /// while later jobs still render, so that little of it is left once the last is drawn.
    public var galleryDirectory: String?
    private var galleryParts: [HTML.PreparedJob] = []

    public init(scan: PluginScan, options: RunOptions, libraries: PluginLibraries = .process) {
        self.scan = scan
        self.options = options
        self.libraries = libraries
    }

    /// Runs every job, handing each report to `report` as soon as it is complete, and returns
    /// them all. A job whose outputs cannot be written ends the run after its report.
    @discardableResult
    public func run(_ jobs: [RunJob], report: (JobReport) -> Void = { _ in }) -> [JobReport] {
        defer { libraries.shutdown() }
        let unroutable = resolvePlugins()
        // While the first scenario plays, the cores that will render it have nothing to do.
        let pictures = options.pictures
        let warmUp = (pictures.gif || pictures.sheet || pictures.frames) ? jobs.first.map {
            RenderWarmUp.start(pointSize: $0.scenario.device.size, scale: scale(of: $0))
        } : nil
        defer { warmUp?.wait() }
        // Steps 3 and 4 of every played job go to one pool (traces and transitions on every
        // core), each job's as soon as it is played; the jobs are then finished and reported
        // in order, each as soon as its own tasks are done.
        let pool = ExportPool(budget: options.pictures.concurrentRasterBytes)
        pool.open()
        defer { pool.close(); pool.waitAll() }
        var writes: [(task: Range<Int>, write: JobWrite)?] = []
        // Jobs skipped after a failure still had tasks running: their files take their names
        // (or their temporary files go) before the run ends.
        defer {
            pool.waitAll()
            for w in writes { w?.write.pictures?.settle() }
        }
        func render(_ outcome: PlayOutcome) {
            warmUp?.renderingBegins()
            let job = jobs[writes.count]
            guard case .played(let result) = outcome else { writes.append(nil); return }
            let (write, jobTasks) = prepareWrite(result, of: job)
            let first = pool.add(jobTasks)
            writes.append((first..<(first + jobTasks.count), write))
        }
        let played: [PlayOutcome]
        if let player {
            played = player(jobs.map(scenario(of:)), unroutable, render)
        } else {
            played = jobs.map { job in
                let outcome = PlayOutcome.played(play(job, unroutable: unroutable))
                render(outcome)
                return outcome
            }
        }
        pool.close()
        var reports: [JobReport] = []
        // Once the last job's pictures are drawn, their reusable memory is let go of while the
        // reports are written, so that the process's exit has less to free.
        let lastPictures = writes.lastIndex { $0 != nil }
        var release: PictureMemoryRelease?
        defer { release?.wait() }
        for (n, ((job, outcome), pending)) in zip(zip(jobs, played), writes).enumerated() {
            let result: RunResult
            switch outcome {
            case .played(let r): result = r
            case .unplayable(let reason), .stopped(let reason):
                var r = JobReport(job: job, result: RunResult(scenario: scenario(of: job), fps: options.fps.perSecond, transitions: [], finalStack: [],
                                                              finalSelected: nil, finalPresented: [], events: []),
                                  scale: scale(of: job), parameters: options.loading.parameters.texts)
                if case .stopped = outcome { r.failure = .stopped(reason: reason) } else { r.failure = .unplayable(scenario: job.scenario.name, reason: reason) }
                reports.append(r)
                report(r)
                continue
            }
            var r = JobReport(job: job, result: result, scale: scale(of: result), parameters: options.loading.parameters.texts)
            do {
                // The index lists the report before it is written (a listed file that is missing
                // is fine to the next run), so it is written once, not again after the report.
                let report = options.writesReport ? [PathUtil.join(job.outDir, HTML.fileName)] : []
                var listed = false
                if let pending {
                    for i in pending.task { pool.wait(i) }
                    if n == lastPictures { release = PictureMemoryRelease() }
                    r.files = try pending.write.finish(alsoListing: report)
                    listed = true
                }
                if let expect = options.expect {
                    let (comparison, goldens, extra) = try checkGoldens(result, of: job, jobs: jobs.count, expect)
                    r.comparison = comparison
                    r.goldens = goldens
                    if !extra.isEmpty {
                        r.files += extra
                        try OutputIndex.write(r.files + report, in: job.outDir)
                        listed = true
                    }
                }
                if options.writesReport {
                    if !listed { try OutputIndex.write(r.files + report, in: job.outDir) }
                    r.files.append(try HTML.write(htmlReport(of: [r], title: PathUtil.basename(job.outDir), in: job.outDir), in: job.outDir))
                }
            } catch let e as RunError {
                r.failure = e
            } catch {
                r.failure = .unwritable(dir: job.outDir, reason: "\(error)")
            }
            reports.append(r)
            report(r)
            if let dir = galleryDirectory, options.writesReport {
                galleryParts.append(HTML.PreparedJob(htmlReport(of: [r], title: "", in: dir).jobs[0], number: reports.count - 1))
            }
            if case .unwritable? = r.failure {
                // Later jobs are not written: what has not started is skipped.
                pool.cancel()
                break
            }
        }
        return reports
    }

    /// Step 1: plugins whose manifest cannot be read are failures of every run (their routes are
    /// unknown, so any transition might have been theirs); the others are routed by the runtime.
    func resolvePlugins() -> [(plugin: String, message: String)] {
        scan.records.compactMap { r in
            guard r.manifest == nil, case .failed(let reason) = r.status else { return nil }
            return (r.name, "plugin \(r.name) cannot be routed, because its manifest cannot be used: \(reason)")
        }
    }

    /// The HTML report of these jobs for a page in `dir` (each job's files are found relative
    /// to it), marked with the run's shard.
    public func htmlReport(of reports: [JobReport], title: String, in dir: String) -> Report {
        let builder = ReportBuilder(scan: scan, pictures: options.pictures)
        let prefix = dir.hasSuffix("/") ? dir : dir + "/"
        return Report(title: title, shards: options.shard.map { [$0] } ?? [], jobs: reports.map { r in
            let d = r.job.outDir
            let rel = d == dir ? "" : d.hasPrefix(prefix) ? String(d.dropFirst(prefix.count)) + "/" : PathUtil.basename(d) + "/"
            // A job's transitions (route explanations, curves, pictures) are built once: its own
            // page and the gallery's show the same, and the gallery's is built last, alone.
            // (Its own page is listed among its files once written: that does not change them.)
            let key = ReportKey(outDir: d, files: r.files.filter { PathUtil.basename($0) != "report.html" }, verdict: "\(r.verdict)")
            let j = builder.job(r, dir: rel, transitions: reportTransitions[key])
            reportTransitions[key] = j.transitions
            return j
        })
    }

    private struct ReportKey: Hashable { var outDir: String; var files: [String]; var verdict: String }
    private var reportTransitions: [ReportKey: [ReportTransition]] = [:]

    /// Writes the gallery's report.html into `dir` (the parent of its jobs' directories),
    /// replacing what an earlier run left there as the output index says; returns its path.
    public func writeGalleryReport(_ reports: [JobReport], in dir: String) throws -> String {
        do {
            OutputIndex.read(in: dir).removeFiles(in: dir)
            let title = options.shard.map { "gallery, shard \($0)" } ?? "gallery"
            let path = try HTML.write(htmlReport(of: reports, title: title, in: dir), prepared: dir == galleryDirectory ? galleryParts : [], in: dir)
            try OutputIndex.write([path], in: dir)
            return path
        } catch {
            throw RunError.unwritable(dir: dir, reason: "\(error)")
        }
    }

    /// A job's scenario with --device applied.
    func scenario(of job: RunJob) -> Scenario {
        var scenario = job.scenario
        if let d = options.device { scenario.device = Device(name: d.name, width: d.width, height: d.height, scale: scenario.device.scale) }
        return scenario
    }

    /// Step 2: one scenario, in this process.
    func play(_ job: RunJob, unroutable: [(plugin: String, message: String)]) -> RunResult {
        Playback.play(scenario(of: job), scan: scan, fps: options.fps, loading: options.loading, libraries: libraries,
                      failures: unroutable).run
    }

    /// The pictures' scale for a played scenario: --scale, else its device's.
    func scale(of result: RunResult) -> Int { options.scale?.value ?? result.scenario.device.scale }
    func scale(of job: RunJob) -> Int { options.scale?.value ?? job.scenario.device.scale }

    /// Steps 3 and 4 of one job, as tasks for the run's pool: its trace, then its pictures; the
    /// returned JobWrite then writes the index of what was written. The previous run's files in
    /// the job's directory are removed first, here, before any task runs.
    func prepareWrite(_ result: RunResult, of job: RunJob) -> (JobWrite, [ExportPool.Task]) {
        let dir = job.outDir
        OutputIndex.read(in: dir).removeFiles(in: dir)
        let write = JobWrite(dir: dir, tracePath: PathUtil.join(dir, "trace.json"))
        let scale = scale(of: result)
        let settings = TraceWriter.Settings(scale: scale, parameters: options.loading.parameters.texts)
        var exporter = RunExporter(options: options.pictures)
        exporter.warningHandler = renderWarning
        if let progress { exporter.progress = { progress(job, $0, $1) } }
        let sequences = result.transitions.map { t in
            FrameSequence(baseName: "transition-\(t.index)-\(t.record.operation.rawValue)",
                          label: "transition \(t.index) (\(t.record.operation.rawValue))",
                          times: t.frames.map(\.t), frames: t.frames.map(\.nodes), caption: ContactSheet.Caption(t.record))
        }
        do {
            write.pictures = try exporter.prepare(sequences, pointSize: result.scenario.device.size, scale: scale, fps: result.fps, to: dir)
        } catch {
            write.trace = .failure(error)
            return (write, [])
        }
        // Beside the cores' workers: writing a trace is short and then waits for the disk, and
        // the transitions' pictures, which take longer, start at once on every core.
        let trace = ExportPool.Task(weight: 0, beside: true) {
            write.trace = Result { try TraceWriter.write(result, settings: settings, to: write.tracePath) }
        }
        return (write, [trace] + (write.pictures?.tasks ?? []))
    }

    /// A job's steps 3 and 4 while the pool runs them: each task writes only its own field.
    final class JobWrite: @unchecked Sendable {
        let dir: String
        let tracePath: String
        var trace: Result<Void, Error> = .success(())
        var pictures: RunExporter.Job?

        init(dir: String, tracePath: String) { self.dir = dir; self.tracePath = tracePath }

        /// The files written, trace first, once the job's tasks have run; writes their index,
        /// which also lists `later` (files still to be written, such as the job's report).
        func finish(alsoListing later: [String] = []) throws -> [String] {
            try trace.get()
            let files = [tracePath] + (try pictures?.files() ?? [])
            try OutputIndex.write(files + later, in: dir)
            return files
        }
    }

    /// The golden trace for a job: PATH itself if it is a file (or a missing *.json); else
    /// PATH/trace.json for one scenario, or PATH/<output directory name>/trace.json in the
    /// gallery. Step 5 (`checkGoldens`) compares or records it, and the golden frames beside it.
    public static func expectedTracePath(_ path: String, job: RunJob, jobs: Int) -> String {
        guard goldenDirectory(path, job: job, jobs: jobs) != nil else { return path }
        return jobs == 1 ? PathUtil.join(path, "trace.json") : PathUtil.join(PathUtil.join(path, PathUtil.basename(job.outDir)), "trace.json")
    }

    /// Traces of long scenarios are large; this bounds what `--expect` reads.
    static let traceSizeLimit = 512 << 20

    static func readTrace(_ path: String) throws -> JSONValue {
        do { return try JSONDocument.read(path, sizeLimit: traceSizeLimit).root } catch let e as JSONInputError {
            throw RunError.unreadableTrace(path: path, reason: "\(e.line.map { "line \($0), column \(e.column ?? 1): " } ?? "")\(e.reason)")
        }
    }
}

/// What one job of a run produced.
public struct JobReport {
    public let job: RunJob
    public let result: RunResult
    /// The pictures' scale (pixels per point), as the trace records it.
    public let scale: Int
    /// The --param values the plugins were configured with, by plugin and name.
    public let parameters: [String: [String: String]]
    /// The files written, trace first.
    public var files: [String] = []
    /// The comparison with the golden trace (with --expect); nil when it was recorded instead.
    public var comparison: TraceComparison.Report?
    /// What --expect compared or recorded: the trace and the golden frames.
    public var goldens: GoldenReport?
    /// Why the job's outputs could not be written or compared.
    public var failure: RunError?

    init(job: RunJob, result: RunResult, scale: Int, parameters: [String: [String: String]]) {
        self.job = job; self.result = result; self.scale = scale; self.parameters = parameters
    }
}

/// A job that could not finish its outputs; each message names the file and says what to do.
public enum RunError: Error, Equatable, CustomStringConvertible {
    case unwritable(dir: String, reason: String)
    /// The scenario could not be played (a worker that could not start, ...); nothing was written.
    case unplayable(scenario: String, reason: String)
    /// --fail-fast stopped the run at this plugin failure; nothing more was played or written.
    case stopped(reason: String)
    case missingGolden(path: String)
    case unreadableTrace(path: String, reason: String)
    /// The golden was recorded at another frame rate: its frames are other instants.
    case fpsDiffers(golden: String, expected: Int, actual: Int)

    public var description: String {
        switch self {
        case .unwritable(let dir, let reason): return "cannot write the outputs to \(dir): \(reason)"
        case .unplayable(let scenario, let reason): return "scenario \(scenario) could not be played: \(reason)"
        case .stopped(let reason): return "\(reason); stopped at the first plugin failure (--fail-fast)"
        case .missingGolden(let path): return "the expected trace \(path) does not exist; record goldens with --record DIR, or drop --record-mode never so --expect records what is missing"
        case .unreadableTrace(let path, let reason): return "cannot read the trace \(path): \(reason)"
        case .fpsDiffers(let golden, let expected, let actual):
            return "the golden trace \(golden) was recorded at \(expected) fps and this run plays at \(actual) fps, so their frames are different instants and cannot be compared; run with --fps \(expected), or record the golden again (--record-mode all)"
        }
    }
}

/// How the player of step 2 played one scenario.
public enum PlayOutcome {
    case played(RunResult)
    /// It could not be played; the sentence says why.
    case unplayable(String)
    /// Playing stopped at a plugin failure (--fail-fast): the sentence names it, and nothing
    /// after it is played (the player returns no outcome for later scenarios).
    case stopped(String)
}
