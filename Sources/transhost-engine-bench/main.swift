// Benchmark (not a test): samples a transition's presentation tree at 60 fps with 10, 100 and
// 1000 animated layers and prints microseconds per frame. Run it with
//   swift run -c release transhost-engine-bench
// Wall time is read only here, to measure; the engine itself runs on its virtual clock.
import Foundation
import TransHostCore
#if canImport(Glibc)
import Glibc
#endif

func nowSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// Builds `n` layers in a container, animates each the way the seeds do (ease-in-out frame and
/// alpha, a spring rotation, a two-keyframe 3D transform), and samples the whole tree at 60 fps
/// over the 1 s transition. Returns microseconds per sampled frame and a checksum.
func run(layers n: Int) -> (usPerFrame: Double, frames: Int, checksum: Double) {
    let engine = AnimationEngine()
    let window = View(engine: engine, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "window")
    var views: [View] = []
    for i in 0..<n {
        let v = View(engine: engine, frame: Rect(x: Double(i % 10) * 32, y: Double(i / 10 % 50) * 11, width: 30, height: 10), name: "layer \(i)")
        window.addSubview(v)
        views.append(v)
    }
    for (i, v) in views.enumerated() {
        switch i % 3 {
        case 0:
            engine.animate(AnimationParameters(duration: 1.0)) {
                v.frame = Rect(x: v.frame.minX + 100, y: v.frame.minY, width: 30, height: 10)
                v.alpha = 0.2
            }
        case 1:
            engine.animate(AnimationParameters(duration: 1.0, curve: .spring(dampingRatio: 0.8, initialVelocity: 6))) {
                v.transform = AffineTransform(rotationAngle: .pi / 2)
            }
        default:
            engine.animateKeyframes(AnimationParameters(duration: 1.0), mode: .linear, animations: {
                engine.addKeyframe(relativeStart: 0, relativeDuration: 0.5) {
                    var t = Transform3D.identity
                    t.m34 = -1.0 / 900
                    v.transform3D = t.rotated(90, 0, 1, 0)
                }
                engine.addKeyframe(relativeStart: 0.5, relativeDuration: 0.5) { v.alpha = 0.5 }
            })
        }
    }
    let frames = 61
    var checksum = 0.0
    let start = nowSeconds()
    for k in 0..<frames {
        engine.advance(to: Double(k) / 60)
        let nodes = engine.sampleTree(window)
        checksum += nodes[nodes.count - 1].state.position.x + nodes[nodes.count / 2].state.alpha
    }
    let elapsed = nowSeconds() - start
    return (elapsed / Double(frames) * 1e6, frames, checksum)
}

print("transhost engine benchmark: sampling the presentation tree (61 frames = 1 s at 60 fps)")
print("layers   us/frame (median of 5)   frames/s")
for n in [10, 100, 1000] {
    var samples: [Double] = []
    var checksum = 0.0
    for _ in 0..<5 {
        let r = run(layers: n)
        samples.append(r.usPerFrame)
        checksum += r.checksum
    }
    samples.sort()
    let median = samples[2]
    let line = String(repeating: " ", count: max(0, 6 - String(n).count)) + "\(n)   "
    print(line + String(format: "%18.1f", median) + "   " + String(format: "%8.0f", 1e6 / median) + "   (checksum \(Int(checksum) % 1000))")
}
