import XCTest
import TransHostCore
import TransHostRenderScenes
@testable import TransHostSupport
import TransHostTestSupport
@testable import TransHostRender

/// The exporter's files, whose syncs and renames run off the rendering threads: each is in
/// place, whole, when export returns, and one that cannot take its name fails the export with
/// its path and leaves no temporary file.
final class RunExporterTests: XCTestCase {
    /// A red square sliding across a white screen, `count` frames.
    private func slide(_ name: String, count: Int) -> FrameSequence {
        let e = AnimationEngine()
        let root = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "window")
        root.backgroundColor = .white
        let box = View(engine: e, frame: Rect(x: 0, y: 100, width: 80, height: 80), name: "box")
        box.backgroundColor = Color(red: 1, green: 0, blue: 0)
        root.addSubview(box)
        var frames: [[PresentationNode]] = []
        for k in 0..<count {
            box.transform3D = Transform3D.translation(Double(k) * 10, 0, 0)
            frames.append(e.sampleTree(root))
        }
        return FrameSequence(baseName: name, label: name, times: (0..<count).map { Double($0) / 60 }, frames: frames)
    }

    func testEveryFileIsInPlaceWhenExportReturns() throws {
        let dir = try TestProcess.temporaryDirectory(self, prefix: "transhost-export")
        let files = try RunExporter(options: RunExporter.Options())
            .export([slide("transition-0-push", count: 20), slide("transition-1-pop", count: 12)], pointSize: DemoScenes.screen, scale: 1, fps: 60, to: dir)
        XCTAssertEqual(files.map { PathUtil.basename($0) },
                       ["transition-0-push.gif", "transition-0-push-sheet.png", "transition-1-pop.gif", "transition-1-pop-sheet.png"])
        for f in files {
            let bytes = try FileIO.readAll(f)
            if f.hasSuffix(".gif") {
                XCTAssertEqual(Array(bytes.prefix(6)), Array("GIF89a".utf8), f)
                XCTAssertEqual(bytes.last, 0x3B, "\(f) ends with the GIF trailer")
            } else {
                XCTAssertNotNil(FileIO.pngSize(f), f)
            }
        }
        XCTAssertEqual(try FileIO.list(dir).filter { $0.hasPrefix(".") }, [], "no temporary file is left")
    }

    func testAFileThatCannotTakeItsNameFailsTheExportWithItsPath() throws {
        let dir = try TestProcess.temporaryDirectory(self, prefix: "transhost-export")
        let blocked = PathUtil.join(dir, "transition-1-pop.gif")
        try FileManager.default.createDirectory(atPath: blocked + "/inside", withIntermediateDirectories: true)
        XCTAssertThrowsError(try RunExporter(options: RunExporter.Options())
            .export([slide("transition-0-push", count: 20), slide("transition-1-pop", count: 12)], pointSize: DemoScenes.screen, scale: 1, fps: 60, to: dir)) { error in
            guard case .io(let path, _)? = error as? RenderOutputError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, blocked)
        }
        XCTAssertTrue(FileIO.isDirectory(blocked), "the blocked path is untouched")
        XCTAssertTrue(FileIO.exists(PathUtil.join(dir, "transition-0-push.gif")))
        XCTAssertEqual(try FileIO.list(dir).filter { $0.hasPrefix(".") }, [], "no temporary file is left")
    }

    /// A disk that fails a GIF's sync (EIO here): the export fails with that path and says the
    /// file was not synced, and the GIF a previous export left there is kept.
    func testAFileWhoseSyncFailsFailsTheExportAndKeepsTheEarlierFile() throws {
        let dir = try TestProcess.temporaryDirectory(self, prefix: "transhost-export")
        let exporter = RunExporter(options: RunExporter.Options())
        let gif = PathUtil.join(dir, "transition-0-push.gif")
        _ = try exporter.export([slide("transition-0-push", count: 20)], pointSize: DemoScenes.screen, scale: 1, fps: 60, to: dir)
        let earlier = try FileIO.readAll(gif)
        DeferredCommits.syncResultForTesting = { $0 == gif ? EIO : nil }
        defer { DeferredCommits.syncResultForTesting = nil }
        XCTAssertThrowsError(try exporter.export([slide("transition-0-push", count: 8)], pointSize: DemoScenes.screen, scale: 1, fps: 60, to: dir)) { error in
            guard case .io(let path, let reason)? = error as? RenderOutputError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, gif)
            XCTAssertTrue(reason.contains("could not be synced to disk"), reason)
        }
        XCTAssertEqual(try FileIO.readAll(gif), earlier, "the earlier GIF is kept")
        XCTAssertEqual(try FileIO.list(dir).filter { $0.hasPrefix(".") }, [], "no temporary file is left")
    }
    /// Above 50 fps the GIF shows every second frame; each contact-sheet cell is one of those
    /// frames (the nearest to its instant), so the sheet shows what the animation shows, the
    /// first and last frames included. Each frame here fills the screen with a colour of its own.
    func testEverySheetCellIsAFrameTheGIFShows() throws {
        let e = AnimationEngine()
        let root = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "window")
        let count = 31
        func colour(_ k: Int) -> (r: Int, g: Int, b: Int) { (k * 8, 255 - k * 8, 128) }
        var frames: [[PresentationNode]] = []
        for k in 0..<count {
            let c = colour(k)
            root.backgroundColor = Color(red: Double(c.r) / 255, green: Double(c.g) / 255, blue: Double(c.b) / 255)
            frames.append(e.sampleTree(root))
        }
        let times = (0..<count).map { Double($0) / 60 }
        let dir = try TestProcess.temporaryDirectory(self, prefix: "transhost-export")
        let exporter = RunExporter(options: RunExporter.Options())
        _ = try exporter.export([FrameSequence(baseName: "t", label: "t", times: times, frames: frames)],
                                pointSize: DemoScenes.screen, scale: 1, fps: 60, to: dir)
        let gif = try DecodedGIF(path: PathUtil.join(dir, "t.gif"))
        // The frame each colour belongs to, and the frames the GIF shows.
        var frameOf: [UInt32: Int] = [:]
        for k in 0..<count { let c = colour(k); frameOf[UInt32(c.r << 16 | c.g << 8 | c.b)] = k }
        let shown = gif.canvases.map { frameOf[$0[568 / 2 * 320 + 160]] }
        XCTAssertEqual(shown, Array(stride(from: 0, to: count, by: 2)).map(Optional.some), "the GIF shows the even frames")
        let sheet = try PNGReader.read(PathUtil.join(dir, "t-sheet.png"))
        let layout = ContactSheet.layout(count: 8, frameWidth: 320, frameHeight: 568, caption: nil)
        XCTAssertEqual([sheet.width, sheet.height], [layout.width, layout.height], "eight cells")
        let onSheet = layout.cells.map { c -> Int? in
            let p = sheet.pixel(x: c[0] + c[2] / 2, y: c[1] + c[3] / 2)
            return frameOf[UInt32(p.r) << 16 | UInt32(p.g) << 8 | UInt32(p.b)]
        }
        // Eight instants 0.5 s / 7 apart, each the nearest even frame (the earlier when two are as near).
        XCTAssertEqual(onSheet, [0, 4, 8, 12, 18, 22, 26, 30])
        XCTAssertEqual(exporter.sheetFrames(times, fps: 60), [0, 4, 8, 12, 18, 22, 26, 30])
        XCTAssertEqual(exporter.sheetFrames(times, fps: 30).count, 8, "at 30 fps the GIF shows every frame")
        XCTAssertEqual(exporter.sheetFrames(Array(times.prefix(5)), fps: 60), [0, 2, 4], "a short transition: each frame once")
    }
}
