import XCTest
import Foundation
import TransHostTestSupport
@testable import TransHostRender
import TransHostCore
import TransHostRenderScenes
import CRenderKernels
#if canImport(Glibc)
import Glibc
#endif

/// Rasters' pages are reused after their image is freed (RasterMemory), so what a user would
/// notice is that a new image is still blank, that memory kept for reuse stays within its
/// budget, and that a small raster does not take a large mapping.
final class RasterMemoryTests: XCTestCase {
    /// A mapping taken from `memory`, written all over and given back.
    private func scribbledAndGiven(_ memory: RasterMemory, bytes: Int) -> (pointer: UnsafeMutableRawPointer, capacity: Int) {
        let m = memory.take(bytes: bytes)!
        m.pointer.initializeMemory(as: UInt8.self, repeating: 0xab, count: bytes)
        memory.give(m.pointer, capacity: m.capacity)
        return m
    }

    func testAReusedMappingComesBackZeroed() {
        let memory = RasterMemory(budget: 8 << 20)
        let bytes = 1 << 20
        let first = scribbledAndGiven(memory, bytes: bytes)
        let second = memory.take(bytes: bytes - 4096)!
        XCTAssertEqual(second.pointer, first.pointer, "a freed mapping of the same size is reused")
        XCTAssertEqual(memory.reused, 1)
        let view = UnsafeRawBufferPointer(start: second.pointer, count: bytes - 4096)
        XCTAssertTrue(view.allSatisfy { $0 == 0 }, "a reused raster starts transparent")
        memory.give(second.pointer, capacity: second.capacity)
    }

    func testASmallRasterDoesNotTakeALargeMapping() {
        let memory = RasterMemory(budget: 8 << 20)
        let large = memory.take(bytes: 2 << 20)!
        memory.give(large.pointer, capacity: large.capacity)
        let small = memory.take(bytes: 1 << 20)!
        XCTAssertNotEqual(small.pointer, large.pointer)
        XCTAssertEqual(memory.reused, 0)
        XCTAssertEqual(memory.mapped, 2)
        memory.give(small.pointer, capacity: small.capacity)
    }

    func testMemoryKeptForReuseStaysWithinTheBudget() {
        let memory = RasterMemory(budget: 3 << 20)
        let blocks = (0..<4).map { _ in memory.take(bytes: 1 << 20)! }
        for b in blocks { memory.give(b.pointer, capacity: b.capacity) }
        // Three fit in the budget; the oldest was unmapped, so four requests reuse only three.
        let again = (0..<4).map { _ in memory.take(bytes: 1 << 20)! }
        XCTAssertEqual(memory.reused, 3)
        XCTAssertEqual(Set(again.prefix(3).map(\.pointer)), Set(blocks.suffix(3).map(\.pointer)))
        for b in again { memory.give(b.pointer, capacity: b.capacity) }
        let huge = memory.take(bytes: 4 << 20)!
        memory.give(huge.pointer, capacity: huge.capacity)
        let hugeAgain = memory.take(bytes: 4 << 20)!
        XCTAssertEqual(memory.reused, 3, "a mapping larger than the whole budget is not kept")
        memory.give(hugeAgain.pointer, capacity: hugeAgain.capacity)
    }

    /// A run maps frame-sized rasters ahead while it plays (RenderWarmUp): as many as the
    /// budget holds, each handed out blank, and blank again after a raster used and gave it back.
    func testMappingsMadeAheadAreBlankAndWithinTheBudget() {
        let memory = RasterMemory(budget: 7 << 20)
        let bytes = 3 << 20
        memory.prefill(bytes: bytes, count: .max)
        XCTAssertEqual(memory.prefilled, 2, "two 3 MiB mappings fit in 7 MiB")
        let first = memory.take(bytes: bytes)!, second = memory.take(bytes: bytes - 65536)!
        XCTAssertEqual(memory.reused, 2)
        XCTAssertEqual(memory.mapped, 0, "both came from the mappings made ahead")
        for m in [first, second] {
            XCTAssertTrue(UnsafeRawBufferPointer(start: m.pointer, count: bytes - 65536).allSatisfy { $0 == 0 })
            m.pointer.initializeMemory(as: UInt8.self, repeating: 0x5a, count: bytes - 65536)
            memory.give(m.pointer, capacity: m.capacity)
        }
        let again = memory.take(bytes: bytes)!
        XCTAssertTrue(UnsafeRawBufferPointer(start: again.pointer, count: bytes).allSatisfy { $0 == 0 },
                      "a mapping a raster used comes back zeroed")
        memory.give(again.pointer, capacity: again.capacity)
        memory.prefill(bytes: bytes, count: 5)
        XCTAssertEqual(memory.prefilled, 2, "the budget is full: nothing more is mapped ahead")
    }

    /// Once rendering begins, the mappings made ahead stop (after the one in hand), however
    /// many were asked for; a warm-up told so before it maps anything maps nothing.
    func testMappingAheadStopsWhenRenderingBegins() {
        let memory = RasterMemory(budget: 64 << 20)
        var asked = 0
        memory.prefill(bytes: 1 << 20, count: .max, until: { asked += 1; return asked > 3 })
        XCTAssertEqual(memory.prefilled, 3, "three mappings, then the fourth check stops it")
        memory.prefill(bytes: 1 << 20, count: .max, until: { true })
        XCTAssertEqual(memory.prefilled, 3)
        let warmUp = RenderWarmUp.start(pointSize: Size(width: 320, height: 568), scale: 2)
        warmUp.renderingBegins()
        warmUp.wait()   // returns: an unbounded count does not keep it going
    }

    /// At the end of a run the spares are unmapped (PictureMemoryRelease), so the exit has less
    /// to free; a raster taken after that is mapped afresh, and blank.
    func testReleasedSparesAreUnmappedAndLaterRastersStillBlank() {
        let memory = RasterMemory(budget: 8 << 20)
        let bytes = 1 << 20
        let first = scribbledAndGiven(memory, bytes: bytes)
        XCTAssertEqual(memory.keptBytes, first.capacity)
        memory.releaseSpares()
        XCTAssertEqual(memory.keptBytes, 0)
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        var resident = [UInt8](repeating: 0, count: 1)
        errno = 0
        XCTAssertEqual(mincore(first.pointer, page, &resident), -1, "the released mapping is gone")
        XCTAssertEqual(errno, ENOMEM)
        let second = memory.take(bytes: bytes)!
        XCTAssertEqual(memory.reused, 0)
        XCTAssertEqual(memory.mapped, 2)
        XCTAssertTrue(UnsafeRawBufferPointer(start: second.pointer, count: bytes).allSatisfy { $0 == 0 })
        memory.give(second.pointer, capacity: second.capacity)
    }

    /// The run's release empties the shared spares and the idle GIF coders, and a GIF written
    /// after it has the same bytes as one written before.
    func testPictureMemoryReleaseEmptiesTheSharedPoolsAndPicturesStayTheSame() throws {
        let dir = try TestProcess.temporaryDirectory(self, prefix: "transhost-memory-release")
        let image = RGBAImage(width: 600, height: 600)
        let words = image.data.assumingMemoryBound(to: UInt32.self)
        for y in 0..<600 {
            for x in 0..<600 { words[y * image.stride / 4 + x] = 0xff00_0000 | UInt32(x * 255 / 600) << 16 | UInt32(y * 255 / 600) }
        }
        let second = image.copy()
        second.fill(Color(red: 0.1, green: 0.7, blue: 0.4, alpha: 0.5))
        try GIFWriter.write(frames: [image, second], frameDurations: [0.1, 0.5], to: dir + "/before.gif")
        XCTAssertGreaterThan(GIFCoders.shared.idleCount, 0, "a written GIF's coders are kept for the next")
        XCTAssertGreaterThan(RasterMemory.shared.keptBytes, 0, "a written GIF's scratch mappings are kept for the next")
        let release = PictureMemoryRelease()
        release.wait()
        XCTAssertEqual(RasterMemory.shared.keptBytes, 0)
        XCTAssertEqual(GIFCoders.shared.idleCount, 0)
        try GIFWriter.write(frames: [image, second], frameDurations: [0.1, 0.5], to: dir + "/after.gif")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/after.gif")),
                       try Data(contentsOf: URL(fileURLWithPath: dir + "/before.gif")))
    }

    /// A raster's mapping (th_map_zeroed_pages) is blank and already resident, from a page to a
    /// @3x frame and sizes that are not whole huge pages; from 2 MiB up it starts on a 2 MiB
    /// boundary, where the kernel can give it huge pages.
    func testMappedRastersAreBlankAndResident() throws {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        for bytes in [page, 3 << 19, 2 << 20, 1170 * 2532 * 4, (4 << 20) + page] {
            let p = try XCTUnwrap(th_map_zeroed_pages(bytes))
            defer { munmap(p, bytes) }
            let pages = (bytes + page - 1) / page
            var resident = [UInt8](repeating: 0, count: pages)
            XCTAssertEqual(mincore(p, pages * page, &resident), 0)
            XCTAssertTrue(resident.allSatisfy { $0 & 1 == 1 }, "\(bytes) bytes: every page is present before it is touched")
            if bytes >= 2 << 20 { XCTAssertEqual(Int(bitPattern: p) % (2 << 20), 0, "\(bytes) bytes: on a huge page's boundary") }
            let view = UnsafeRawBufferPointer(start: p, count: bytes)
            XCTAssertTrue(view.allSatisfy { $0 == 0 }, "\(bytes) bytes: blank")
            p.storeBytes(of: 0xff, toByteOffset: bytes - 1, as: UInt8.self)
        }
    }
}

/// A group raster whose own opaque background covers it is not cleared before it is drawn
/// (Renderer.groupRaster): whatever reused memory held must not show. Frames drawn when every
/// spare mapping the renderer could reuse holds a pattern are the frames drawn on fresh memory.
final class ReusedRasterMemoryTests: XCTestCase {
    /// Spare mappings of the sizes this scene's rasters take (the cards' groups, 1.0 to 1.8 MB,
    /// and frame-sized ones, 2.7 to 3.6 MB), each a tenth larger than the one before, so every
    /// such raster finds one (RasterMemory reuses a mapping up to 5/4 of a request), written
    /// all over with opaque green; 20 MB in all, within the shared budget.
    private func poisonSpares() {
        RasterMemory.shared.releaseSpares()
        var taken: [(pointer: UnsafeMutableRawPointer, capacity: Int)] = []
        for (from, to) in [(1.0, 1.8), (2.7, 3.6)] {
            var mb = from
            while mb < to {
                let m = RasterMemory.shared.take(bytes: Int(mb * 1_048_576), zeroed: false)!
                m.pointer.initializeMemory(as: UInt32.self, repeating: 0xff00_ff00, count: m.capacity / 4)
                taken.append(m)
                mb *= 1.1
            }
        }
        for m in taken { RasterMemory.shared.give(m.pointer, capacity: m.capacity) }
    }

    /// Two half-transparent cards with a child each, drawn as groups: one with an opaque
    /// background on whole pixels (its raster is not cleared), one with rounded corners (its
    /// raster is: the corners would show what the memory held), turned a little each frame;
    /// then the split modal, whose pages are groups too.
    private func frames(poisoned: Bool) -> ([[UInt8]], Int, Int) {
        let e = AnimationEngine()
        let root = View(engine: e, frame: Rect(x: 0, y: 0, width: 320, height: 568), name: "screen")
        root.backgroundColor = .white
        let cards = [(Rect(x: 10, y: 20, width: 300, height: 260), 0.0), (Rect(x: 12, y: 300, width: 296, height: 250), 18.0)].map { frame, radius -> View in
            let card = View(engine: e, frame: frame)
            card.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.9)
            card.cornerRadius = radius
            card.alpha = 0.5
            let child = View(engine: e, frame: Rect(x: 30, y: 30, width: 120, height: 90))
            child.backgroundColor = Color(red: 1, green: 0.3, blue: 0)
            card.addSubview(child)
            root.addSubview(card)
            return card
        }
        let r = Renderer(pointSize: DemoScenes.screen, scale: 2)
        let modal = DemoScenes.splitModal(e)
        var out: [[UInt8]] = []
        let reusedBefore = RasterMemory.shared.reused
        func draw(_ tree: View) {
            if poisoned { poisonSpares() } else { RasterMemory.shared.releaseSpares() }
            let img = r.render(e.sampleTree(tree))
            out.append((0..<img.height).flatMap { y in Array(UnsafeRawBufferPointer(start: img.data + y * img.stride, count: img.width * 4)) })
        }
        for k in 0..<3 {
            for card in cards { card.transform = AffineTransform(rotationAngle: Double(k) * 0.01) }
            draw(root)
        }
        for p in [0.0, 0.3, 0.6, 1.0] {
            modal.setProgress(p)
            draw(modal.root)
        }
        return (out, r.stats.groupRasterizations, RasterMemory.shared.reused - reusedBefore)
    }

    func testGroupsDrawnOnReusedMemoryShowNothingOfIt() {
        let (fresh, groups, _) = frames(poisoned: false)
        let (reused, _, reuses) = frames(poisoned: true)
        XCTAssertGreaterThan(groups, 0, "the scene draws group rasters")
        XCTAssertGreaterThan(reuses, 0, "rasters took the written-over mappings")
        for k in fresh.indices where fresh[k] != reused[k] {
            let at = zip(fresh[k], reused[k]).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? 0
            XCTFail("frame \(k) differs on reused memory, first at byte \(at) (pixel \(at / 4))")
        }
        RasterMemory.shared.releaseSpares()
    }
}
