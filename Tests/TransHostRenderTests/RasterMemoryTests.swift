import XCTest
@testable import TransHostRender

/// Rasters' pages are reused after their image is freed (RasterMemory), so what a user would
/// notice is that a new image is still blank, that memory kept for reuse stays within its
/// budget, and that a small raster does not take a large mapping.
final class RasterMemoryTests: XCTestCase {
    func testAReusedMappingComesBackZeroed() {
        let memory = RasterMemory(budget: 8 << 20)
        let bytes = 1 << 20
        let first = memory.take(bytes: bytes)!
        first.pointer.initializeMemory(as: UInt8.self, repeating: 0xab, count: bytes)
        memory.give(first.pointer, capacity: first.capacity)
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
}
