// --pipeline: what `transhost run` does for the pictures of each first-party demo, split by
// stage, beside floors measured in the same run; then peak RSS of a 1 s and a 10 s transition
// rendered at @3x (each in a child process of this benchmark).
//   TRANSHOST_CONFIG=release ./scripts/setup && .build/release/transhost-render-bench --pipeline
// BENCH_WHOLE=1 draws every frame whole instead of only what changed since the frame before.
#if canImport(Glibc)
import Glibc
#endif
import CGif
import TransHostCore
import TransHostDiscovery
import TransHostPluginHost
import TransHostRender
import TransHostRenderScenes
import TransHostRun
import TransHostScenario
import TransHostSupport

/// Seconds per stage, summed over transitions.
struct Stages {
    var play = 0.0, trace = 0.0, rasterise = 0.0, composite = 0.0, quantise = 0.0, encode = 0.0
    var sheet = 0.0, png = 0.0, write = 0.0
    var floorComposite = 0.0, floorEncode = 0.0
    /// Target pixels drawn again (the damage), and the pixels of the frames rendered.
    var drawnPixels = 0, framePixels = 0
    var pictures: Double { rasterise + composite + quantise + encode + sheet + png + write }
    static func += (a: inout Stages, b: Stages) {
        a.play += b.play; a.trace += b.trace; a.rasterise += b.rasterise; a.composite += b.composite
        a.quantise += b.quantise; a.encode += b.encode; a.sheet += b.sheet; a.png += b.png; a.write += b.write
        a.floorComposite += b.floorComposite; a.floorEncode += b.floorEncode
        a.drawnPixels += b.drawnPixels; a.framePixels += b.framePixels
    }
}

func seconds(_ ns: UInt64) -> Double { Double(ns) / 1e9 }

/// The pictures of one transition as RunExporter makes them (the GIF's frames, then the sheet's),
/// with each stage timed. The floor composites the same GIF frames a second time through the
/// same renderer, whose rasters are then warm (content is drawn again only where a raster was
/// dropped as unused), and has giflib's encoder write the same frames (the GIF decoded, then
/// written again to memory by EGifSpew: the same indices, palettes and rectangles).
func timeTransition(_ t: TransitionTrace, device: Device, scale: Int, fps: Int, dir: String) throws -> Stages {
    var s = Stages()
    let times = t.frames.map(\.t), frames = t.frames.map(\.nodes)
    let renderer = Renderer(pointSize: device.size, scale: scale)
    renderer.timesRasterization = true
    // As RunExporter's: only what changed is drawn again (BENCH_WHOLE=1: every frame whole).
    renderer.reusesTargetPixels = getenv("BENCH_WHOLE") == nil
    let target = RGBAImage(width: renderer.pixelWidth, height: renderer.pixelHeight)
    let step = max(1, (fps + 49) / 50)
    var picks = times.count > 1 ? Array(stride(from: 0, to: times.count - 1, by: step)) : []
    picks.append(times.count - 1)
    var durations: [Double] = []
    for (k, i) in picks.enumerated() { durations.append(k + 1 < picks.count ? times[picks[k + 1]] - times[i] : 0.5) }
    var renderNS: UInt64 = 0
    let gifTimes = GIFWriter.StageTimes()
    let g0 = StageClock.nanoseconds()
    // Each GIF frame is one render here, so what it redrew is what changed since the last.
    // One thread, so that the stages add up to the time taken.
    try GIFWriter.write(width: target.width, height: target.height, frameDurations: durations, to: dir + "/bench.gif", times: gifTimes,
                        changed: { _ in renderer.lastDamage }, pipelined: false) { k in
        let r0 = StageClock.nanoseconds()
        renderer.render(frames[picks[k]], into: target)
        renderNS += StageClock.nanoseconds() - r0
        return target
    }
    let gifTotal = StageClock.nanoseconds() - g0
    s.drawnPixels = renderer.stats.damagedPixels
    s.quantise = seconds(gifTimes.quantiseNanoseconds)
    s.encode = seconds(gifTimes.encodeNanoseconds)
    s.write = seconds(gifTotal - renderNS - gifTimes.quantiseNanoseconds - gifTimes.encodeNanoseconds)
    let f0 = StageClock.nanoseconds()
    let floorDrawn0 = renderer.stats.damagedPixels
    for i in picks { renderer.render(frames[i], into: target) }
    let floorDrawn = renderer.stats.damagedPixels - floorDrawn0
    s.floorComposite = seconds(StageClock.nanoseconds() - f0)
    s.floorEncode = giflibEncodeSeconds(dir + "/bench.gif")
    // The sheet: 8 instants over the transition, each drawn into its cell as it is rendered.
    let cells: [Int] = times.count == 1 ? [0] : {
        var seen = Set<Int>()
        return (0..<8).map { FrameSelector.progress(Double($0) / 7).index(in: times)! }.filter { seen.insert($0).inserted }
    }()
    let builder = ContactSheet.Builder(count: cells.count, frameWidth: target.width, frameHeight: target.height, caption: ContactSheet.Caption(t.record))
    var sheetNS: UInt64 = 0
    for i in cells {
        let r0 = StageClock.nanoseconds()
        renderer.render(frames[i], into: target)
        let r1 = StageClock.nanoseconds()
        builder.add(target, time: times[i])
        renderNS += r1 - r0
        sheetNS += StageClock.nanoseconds() - r1
    }
    s.drawnPixels = renderer.stats.damagedPixels - floorDrawn
    s.framePixels = (picks.count + cells.count) * target.width * target.height
    let p0 = StageClock.nanoseconds()
    let bytes = PNGWriter.encode(builder.finish())
    let p1 = StageClock.nanoseconds()
    try AtomicFile.write(bytes, to: dir + "/bench-sheet.png")
    s.write += seconds(StageClock.nanoseconds() - p1)
    s.sheet = seconds(sheetNS)
    s.png = seconds(p1 - p0)
    // The renderer's rasterisation clock ran in the floor's pass too; that pass is not ours.
    s.rasterise = seconds(renderer.stats.rasterizeNanoseconds)
    s.composite = max(seconds(renderNS) - s.rasterise, 0)
    return s
}

/// Seconds giflib's encoder takes to write the GIF at `path` again (decoded first, not timed).
func giflibEncodeSeconds(_ path: String) -> Double {
    var err: Int32 = 0
    guard let input = DGifOpenFileName(path, &err) else { return .nan }
    guard DGifSlurp(input) == GIF_OK else { DGifCloseFile(input, &err); return .nan }
    var written = 0
    let t0 = StageClock.nanoseconds()
    let output = withUnsafeMutablePointer(to: &written) { counter in
        EGifOpen(counter, { gif, _, length in
            gif!.pointee.UserData!.assumingMemoryBound(to: Int.self).pointee += Int(length)
            return length
        }, &err)
    }
    guard let output else { DGifCloseFile(input, &err); return .nan }
    output.pointee.SWidth = input.pointee.SWidth
    output.pointee.SHeight = input.pointee.SHeight
    output.pointee.SColorResolution = input.pointee.SColorResolution
    output.pointee.SColorMap = input.pointee.SColorMap
    output.pointee.ImageCount = input.pointee.ImageCount
    output.pointee.SavedImages = input.pointee.SavedImages
    // EGifSpew frees what it is handed; the input must not free it again.
    input.pointee.SColorMap = nil
    input.pointee.SavedImages = nil
    input.pointee.ImageCount = 0
    let ok = EGifSpew(output) == GIF_OK
    let elapsed = seconds(StageClock.nanoseconds() - t0)
    DGifCloseFile(input, &err)
    return ok ? elapsed : .nan
}

func ms(_ s: Double) -> String { pad(fmt(s * 1000, 1), 8) }

func runPipelineBench() {
    guard let exe = FileIO.executablePath() else { print("cannot find this executable's directory"); return }
    let pluginDir = PathUtil.join(PathUtil.dirname(exe), "plugins")
    let scan: PluginScan
    do {
        scan = try PluginScanner.scan(PluginSearchPath(entries: [.init(path: pluginDir, origin: "beside the binary", required: true)]), registry: nil)
    } catch {
        print("\(error)\nstage the plugins first: TRANSHOST_CONFIG=release ./scripts/setup")
        return
    }
    let dir = "/tmp/transhost-pipeline-bench-\(getpid())"
    try? FileIO.makeDirectories(dir)
    defer { for f in ["bench.gif", "bench-sheet.png", "trace.json"] { unlink(dir + "/" + f) }; rmdir(dir) }
    print("transhost-render-bench --pipeline: each first-party demo as `transhost run` makes it (one thread, in process), ms per stage")
    print("play = playing the scenario (plugins in process); trace = writing trace.json; rasterise = cairo content; composite = the")
    print("rest of rendering; quantise = flatten + changed rectangle + palette; encode = LZW and output; sheet = thumbnails")
    print("(cairo's GOOD downscale); png = the sheet's PNG encoding; write = files closed, synced and renamed (here on the")
    print("rendering thread, mostly waiting for the disk; `transhost run` syncs and renames on a thread of its own).")
    print("floor = the same GIF frames composited again with warm rasters + giflib's encoder alone on the same frames")
    print("(giflib-enc: EGifSpew writing the decoded GIF to memory). drawn = the share of the frames' pixels drawn again (each")
    print("frame redraws only what changed since the frame before it, as `transhost run` does).")
    print("")
    print("demo              play   trace  raster  compos quantis  encode   sheet     png   write | pictures giflib-enc  floor  vs-floor  (play+trace+pictures)/(play+trace)  drawn")
    var all = Stages()
    // `--pipeline NAME` times one demo only (for a profiler).
    let args = CommandLine.arguments
    let only = args.firstIndex(of: "--pipeline").flatMap { $0 + 1 < args.count ? args[$0 + 1] : nil }
    for record in scan.records.sorted(by: { $0.name < $1.name }) where only == nil || record.name == only {
        guard let manifest = record.manifestPath else { continue }
        let demo = PathUtil.join(PathUtil.dirname(manifest), "demo.json")
        guard FileIO.exists(demo), let scenario = try? Scenario.load(file: demo) else { continue }
        var s = Stages()
        let t0 = now()
        let run = Playback.play(scenario, scan: scan, fps: .standard).run
        s.play = now() - t0
        let t1 = now()
        do { try TraceWriter.write(run, settings: TraceWriter.Settings(scale: scenario.device.scale), to: dir + "/trace.json") } catch {
            print("\(record.name): \(error)"); continue
        }
        s.trace = now() - t1
        for t in run.transitions {
            do { s += try timeTransition(t, device: scenario.device, scale: scenario.device.scale, fps: run.fps, dir: dir) } catch {
                print("\(record.name): \(error)")
            }
        }
        all += s
        printStages(record.name, s)
    }
    if only == nil { printStages("all", all) }
    print("")
    print("target: (play+trace+pictures)/(play+trace) at most 5x (the gallery against --trace-only); transhost-host-bench")
    print("times the real `transhost run` against `transhost run --trace-only`, processes and workers included.")
    print("")
    if only == nil { rssBench() }
}

func printStages(_ name: String, _ s: Stages) {
    let floor = s.floorComposite + s.floorEncode
    var line = name + String(repeating: " ", count: max(0, 14 - name.count))
    for v in [s.play, s.trace, s.rasterise, s.composite, s.quantise, s.encode, s.sheet, s.png, s.write] { line += ms(v) }
    line += " |" + ms(s.pictures) + "   " + ms(s.floorEncode) + ms(floor) + pad(fmt(s.pictures / floor, 2) + "x", 9)
    line += pad(fmt((s.play + s.trace + s.pictures) / (s.play + s.trace), 2) + "x", 12)
    line += pad(fmt(100 * Double(s.drawnPixels) / Double(max(s.framePixels, 1)), 1) + "%", 10)
    print(line)
}

// MARK: Peak RSS against the transition's length

/// In a child: renders a `duration`-second transition (the split-modal scene, 60 fps) at @3x as
/// `transhost run` does (RunExporter: GIF, contact sheet, PNGs at the default instants) and
/// prints its peak RSS in KiB (VmHWM).
func rssChild(duration: Double) {
    let engine = AnimationEngine()
    let (root, setProgress) = DemoScenes.splitModal(engine)
    let count = Int((duration * 60).rounded()) + 1
    var times: [Double] = [], frames: [[PresentationNode]] = []
    for k in 0..<count {
        let t = Double(k) / 60
        setProgress(t / duration)
        times.append(t)
        frames.append(engine.sampleTree(root))
    }
    var options = RunExporter.Options()
    options.frames = true
    let dir = "/tmp/transhost-rss-bench-\(getpid())"
    do {
        let files = try RunExporter(options: options).export([FrameSequence(baseName: "long", label: "long", times: times, frames: frames)],
                                                             pointSize: DemoScenes.screen, scale: 3, fps: 60, to: dir)
        for f in files { unlink(f) }
        rmdir(dir)
    } catch { print("error: \(error)"); exit(1) }
    // VmHWM, not getrusage: a process started by posix_spawn inherits its parent's peak in
    // ru_maxrss at exec, which would hide this one's.
    let status = (try? FileIO.readString("/proc/self/status")) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    print(line.split(separator: " ").dropFirst().first.map { String($0) } ?? "?")
}

/// Runs this benchmark again as a child for each length and reads its peak RSS.
func rssBench() {
    guard let exe = FileIO.executablePath() else { return }
    var rows: [(Double, Double)] = []
    for d in [1.0, 10.0] {
        var pid: pid_t = 0
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { return }
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
        let args = [exe, "--rss-child", String(d)]
        var cargs = args.map { strdup($0) } + [nil]
        let rc = posix_spawn(&pid, exe, &actions, nil, &cargs, environ)
        for p in cargs { free(p) }
        posix_spawn_file_actions_destroy(&actions)
        close(pipeFDs[1])
        guard rc == 0 else { print("cannot run \(exe): \(String(cString: strerror(rc)))"); return }
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 256)
        while true {
            let n = read(pipeFDs[0], &buf, buf.count)
            if n <= 0 { break }
            out += buf[0..<n]
        }
        close(pipeFDs[0])
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        let text = String(decoding: out, as: UTF8.self)
        guard let kib = Double(text.split(separator: "\n").last.map { String($0) } ?? "") else { print("rss child: \(text)"); return }
        rows.append((d, kib / 1024))
    }
    print("peak RSS rendering one transition at @3x (split-modal scene, 60 fps; GIF, sheet, PNGs at the default instants):")
    for (d, mib) in rows { print("  \(pad(fmt(d, 0), 3)) s transition (\(Int(d * 60) + 1) frames): \(pad(fmt(mib, 1), 7)) MiB") }
    if rows.count == 2 { print("  10 s / 1 s: \(fmt(rows[1].1 / rows[0].1, 2))x (1.00x is flat in the number of frames); target: at most 120 MiB") }
}
