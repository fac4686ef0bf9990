// The first-party plugins' demos, rendered: every frame of every transition of each demo at @2x
// and @3x, on the renderer's own path and on the two pixman floors.
//   TRANSHOST_CONFIG=release ./scripts/setup && .build/release/transhost-render-bench --demos [PLUGIN...]
// The plugins are found beside the binary (<bin>/plugins), as transhost finds them. Names after
// --demos keep only those plugins' demos (all eight take minutes; one is what a profiler wants);
// --ours skips the two floors, --scale N measures one scale. For profiling: BENCH_DEBUG=1 prints raster and composite counts
// per frame, BENCH_FRAMES=1 each frame's time, BENCH_FRAME=N the best of 40 renders of frame N
// (each after frame N - 1, so that no subtree looks unchanged and is served from its group raster),
// BENCH_FIRST=N the best of 20 renders of frame N on a fresh renderer (after only frame N - 1: a
// transition's first frame, where every snapshot is drawn); BENCH_ONLY=1 makes either repeat 10x
// and stop there.
#if canImport(Glibc)
import Glibc
#endif
import TransHostCore
import TransHostPluginHost
import TransHostRender
import TransHostRun
import TransHostScenario
import TransHostSupport
import TransHostDiscovery

func runDemoBench(only names: [String], oursOnly: Bool, scales: [Int]) {
    guard let exe = FileIO.executablePath() else { print("cannot find this executable's directory"); return }
    let dir = PathUtil.join(PathUtil.dirname(exe), "plugins")
    let scan: PluginScan
    do {
        scan = try PluginScanner.scan(PluginSearchPath(entries: [.init(path: dir, origin: "beside the binary", required: true)]), registry: nil)
    } catch {
        print("\(error)\nstage the plugins first: TRANSHOST_CONFIG=release ./scripts/setup")
        return
    }
    let known = Set(scan.records.map(\.name))
    for name in names where !known.contains(name) {
        print("no plugin named \(name) beside the binary (known: \(known.sorted().joined(separator: ", ")))")
        return
    }
    print("transhost-render-bench --demos: every frame (60 fps) of every transition of each first-party demo, caches as in a real run")
    print("(the first pass over a demo fills the raster caches and is included). x-realtime = (demo seconds x 60 fps) / render")
    print("seconds at 60 fps, i.e. rendered fps / 60. floors draw the same layers on pixman's projective / affine paths.")
    print("pixels: FNV-1a of every frame's premultiplied pixels on our path (an untimed extra pass), so a faster renderer")
    print("can be checked to draw the same bytes.")
    print("")
    print("demo              scale  path               frames   ms/frame       fps   x-realtime  vs-ours  pixels")
    for record in scan.records.sorted(by: { $0.name < $1.name }) where names.isEmpty || names.contains(record.name) {
        guard let manifest = record.manifestPath else { continue }
        let demo = PathUtil.join(PathUtil.dirname(manifest), "demo.json")
        guard FileIO.exists(demo), let scenario = try? Scenario.load(file: demo) else { continue }
        let run = Playback.play(scenario, scan: scan, fps: .standard).run
        let frames = run.transitions.flatMap(\.frames)
        guard !frames.isEmpty else { continue }
        for scale in scales {
            var ours = 0.0
            for path in oursOnly ? [CompositePath.automatic] : [.automatic, .pixmanProjective, .pixmanAffine] {
                let r = Renderer(pointSize: scenario.device.size, scale: scale)
                r.compositePath = path
                let target = RGBAImage(width: r.pixelWidth, height: r.pixelHeight)
                // For profilers, BENCH_ONLY=1 repeats that measurement 400 times and stops.
                let only = getenv("BENCH_ONLY") != nil
                if let fsel = getenv("BENCH_FRAME").flatMap({ Int(String(cString: $0)) }), fsel >= 1, fsel < frames.count {
                    for f in frames[0...fsel] { r.render(f.nodes, into: target) }
                    var best = 1e9
                    let rounds = only ? 400 : 40
                    for _ in 0..<rounds {
                        r.render(frames[fsel - 1].nodes, into: target)
                        let tf = now(); r.render(frames[fsel].nodes, into: target); best = min(best, now() - tf)
                    }
                    print("  frame \(fsel) @\(scale)x best of \(rounds): \(fmt(best * 1000, 3)) ms")
                    if only { exit(0) }
                }
                if let fsel = getenv("BENCH_FIRST").flatMap({ Int(String(cString: $0)) }), fsel >= 0, fsel < frames.count {
                    // A transition's first frame: nothing cached yet, so every snapshot and group is drawn.
                    var best = 1e9
                    let rounds = only ? 200 : 20
                    for _ in 0..<rounds {
                        let fresh = Renderer(pointSize: scenario.device.size, scale: scale)
                        if fsel > 0 { fresh.render(frames[fsel - 1].nodes, into: target) }
                        let tf = now(); fresh.render(frames[fsel].nodes, into: target); best = min(best, now() - tf)
                    }
                    print("  frame \(fsel) @\(scale)x on a fresh renderer, best of \(rounds): \(fmt(best * 1000, 3)) ms")
                    if only { exit(0) }
                }
                var samples: [Double] = []
                for _ in 0..<3 {
                    let t0 = now()
                    let before = r.stats
                    var per: [Double] = []
                    for f in frames { let tf = now(); r.render(f.nodes, into: target); per.append(now() - tf) }
                    samples.append(now() - t0)
                    if getenv("BENCH_FRAMES") != nil { print("  frame ms: " + per.map { fmt($0 * 1000, 2) }.joined(separator: " ")) }
                    if getenv("BENCH_DEBUG") != nil {
                        let s = r.stats, n = Double(frames.count)
                        print("  per frame: content rasters \(fmt(Double(s.contentRasterizations - before.contentRasterizations) / n, 2))"
                              + " group rasters \(fmt(Double(s.groupRasterizations - before.groupRasterizations) / n, 2))"
                              + " composites \(fmt(Double(s.compositeCalls - before.compositeCalls) / n, 2))"
                              + " perspective spans \(fmt(Double(s.spanComposites - before.spanComposites) / n, 2))"
                              + " Mpx \(fmt(Double(s.compositedPixels - before.compositedPixels) / n / 1e6, 3))"
                              + " occluded \(fmt(Double(s.occludedOperations - before.occludedOperations) / n, 2))"
                              + " translate \(fmt(Double(s.translateComposites - before.translateComposites) / n, 2))"
                              + " scaled \(fmt(Double(s.scaledComposites - before.scaledComposites) / n, 2))"
                              + " affine spans \(fmt(Double(s.affineSpanComposites - before.affineSpanComposites) / n, 2))")
                    }
                }
                samples.sort()
                let ms = samples[1] * 1000 / Double(frames.count)
                if path == .automatic { ours = ms }
                let label = path == .automatic ? "ours" : (path == .pixmanProjective ? "floor: projective" : "floor: affine")
                var line = record.name + String(repeating: " ", count: max(0, 16 - record.name.count))
                line += pad("@\(scale)x", 7) + "  " + label + String(repeating: " ", count: max(0, 17 - label.count))
                line += pad("\(frames.count)", 8) + pad(fmt(ms, 3), 11) + pad(fmt(1000 / ms, 1), 10)
                line += pad(fmt(1000 / ms / 60, 2) + "x", 13) + pad(fmt(ms / ours, 2) + "x", 9)
                if path == .automatic { line += "  " + pixelHash(frames.map(\.nodes), renderer: r, target: target) }
                print(line)
            }
        }
    }
    print("")
    print("peak RSS: \(fmt(peakRSSMiB(), 1)) MiB (getrusage ru_maxrss), demos and their traces included")
}

/// FNV-1a (64-bit) over every pixel of every frame, rendered once more by `renderer`.
func pixelHash(_ frames: [[PresentationNode]], renderer r: Renderer, target: RGBAImage) -> String {
    var h: UInt64 = 0xcbf2_9ce4_8422_2325
    for nodes in frames {
        r.render(nodes, into: target)
        for y in 0..<target.height {
            for x in 0..<target.width {
                h = (h ^ UInt64(target.premultipliedPixel(x: x, y: y))) &* 0x100_0000_01b3
            }
        }
    }
    let hex = String(h, radix: 16)
    return String(repeating: "0", count: 16 - hex.count) + hex
}
