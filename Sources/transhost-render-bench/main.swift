// Measures TransHostRender's frame time against two floors: the same layers on pixman's
// projective path and on pixman's affine path. Run: swift run -c release transhost-render-bench
// With --demos, renders the first-party plugins' demo scenarios instead (see DemoBench.swift); with
// --pipeline, times each demo's pictures by stage and peak RSS against length (PipelineBench.swift).
#if canImport(Glibc)
import Glibc
#endif
import TransHostCore
import TransHostRender
import TransHostRenderScenes

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

func peakRSSMiB() -> Double {
    var u = rusage()
    getrusage(RUSAGE_SELF.rawValue, &u)
    return Double(u.ru_maxrss) / 1024
}

func fmt(_ v: Double, _ digits: Int) -> String {
    var p = 1.0
    for _ in 0..<digits { p *= 10 }
    let r = (v * p).rounded() / p
    var s = "\(r)"
    if let dot = s.firstIndex(of: ".") {
        let frac = s[s.index(after: dot)...].count
        if frac < digits { s += String(repeating: "0", count: digits - frac) }
    } else if digits > 0 { s += "." + String(repeating: "0", count: digits) }
    return s
}

func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : String(repeating: " ", count: n - s.count) + s }

/// Mean ms per frame over a sweep of `frames` progress values (after one warm-up sweep that
/// fills the raster caches, as a real transition's first frame does).
func measure(scene: (AnimationEngine) -> (root: View, setProgress: (Double) -> Void), scale: Int, path: CompositePath,
             frames: Int) -> (ms: Double, stats: RenderStats) {
    let e = AnimationEngine()
    let (root, setProgress) = scene(e)
    let r = Renderer(pointSize: DemoScenes.screen, scale: scale)
    r.compositePath = path
    let target = RGBAImage(width: r.pixelWidth, height: r.pixelHeight)
    for k in 0..<frames { setProgress(0.05 + 0.9 * Double(k) / Double(frames - 1)); r.render(e.sampleTree(root), into: target) }
    let before = r.stats
    // Median of sweep times (other processes share the CPU; the median resists their bursts).
    var sweeps: [Double] = []
    let t0 = now()
    repeat {
        let ts = now()
        for k in 0..<frames {
            setProgress(0.05 + 0.9 * Double(k) / Double(frames - 1))
            r.render(e.sampleTree(root), into: target)
        }
        sweeps.append(now() - ts)
    } while now() - t0 < 1.0 || sweeps.count < 5
    sweeps.sort()
    let rounds = sweeps.count
    let median = sweeps[rounds / 2]
    var s = r.stats
    s.frames -= before.frames; s.compositeCalls -= before.compositeCalls; s.affineTiles -= before.affineTiles
    s.projectiveComposites -= before.projectiveComposites; s.compositedPixels -= before.compositedPixels
    s.contentRasterizations -= before.contentRasterizations; s.groupRasterizations -= before.groupRasterizations
    s.cacheHits -= before.cacheHits; s.spanComposites -= before.spanComposites
    return (median * 1000 / Double(frames), s)
}

// Line-buffered even into a pipe: the demo rows take minutes and should be watchable as they come.
setvbuf(stdout, nil, _IOLBF, 0)
if let i = CommandLine.arguments.firstIndex(of: "--rss-child"), i + 1 < CommandLine.arguments.count, let d = Double(CommandLine.arguments[i + 1]) {
    rssChild(duration: d)
    exit(0)
}
if CommandLine.arguments.contains("--pipeline") {
    runPipelineBench()
    exit(0)
}
if let i = CommandLine.arguments.firstIndex(of: "--demos") {
    let args = Array(CommandLine.arguments[(i + 1)...])
    var scales = [2, 3], names: [String] = []
    var k = 0
    while k < args.count {
        if args[k] == "--scale", k + 1 < args.count, let n = Int(args[k + 1]), (1...3).contains(n) { scales = [n]; k += 2; continue }
        if !args[k].hasPrefix("-") { names.append(args[k]) }
        k += 1
    }
    runDemoBench(only: names, oursOnly: args.contains("--ours"), scales: scales)
    exit(0)
}

let frames = 30
print("transhost-render-bench: ms/frame = median over >= 1 s (>= 5 sweeps) of a \(frames)-frame sweep (progress 0.05...0.95), caches warm")
print("screen 320x568 pt. ours: pixman blits/affine bilinear + exact SSE2 perspective spans, group rasters, occlusion.")
print("alt: perspective as affine tiles on pixman's affine path (error < 0.5 px). floors, same layers and group rasters:")
print("  projective = every layer through pixman's projective path (16.16, bilinear); affine = every layer on pixman's")
print("  affine path, perspective layers as ONE affine fit over their box (wrong picture; a cost floor only).")
print("x60Hz-realtime = (1000/60 ms) / ms-per-frame; vs-ours = ms / ours' ms. BENCH_ONLY=scene:path:scale runs one row.")
print("")
print("scene         scale  path               ms/frame      fps  x60Hz-realtime  vs-ours  tiles/frame  Mpx/frame")
let scenes: [(String, (AnimationEngine) -> (root: View, setProgress: (Double) -> Void))] = [
    ("scale+fade", DemoScenes.scaleFade), ("split-modal", DemoScenes.splitModal),
]
for (name, scene) in scenes {
    for scale in [2, 3] {
        var ours = 0.0
        for path in [CompositePath.automatic, .affineTiles, .pixmanProjective, .pixmanAffine] {
            if let only = getenv("BENCH_ONLY").map({ String(cString: $0) }), only != "\(name):\(path.rawValue):\(scale)" { continue }
            let (ms, st) = measure(scene: scene, scale: scale, path: path, frames: frames)
            if path == .automatic { ours = ms }
            let label: String
            switch path {
            case .automatic: label = "ours (automatic)"
            case .affineTiles: label = "alt: affine tiles"
            case .pixmanProjective: label = "floor: projective"
            case .pixmanAffine: label = "floor: affine"
            }
            let fps = 1000 / ms
            let realtime = (1000.0 / 60) / ms
            let ratio = ms / ours
            let tiles = Double(st.affineTiles) / Double(max(st.frames, 1))
            if getenv("BENCH_DEBUG") != nil { print("  spans/frame \(Double(st.spanComposites) / Double(st.frames)) calls/frame \(Double(st.compositeCalls) / Double(st.frames)) projective/frame \(Double(st.projectiveComposites) / Double(st.frames))") }
            let mpx = Double(st.compositedPixels) / Double(max(st.frames, 1)) / 1e6
            var line: String = pad(name, 11) + pad("@\(scale)x", 7)
            line += "  " + label + String(repeating: " ", count: max(0, 17 - label.count))
            line += pad(fmt(ms, 3), 10) + pad(fmt(fps, 1), 9)
            line += pad(fmt(realtime, 2) + "x", 16) + pad(fmt(ratio, 2) + "x", 9)
            line += pad(fmt(tiles, 1), 13) + pad(fmt(mpx, 2), 11)
            print(line)
        }
    }
}
print("")
print("peak RSS: \(fmt(peakRSSMiB(), 1)) MiB (getrusage ru_maxrss)")
