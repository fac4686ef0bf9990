import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import TransHostCore
import TransHostSupport

/// The file format of a transition's animation: a GIF (a palette per frame, see GIFWriter) or a
/// lossless animated WebP (every colour exact, see WebPWriter). Both show the same frames for
/// the same times.
public enum AnimationFormat: String, Sendable, CaseIterable {
    case gif, webp
}

/// The frames of one transition to turn into pictures: what the renderer needs, and no more.
public struct FrameSequence {
    /// The start of its files' names: "transition-0-push" gives transition-0-push.gif, ...
    public var baseName: String
    /// How messages name it: "transition 0 (push)".
    public var label: String
    /// Seconds from the transition's start, one per frame, increasing.
    public var times: [Double]
    /// The presentation tree at each instant.
    public var frames: [[PresentationNode]]
    /// What its contact sheet's header says (none: thumbnails only).
    public var caption: ContactSheet.Caption?

    public init(baseName: String, label: String, times: [Double], frames: [[PresentationNode]], caption: ContactSheet.Caption? = nil) {
        self.baseName = baseName; self.label = label; self.times = times; self.frames = frames; self.caption = caption
    }
}

/// Turns a played scenario into pictures: per transition an animated GIF, a contact sheet and
/// PNG frames at chosen instants. Every file is written atomically, and the same run gives the
/// same bytes.
///
/// - GIF: the trace's frames at up to 50 fps (GIF delays are centiseconds and browsers treat
///   delays under 2 cs as 10 cs), from the t = 0 frame to the last one; each frame is shown
///   until the next one's time, and the last is held for `lastFrameHold` (0.5 s) before the
///   loop starts again, so a viewer sees the end state. A transition of zero duration gives one
///   frame, shown for the hold.
/// - Contact sheet: `sheetFrames` instants evenly spread over the transition (both ends), each
///   the nearest frame the animation shows, labelled with its time, under a caption naming the
///   transition (ContactSheet.Caption).
/// - PNG frames: the instants of `frameSelection`, or every frame with `allFrames`.
public struct RunExporter {
    public struct Options: Sendable {
        /// Whether to write the animation (`--gif`), in `format`.
        public var gif = true
        /// The animation's file format (`--format`).
        public var format: AnimationFormat = .gif
        public var sheet = true
        public var frames = false
        public var frameSelection: [FrameSelector] = [.progress(0), .progress(0.25), .progress(0.5), .progress(0.75), .progress(1)]
        /// Every frame instead of `frameSelection` (`--frames all`).
        public var allFrames = false
        public var sheetFrames = 8
        public var maxGIFFPS = 50
        /// Seconds the last GIF frame is shown before the animation loops.
        public var lastFrameHold = 0.5
        /// Raster bytes (RasterBudget.estimate) that transitions rendered at the same time may
        /// need together: more transitions run at once while they fit, so a run at @3x renders
        /// one transition at a time and stays within a phone-sized memory, and a run at @2x
        /// uses every core. The first-party demos' transitions are estimated at 16.8-32.7 MiB at
        /// @2x (at 64 MiB the two heaviest took turns, leaving a core idle) and 37.8-73.4 MiB at
        /// @3x (any two are over 72 MiB).
        public var concurrentRasterBytes = 72 << 20
        public init() {}
    }

    public let options: Options
    /// Called after each transition is rendered: (done, total).
    public var progress: ((Int, Int) -> Void)?
    /// Called (possibly from several threads, one at a time) for a --at instant that does not
    /// exist in a transition: a frame number past its last frame, a time past its end.
    public var warningHandler: ((String) -> Void)?
    private let warningLock = RenderLock()

    public init(options: Options) { self.options = options }

    /// Renders every sequence into `dir` on a screen of `pointSize` at `scale` pixels per point,
    /// from frames sampled at `fps`; returns the files written, in order.
    ///
    /// Transitions are independent (each gets its own renderer and files), so they are rendered
    /// on all cores at once as far as `concurrentRasterBytes` allows (see ExportPool); the files
    /// and their bytes do not depend on the order.
    public func export(_ sequences: [FrameSequence], pointSize: Size, scale: Int, fps: Int, to dir: String) throws -> [String] {
        let job = try prepare(sequences, pointSize: pointSize, scale: scale, fps: fps, to: dir)
        let pool = ExportPool(budget: options.concurrentRasterBytes)
        pool.start(job.tasks)
        pool.waitAll()
        return try job.files()
    }

    /// One directory's pictures as pool tasks, for a caller that renders several directories
    /// at once (RunSession): run `tasks` (in an ExportPool), then read `files()`.
    public final class Job: @unchecked Sendable {
        public fileprivate(set) var tasks: [ExportPool.Task] = []
        /// One slot per transition, allocated once: threads write disjoint slots, never an array.
        fileprivate let results: UnsafeMutableBufferPointer<Result<[String], Error>>
        /// The files' syncs and renames, off the rendering threads: a core that would wait for
        /// the disk after each file renders the next transition instead.
        fileprivate let commits = DeferredCommits()
        fileprivate init(count: Int) {
            results = .allocate(capacity: count)
            results.initialize(repeating: .success([]))
        }
        deinit { results.deinitialize().deallocate() }
        /// The files written, in order, once each is in place under its name; throws the first
        /// transition's error (or else the first file that could not take its name). Call after
        /// every task ran.
        public func files() throws -> [String] {
            var late: Error?
            do { try commits.finish() } catch let e as FileIO.Failure {
                late = RenderOutputError.io(path: e.path, reason: e.reason)
            }
            let files = try results.flatMap { try $0.get() }
            if let late { throw late }
            return files
        }

        /// Waits until the files of the tasks that ran are in place (or failed to be), for a
        /// caller that skips `files()`.
        public func settle() { try? commits.finish() }
    }

    /// The tasks that render `sequences` into `dir` (see export), one per transition, each
    /// weighted by the raster memory its worst frame may need. Makes `dir`.
    public func prepare(_ sequences: [FrameSequence], pointSize: Size, scale: Int, fps: Int, to dir: String) throws -> Job {
        let job = Job(count: sequences.count)
        guard options.gif || options.sheet || options.frames else { return job }
        try FileIO.makeDirectories(dir)
        let shared = ConcurrentExport(exporter: self, total: sequences.count)
        let probe = Renderer(pointSize: pointSize, scale: scale)
        let screen = (probe.pixelWidth, probe.pixelHeight)
        // The longest transitions first (by frames, a fair guess of their work): a run's last
        // core to finish then finishes a short one. The files do not depend on the order.
        let order = sequences.indices.sorted { (sequences[$0].frames.count, $1) > (sequences[$1].frames.count, $0) }
        job.tasks = order.map { n in
            let sequence = sequences[n]
            return ExportPool.Task(weight: RasterBudget.estimate(frames: sequence.frames, scale: scale, screen: screen)) {
                // Each task writes only its own slot.
                job.results[n] = Result {
                    try job.commits.deferring { try shared.exporter.exportTransition(sequence, pointSize: pointSize, scale: scale, fps: fps, to: dir) }
                }
                shared.finished()
            }
        }
        return job
    }

    /// One pass over the transition's frames, in order: each frame that a picture needs is
    /// rendered once, into one reused image, and handed to every consumer that wants it (the
    /// animation's encoder, the contact sheet's next cell, a PNG file) before the next one is
    /// drawn. Nothing holds a transition's frames, so memory does not grow with its length.
    fileprivate func exportTransition(_ t: FrameSequence, pointSize: Size, scale: Int, fps: Int, to dir: String) throws -> [String] {
        let renderer = Renderer(pointSize: pointSize, scale: scale)
        // `target` below is only read between frames (by the encoders, the sheet, PNG files).
        renderer.reusesTargetPixels = true
        try RasterBudget.check(frames: t.frames, times: t.times, scale: scale, screen: (renderer.pixelWidth, renderer.pixelHeight), label: t.label)
        let base = PathUtil.join(dir, t.baseName)
        let times = t.times
        // Not cleared: the first frame is drawn whole, and a frame does not depend on what its
        // target held (DamageTests, CullingTests).
        let target = RGBAImage(width: renderer.pixelWidth, height: renderer.pixelHeight, zeroed: false)
        var shown = -1
        /// What the renders since the last GIF frame drew again (outside it, the target still
        /// shows that frame).
        var redrawn = PixelRect.empty
        func image(_ i: Int) -> RGBAImage {
            if shown != i {
                // Every view as in the frame on show draws the same pixels: a transition's held
                // frames (a settled spring, a paused drag) are drawn once.
                if shown < 0 || t.frames[i] != t.frames[shown] {
                    renderer.render(t.frames[i], into: target)
                    redrawn = redrawn.union(renderer.lastDamage)
                }
                shown = i
            }
            return target
        }

        // What each frame is needed for, besides the animation.
        var sheetCells: [Int] = []
        if options.sheet { sheetCells = sheetFrames(times, fps: fps) }
        var pngFrames: [Int] = []
        if options.frames {
            for sel in options.frameSelection where !options.allFrames {
                if let problem = sel.problem(in: times) {
                    warningLock.locked { warningHandler?("\(t.label): \(problem)") }
                }
            }
            pngFrames = selectedFrames(times)
        }
        // PNG files are listed in the selection's order, whatever order they are drawn in.
        let pngPaths = pngFrames.map { Self.frameFileName(base: base, index: $0, time: times[$0]) }
        var pngPending: [Int: [String]] = [:]
        for (i, path) in zip(pngFrames, pngPaths) { pngPending[i, default: []].append(path) }
        let sheet = sheetCells.isEmpty ? nil
            : ContactSheet.Builder(count: sheetCells.count, frameWidth: target.width, frameHeight: target.height, caption: t.caption)
        // The sheet's cells are drawn in order; a cell frame may come before or after a GIF frame.
        var nextCell = 0
        var extras = Set(sheetCells).union(pngPending.keys).sorted()[...]

        /// Hands frame i to the sheet and the PNG files that want it.
        func visitExtras(_ i: Int) throws {
            while nextCell < sheetCells.count && sheetCells[nextCell] == i {
                sheet?.add(image(i), time: times[i])
                nextCell += 1
            }
            if let paths = pngPending.removeValue(forKey: i) {
                for path in paths { try PNGWriter.write(image(i), to: path) }
            }
        }
        /// Every extra frame before frame `limit` (exclusive), in order.
        func drainExtras(before limit: Int) throws {
            while let i = extras.first, i < limit {
                extras.removeFirst()
                try visitExtras(i)
            }
        }

        var files: [String] = []
        if options.gif {
            let picks = gifFrames(times, fps: fps)
            var durations: [Double] = []
            for (k, i) in picks.enumerated() { durations.append(k + 1 < picks.count ? times[picks[k + 1]] - times[i] : options.lastFrameHold) }
            let path = base + "." + options.format.rawValue
            let draw = { (k: Int) throws -> RGBAImage in
                let i = picks[k]
                try drainExtras(before: i)
                let img = image(i)
                if extras.first == i {
                    extras.removeFirst()
                    try visitExtras(i)
                }
                return img
            }
            switch options.format {
            case .gif:
                try GIFWriter.write(width: target.width, height: target.height, frameDurations: durations, to: path,
                                    repeats: { k in t.frames[picks[k]] == t.frames[picks[k - 1]] },
                                    changed: { _ in defer { redrawn = .empty }; return redrawn }, frame: draw)
            case .webp: try WebPWriter.write(width: target.width, height: target.height, frameDurations: durations, to: path, frame: draw)
            }
            files.append(path)
        }
        try drainExtras(before: Int.max)
        if let sheet {
            try PNGWriter.write(sheet.finish(), to: base + "-sheet.png")
            files.append(base + "-sheet.png")
        }
        files += pngPaths
        return files
    }

    /// The trace frames a GIF shows: every k-th frame from t = 0 so the rate stays at or under
    /// maxGIFFPS, always ending on the last frame.
    func gifFrames(_ times: [Double], fps: Int) -> [Int] {
        guard times.count > 1 else { return [0] }
        let step = max(1, (fps + options.maxGIFFPS - 1) / options.maxGIFFPS)
        var picks = Array(stride(from: 0, to: times.count - 1, by: step))
        picks.append(times.count - 1)
        return picks
    }

    /// The frames a contact sheet shows: `sheetFrames` instants evenly spread over the
    /// transition, both ends included, each the nearest of the frames the animation shows
    /// (`gifFrames`; the earlier of two as near), each frame once. Every cell is then a frame
    /// of the GIF or WebP, whether or not one is written. Above 50 fps the animation shows every
    /// k-th frame, and a cell between two of them would be a frame drawn for the sheet alone (at
    /// 60 fps the gallery drew 829 frames, 100 of them only for its sheets, and took about 9%
    /// longer).
    public func sheetFrames(_ times: [Double], fps: Int) -> [Int] {
        guard times.count > 1 else { return times.isEmpty ? [] : [0] }
        let count = max(2, options.sheetFrames)
        let shown = gifFrames(times, fps: fps)
        let shownTimes = shown.map { times[$0] }
        let last = times[times.count - 1]
        var seen = Set<Int>()
        return (0..<count).map { k in shown[FrameSelector.nearest(Double(k) / Double(count - 1) * last, in: shownTimes)] }
            .filter { seen.insert($0).inserted }
    }

    /// The frames `--frames` writes for a transition with frames at `times`: every one with
    /// `allFrames`, else those `frameSelection` names, each once, in the selection's order.
    public func selectedFrames(_ times: [Double]) -> [Int] {
        if options.allFrames { return Array(times.indices) }
        var seen = Set<Int>()
        return options.frameSelection.compactMap { $0.index(in: times) }.filter { seen.insert($0).inserted }
    }

    /// "BASE-f015-250ms.png": a frame's file, by its number and time.
    public static func frameFileName(base: String, index: Int, time: Double) -> String {
        base + "-f\(pad(index))-\(millis(time))ms.png"
    }

    static func pad(_ i: Int) -> String { let s = String(i); return String(repeating: "0", count: max(0, 3 - s.count)) + s }
    static func millis(_ t: Double) -> String { String(Int((t * 1000).rounded())) }
}

/// What the rendering threads of one export share: the exporter, and the count of finished
/// transitions, which (with the progress call) changes under the lock.
private final class ConcurrentExport: @unchecked Sendable {
    let exporter: RunExporter
    private let total: Int
    private let lock = RenderLock()
    private var done = 0

    init(exporter: RunExporter, total: Int) {
        self.exporter = exporter
        self.total = total
    }

    func finished() {
        lock.locked {
            done += 1
            exporter.progress?(done, total)
        }
    }
}
