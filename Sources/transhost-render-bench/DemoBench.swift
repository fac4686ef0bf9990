// The first-party plugins' demos, rendered: every frame of every transition of each demo at @2x
// and @3x, on the renderer's own path and on the two pixman floors.
//   TRANSHOST_CONFIG=release ./scripts/setup && .build/release/transhost-render-bench --demos
// The plugins are found beside the binary (<bin>/plugins), as transhost finds them.
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

func runDemoBench() {
    guard let exe = FileIO.executablePath() else { print("cannot find this executable's directory"); return }
    let dir = PathUtil.join(PathUtil.dirname(exe), "plugins")
    let scan: PluginScan
    do {
        scan = try PluginScanner.scan(PluginSearchPath(entries: [.init(path: dir, origin: "beside the binary", required: true)]), registry: nil)
    } catch {
        print("\(error)\nstage the plugins first: TRANSHOST_CONFIG=release ./scripts/setup")
        return
    }
    print("transhost-render-bench --demos: every frame (60 fps) of every transition of each first-party demo, caches as in a real run")
    print("(the first pass over a demo fills the raster caches and is included). x-realtime = (demo seconds x 60 fps) / render")
    print("seconds at 60 fps, i.e. rendered fps / 60. floors draw the same layers on pixman's projective / affine paths.")
    print("")
    print("demo              scale  path               frames   ms/frame       fps   x-realtime  vs-ours")
    for record in scan.records.sorted(by: { $0.name < $1.name }) {
        guard let manifest = record.manifestPath else { continue }
        let demo = PathUtil.join(PathUtil.dirname(manifest), "demo.json")
        guard FileIO.exists(demo), let scenario = try? Scenario.load(file: demo) else { continue }
        let run = Playback.play(scenario, scan: scan, fps: .standard).run
        let frames = run.transitions.flatMap(\.frames)
        guard !frames.isEmpty else { continue }
        for scale in [2, 3] {
            var ours = 0.0
            for path in [CompositePath.automatic, .pixmanProjective, .pixmanAffine] {
                let r = Renderer(pointSize: scenario.device.size, scale: scale)
                r.compositePath = path
                let target = RGBAImage(width: r.pixelWidth, height: r.pixelHeight)
                var samples: [Double] = []
                for _ in 0..<3 {
                    let t0 = now()
                    for f in frames { r.render(f.nodes, into: target) }
                    samples.append(now() - t0)
                }
                samples.sort()
                let ms = samples[1] * 1000 / Double(frames.count)
                if path == .automatic { ours = ms }
                let label = path == .automatic ? "ours" : (path == .pixmanProjective ? "floor: projective" : "floor: affine")
                var line = record.name + String(repeating: " ", count: max(0, 16 - record.name.count))
                line += pad("@\(scale)x", 7) + "  " + label + String(repeating: " ", count: max(0, 17 - label.count))
                line += pad("\(frames.count)", 8) + pad(fmt(ms, 3), 11) + pad(fmt(1000 / ms, 1), 10)
                line += pad(fmt(1000 / ms / 60, 2) + "x", 13) + pad(fmt(ms / ours, 2) + "x", 9)
                print(line)
            }
        }
    }
    print("")
    print("peak RSS: \(fmt(peakRSSMiB(), 1)) MiB (getrusage ru_maxrss), demos and their traces included")
}
