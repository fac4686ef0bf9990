import TransHostRender
import TransHostScenario
import TransHostSupport

/// What `--expect` does about goldens (`--record-mode`), as snapshot-testing tools name it.
public enum RecordMode: String, Sendable, CaseIterable {
    /// Compare what has a golden; record what has none, and say so (the default).
    case missing
    /// Record every golden afresh; compare nothing.
    case all
    /// Compare only; a golden that is absent is an error, nothing is written (for CI).
    case never
    /// Compare; re-record each golden that differs (the run still fails).
    case failed
}

/// One golden frame checked by `--expect`: a PNG named like `--frames` names them
/// (transition-N-OP-fFFF-MSms.png) in the golden directory.
public struct FrameCheck: Equatable {
    public enum Outcome: Equatable {
        /// Within the tolerance (differing pixels, anti-aliased pixels).
        case matches(differing: Int, antialiased: Int)
        /// More differing pixels than allowed; expected, actual and diff PNGs were written.
        case differs(differing: Int, total: Int, allowed: Int, bounds: [Int], expected: String, actual: String, diff: String)
        /// The golden or this run has no such frame, or the golden cannot be read; `actual`
        /// is this run's frame when there is one.
        case broken(reason: String, actual: String?)
        /// Written as the new golden (because: "no golden yet", "--record-mode all", ...).
        case recorded(because: String)
    }

    /// The golden file (its path).
    public let golden: String
    public let transition: Int
    public let frame: Int
    public let outcome: Outcome

    public var failed: Bool {
        switch outcome {
        case .differs, .broken: return true
        case .matches, .recorded: return false
        }
    }
}

/// The trace and frames `--expect` compared or recorded for one job.
public struct GoldenReport: Equatable {
    /// The golden trace's path.
    public let trace: String
    /// Why the trace was recorded instead of (or after) being compared, or nil.
    public var traceRecorded: String?
    public var frames: [FrameCheck] = []
    /// Goldens re-recorded by `--record-mode failed`.
    public var rerecorded: [String] = []

    public var failedFrames: [FrameCheck] { frames.filter(\.failed) }
}

extension RunSession {
    /// The golden directory of a job (nil when `--expect` names a trace file), as
    /// expectedTracePath places its trace.
    static func goldenDirectory(_ path: String, job: RunJob, jobs: Int) -> String? {
        if FileIO.isDirectory(path) || !FileIO.exists(path) && !path.hasSuffix(".json") {
            return jobs == 1 ? path : PathUtil.join(path, PathUtil.basename(job.outDir))
        }
        return nil
    }

    /// Step 5 with goldens: the trace (compared, or recorded as the mode says), then each frame.
    /// Returns the trace comparison (nil when the trace was recorded, not compared), the
    /// report, and the files written into the output directory (expected/actual/diff PNGs).
    func checkGoldens(_ result: RunResult, of job: RunJob, jobs: Int, _ expect: RunOptions.Expectation)
        throws -> (TraceComparison.Report?, GoldenReport, [String]) {
        let goldenTrace = Self.expectedTracePath(expect.path, job: job, jobs: jobs)
        let writtenTrace = PathUtil.join(job.outDir, "trace.json")
        var report = GoldenReport(trace: goldenTrace)
        var comparison: TraceComparison.Report?
        func record(_ because: String) throws {
            do { try FileIO.writeAtomically(goldenTrace, try FileIO.readAll(writtenTrace)) } catch {
                throw RunError.unwritable(dir: PathUtil.dirname(goldenTrace), reason: "\(error)")
            }
            report.traceRecorded = because
        }
        if expect.recordMode == .all {
            try FileIO.makeDirectories(PathUtil.dirname(goldenTrace))
            try record("--record-mode all")
        } else if FileIO.exists(goldenTrace) {
            let golden = try Self.readTrace(goldenTrace), actual = try Self.readTrace(writtenTrace)
            if let e = golden["fps"]?.doubleValue, let a = actual["fps"]?.doubleValue, e != a {
                throw RunError.fpsDiffers(golden: goldenTrace, expected: Int(e), actual: Int(a))
            }
            let c = TraceComparison.report(actual, expected: golden, tolerance: expect.tolerance)
            comparison = c
            if !c.matches && expect.recordMode == .failed { try record("--record-mode failed"); report.rerecorded.append(goldenTrace) }
        } else if expect.recordMode == .never {
            throw RunError.missingGolden(path: goldenTrace)
        } else {
            try FileIO.makeDirectories(PathUtil.dirname(goldenTrace))
            try record("no golden yet")
        }
        var written: [String] = []
        if expect.pictures, let dir = Self.goldenDirectory(expect.path, job: job, jobs: jobs) {
            written = try checkFrames(result, of: job, goldenDir: dir, expect, into: &report)
        }
        return (comparison, report, written)
    }

    /// A golden frame's file name, split: (transition, operation, frame).
    static func parseFrameName(_ name: String) -> (transition: Int, operation: String, frame: Int)? {
        guard name.hasPrefix("transition-"), name.hasSuffix("ms.png") else { return nil }
        let parts = name.dropFirst("transition-".count).dropLast("ms.png".count).split(separator: "-")
        guard parts.count == 4, let n = Int(parts[0]), parts[2].hasPrefix("f"), let f = Int(parts[2].dropFirst()), Int(parts[3]) != nil
        else { return nil }
        return (n, String(parts[1]), f)
    }

    private func checkFrames(_ result: RunResult, of job: RunJob, goldenDir: String, _ expect: RunOptions.Expectation,
                             into report: inout GoldenReport) throws -> [String] {
        let exporter = RunExporter(options: options.pictures)
        // The frames to check: every golden frame there is, and (unless only comparing) the
        // instants this run would write with --frames, so absent ones are recorded.
        var wanted: [Int: Set<Int>] = [:]
        var goldenNames: [Int: [Int: String]] = [:]
        var checks: [FrameCheck] = []
        for name in ((try? FileIO.list(goldenDir)) ?? []).sorted() {
            guard let (n, op, f) = Self.parseFrameName(name) else { continue }
            let path = PathUtil.join(goldenDir, name)
            guard n < result.transitions.count, result.transitions[n].record.operation.rawValue == op else {
                let now = n < result.transitions.count ? "transition \(n) is a \(result.transitions[n].record.operation.rawValue) in this run"
                    : "this run has \(result.transitions.count) transition\(result.transitions.count == 1 ? "" : "s")"
                checks.append(FrameCheck(golden: path, transition: n, frame: f, outcome: .broken(reason: "the golden is transition \(n) (\(op)), but \(now)", actual: nil)))
                continue
            }
            wanted[n, default: []].insert(f)
            goldenNames[n, default: [:]][f] = path
        }
        if expect.recordMode != .never {
            for t in result.transitions { wanted[t.index, default: []].formUnion(exporter.selectedFrames(t.frames.map(\.t))) }
        }
        var written: [String] = []
        let scale = scale(of: result)
        for t in result.transitions {
            guard let frames = wanted[t.index], !frames.isEmpty else { continue }
            let renderer = Renderer(pointSize: result.scenario.device.size, scale: scale)
            let base = "transition-\(t.index)-\(t.record.operation.rawValue)"
            let target = RGBAImage(width: renderer.pixelWidth, height: renderer.pixelHeight)
            for f in frames.sorted() {
                guard f < t.frames.count else {
                    checks.append(FrameCheck(golden: goldenNames[t.index]?[f] ?? "", transition: t.index, frame: f,
                                             outcome: .broken(reason: "this run's transition has \(t.frames.count) frames (f0 to f\(t.frames.count - 1))", actual: nil)))
                    continue
                }
                let name = PathUtil.basename(RunExporter.frameFileName(base: base, index: f, time: t.frames[f].t))
                let golden = goldenNames[t.index]?[f] ?? PathUtil.join(goldenDir, name)
                renderer.render(t.frames[f].nodes, into: target)
                let check = try checkFrame(target, golden: golden, exists: goldenNames[t.index]?[f] != nil, name: name,
                                           outDir: job.outDir, expect, written: &written)
                if check.failed && expect.recordMode == .failed {
                    try PNGWriter.write(target, to: golden)
                    report.rerecorded.append(golden)
                }
                checks.append(FrameCheck(golden: golden, transition: t.index, frame: f, outcome: check.outcome))
            }
        }
        report.frames = checks.sorted { ($0.transition, $0.frame, $0.golden) < ($1.transition, $1.frame, $1.golden) }
        return written
    }

    private func checkFrame(_ actual: RGBAImage, golden: String, exists: Bool, name: String, outDir: String,
                            _ expect: RunOptions.Expectation, written: inout [String]) throws -> FrameCheck {
        func made(_ o: FrameCheck.Outcome) -> FrameCheck { FrameCheck(golden: golden, transition: 0, frame: 0, outcome: o) }
        let stem = PathUtil.join(outDir, String(name.dropLast(".png".count)))
        func writeActual() throws -> String {
            try PNGWriter.write(actual, to: stem + "-actual.png")
            written.append(stem + "-actual.png")
            return stem + "-actual.png"
        }
        if expect.recordMode == .all || !exists {
            try FileIO.makeDirectories(PathUtil.dirname(golden))
            try PNGWriter.write(actual, to: golden)
            return made(.recorded(because: expect.recordMode == .all ? "--record-mode all" : "no golden yet"))
        }
        let expected: RGBAImage
        do { expected = try PNGReader.read(golden) } catch {
            return made(.broken(reason: "\(error)", actual: try writeActual()))
        }
        let r: PixelComparison.Result
        do { r = try PixelComparison.compare(expected: expected, actual: actual, tolerance: expect.pixels) } catch {
            return made(.broken(reason: "\(error)", actual: try writeActual()))
        }
        guard !r.matches else { return made(.matches(differing: r.differing, antialiased: r.antialiased)) }
        try PNGWriter.write(expected, to: stem + "-expected.png")
        written.append(stem + "-expected.png")
        let actualPath = try writeActual()
        try PNGWriter.write(r.diffImage, to: stem + "-diff.png")
        written.append(stem + "-diff.png")
        let b = r.bounds.map { [$0.x0, $0.y0, $0.x1, $0.y1] } ?? []
        return made(.differs(differing: r.differing, total: r.total, allowed: r.allowed, bounds: b,
                             expected: stem + "-expected.png", actual: actualPath, diff: stem + "-diff.png"))
    }
}
