import XCTest
@testable import TransHostCore

/// Scheduled actions (one per gesture sample) run in time order, ties in scheduling order, and
/// many of them cost no more per event than a few.
final class EventQueueTests: XCTestCase {
    func testActionsRunInTimeOrderAndTiesInSchedulingOrder() {
        let engine = AnimationEngine()
        var ran: [String] = []
        engine.schedule(at: 0.3) { ran.append("c") }
        engine.schedule(at: 0.1) { ran.append("a1") }
        engine.schedule(at: 0.2) { ran.append("b") }
        engine.schedule(at: 0.1) { ran.append("a2") }
        engine.advance(to: 0.25)
        XCTAssertEqual(ran, ["a1", "a2", "b"])
        engine.advance(to: 1)
        XCTAssertEqual(ran, ["a1", "a2", "b", "c"])
        XCTAssertTrue(engine.isIdle)
    }

    func testAHundredThousandActionsScheduledInReverseAllRunInOrder() {
        let engine = AnimationEngine()
        let n = 100_000
        var order: [Int] = []
        order.reserveCapacity(n)
        for i in stride(from: n - 1, through: 0, by: -1) { engine.schedule(at: Double(i) * 1e-4) { order.append(i) } }
        engine.advance(to: Double(n))
        XCTAssertEqual(order.count, n)
        XCTAssertEqual(order, Array(0..<n))
    }

    func testAnActionScheduledForNowRunsAtTheNextSettle() {
        let engine = AnimationEngine()
        var ran = false
        engine.schedule(at: 0.5) { engine.schedule(at: 0.5) { ran = true } }
        engine.advance(to: 0.6)
        XCTAssertTrue(ran)
    }
}
