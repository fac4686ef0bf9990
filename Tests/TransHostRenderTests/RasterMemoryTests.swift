import XCTest
import Foundation
import TransHostTestSupport
@testable import TransHostRender
import TransHostCore
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
