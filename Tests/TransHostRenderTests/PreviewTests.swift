import XCTest
import TransHostCore
import TransHostRenderScenes
@testable import TransHostRender

/// Writes the demo transitions (PNG frames, GIF, contact sheet) when TRANSHOST_RENDER_PREVIEW
/// names a directory, for a person to look at; otherwise only checks they render.
final class PreviewTests: XCTestCase {
    func testDemoTransitionsRenderAndWrite() throws {
        let env = ProcessInfo.processInfo.environment["TRANSHOST_RENDER_PREVIEW"]
        let dir = env ?? NSTemporaryDirectory() + "transhost-render-preview-\(getpid())"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { if env == nil { try? FileManager.default.removeItem(atPath: dir) } }
        for (name, scene) in [("scale-fade", DemoScenes.scaleFade), ("split-modal", DemoScenes.splitModal)] {
            let e = AnimationEngine()
            let (root, setProgress) = scene(e)
            let r = Renderer(pointSize: DemoScenes.screen, scale: 1)
            var frames: [(image: RGBAImage, time: Double)] = []
            let n = 9
            for k in 0..<n {
                let p = Double(k) / Double(n - 1)
                setProgress(p)
                frames.append((r.render(e.sampleTree(root)), p * 0.4))
            }
            try PNGWriter.write(frames[n / 2].image, to: dir + "/\(name)-mid.png")
            try GIFWriter.write(frames: frames.map { $0.image }, duration: 0.4, to: dir + "/\(name).gif")
            try ContactSheet.write(frames: frames, columns: 3, thumbnailWidth: 160, to: dir + "/\(name)-sheet.png")
            XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/\(name).gif"))
        }
        let r2 = Renderer(pointSize: DemoScenes.screen, scale: 2)
        let e = AnimationEngine()
        let (root, setProgress) = DemoScenes.splitModal(e)
        setProgress(0.5)
        try PNGWriter.write(r2.render(e.sampleTree(root)), to: dir + "/split-modal-2x.png")
    }
}
