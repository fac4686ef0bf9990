import Dispatch
#if canImport(Glibc)
import Glibc
#endif
import TransHostCore
import TransHostSupport

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

    public init(baseName: String, label: String, times: [Double], frames: [[PresentationNode]]) {
        self.baseName = baseName; self.label = label; self.times = times; self.frames = frames
    }
}

/// Turns a played scenario into pictures: per transition an animated GIF, a contact sheet and
/// PNG frames at chosen instants. Every file is written atomically, and the same run gives the
/// same bytes.
///
/// - GIF: the trace's frames at up to 50 fps (GIF delays are centiseconds and browsers treat
///   delays under 2 cs as 10 cs); each frame shows the state at the end of its interval, so the
///   first frame after t = 0 opens it and the final state closes it, and the delays add up to the
///   transition's duration (rounding carried). A transition of zero duration gives one frame.
/// - Contact sheet: `sheetFrames` instants evenly spread over the transition (both ends), each
///   labelled with its time.
/// - PNG frames: the instants of `frameSelection`.
public struct RunExporter {
    public struct Options: Sendable {
        public var gif = true
        public var sheet = true
        public var frames = false
        public var frameSelection: [FrameSelector] = [.progress(0), .progress(0.25), .progress(0.5), .progress(0.75), .progress(1)]
        public var sheetFrames = 8
        public var maxGIFFPS = 50
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
    /// on all cores at once; the files and their bytes do not depend on the order.
    public func export(_ sequences: [FrameSequence], pointSize: Size, scale: Int, fps: Int, to dir: String) throws -> [String] {
        guard options.gif || options.sheet || options.frames else { return [] }
        try FileIO.makeDirectories(dir)
        let shared = ConcurrentExport(exporter: self, sequences: sequences)
        DispatchQueue.concurrentPerform(iterations: sequences.count) { n in
            shared.finish(n, Result { try shared.exporter.exportTransition(shared.sequences[n], pointSize: pointSize, scale: scale, fps: fps, to: dir) })
        }
        return try shared.results.flatMap { try $0.get() }
    }

    fileprivate func exportTransition(_ t: FrameSequence, pointSize: Size, scale: Int, fps: Int, to dir: String) throws -> [String] {
        let renderer = Renderer(pointSize: pointSize, scale: scale)
        var files: [String] = []
        do {
            let base = PathUtil.join(dir, t.baseName)
            let times = t.times
            var rendered: [Int: RGBAImage] = [:]
            func image(_ i: Int) -> RGBAImage {
                if let img = rendered[i] { return img }
                let img = renderer.render(t.frames[i])
                rendered[i] = img
                return img
            }
            if options.gif {
                let picks = gifFrames(times, fps: fps)
                var durations: [Double] = []
                for (k, i) in picks.enumerated() { durations.append(times[i] - (k == 0 ? 0 : times[picks[k - 1]])) }
                // Streamed: one reused image, so a long transition never sits in memory whole.
                let target = RGBAImage(width: renderer.pixelWidth, height: renderer.pixelHeight)
                try GIFWriter.write(width: target.width, height: target.height, frameDurations: durations, to: base + ".gif") { k in
                    renderer.render(t.frames[picks[k]], into: target)
                    return target
                }
                files.append(base + ".gif")
            }
            if options.sheet {
                let count = max(2, options.sheetFrames)
                let picks = times.count == 1 ? [0] : (0..<count).map { k in
                    FrameSelector.progress(Double(k) / Double(count - 1)).index(in: times)!
                }
                var seen = Set<Int>()
                let unique = picks.filter { seen.insert($0).inserted }
                try ContactSheet.write(frames: unique.map { (image($0), times[$0]) }, to: base + "-sheet.png")
                files.append(base + "-sheet.png")
            }
            if options.frames {
                var seen = Set<Int>()
                for sel in options.frameSelection {
                    if let problem = sel.problem(in: times) {
                        warningLock.locked { warningHandler?("\(t.label): \(problem)") }
                    }
                    guard let i = sel.index(in: times), seen.insert(i).inserted else { continue }
                    let path = base + "-f\(Self.pad(i))-\(Self.millis(times[i]))ms.png"
                    try PNGWriter.write(image(i), to: path)
                    files.append(path)
                }
            }
        }
        return files
    }

    /// The trace frames a GIF shows: every k-th frame so the rate stays at or under maxGIFFPS,
    /// always ending on the last frame; the t = 0 frame is left out when there are others,
    /// since each frame stands for the end of its interval.
    func gifFrames(_ times: [Double], fps: Int) -> [Int] {
        guard times.count > 1 else { return [0] }
        let step = max(1, (fps + options.maxGIFFPS - 1) / options.maxGIFFPS)
        var picks = Array(stride(from: step, to: times.count - 1, by: step))
        picks.append(times.count - 1)
        return picks
    }

    static func pad(_ i: Int) -> String { let s = String(i); return String(repeating: "0", count: max(0, 3 - s.count)) + s }
    static func millis(_ t: Double) -> String { String(Int((t * 1000).rounded())) }
}

/// What the rendering threads of one export share. Sending it is safe although frames refer to
/// views (classes): rendering only reads the frames and views, each iteration writes only its own
/// result slot, and the count (with the progress call) changes under the lock.
private final class ConcurrentExport: @unchecked Sendable {
    let exporter: RunExporter
    let sequences: [FrameSequence]
    /// One slot per sequence, allocated once: threads write disjoint slots, never the array.
    private let slots: UnsafeMutableBufferPointer<Result<[String], Error>>
    private let lock = RenderLock()
    private var done = 0

    init(exporter: RunExporter, sequences: [FrameSequence]) {
        self.exporter = exporter
        self.sequences = sequences
        slots = .allocate(capacity: sequences.count)
        slots.initialize(repeating: .success([]))
    }

    deinit { slots.deinitialize().deallocate() }

    /// Every sequence's result, in order (call after all iterations finished).
    var results: [Result<[String], Error>] { Array(slots) }

    func finish(_ n: Int, _ r: Result<[String], Error>) {
        slots[n] = r
        lock.locked {
            done += 1
            exporter.progress?(done, sequences.count)
        }
    }
}
