import Dispatch
import Synchronization
import XCTest
@testable import TransHostRender

/// The pool that renders a run's transitions: every task runs once, the raster memory of what
/// runs at once stays within the budget, and results can be read in order while later tasks run.
final class ExportPoolTests: XCTestCase {
    /// What the tasks saw: the weight running at each start, and the order they finished in.
    final class Log: Sendable {
        let state = Mutex((running: 0, peak: 0, atStart: [Int: Int](), finished: [Int]()))
        func start(_ i: Int, weight: Int) {
            state.withLock { s in
                s.running += weight
                s.peak = max(s.peak, s.running)
                s.atStart[i] = s.running
            }
        }
        func end(_ i: Int, weight: Int) { state.withLock { s in s.running -= weight; s.finished.append(i) } }
    }

    /// Tasks busy for a moment (real work, so two threads overlap when they may).
    func tasks(_ weights: [Int], log: Log, from first: Int = 0) -> [ExportPool.Task] {
        weights.enumerated().map { k, w in
            let i = first + k
            return ExportPool.Task(weight: w) {
                log.start(i, weight: w)
                var x = 0.0
                for k in 0..<2_000_000 { x += Double(k & 7) }
                if x < 0 { print(x) }
                log.end(i, weight: w)
            }
        }
    }

    func testEveryTaskRunsOnceOnAtMostItsThreads() {
        let log = Log()
        let pool = ExportPool(budget: 100, threads: 2)
        pool.start(tasks([40, 40, 40, 40], log: log))
        pool.waitAll()
        XCTAssertEqual(log.state.withLock { $0.finished.sorted() }, [0, 1, 2, 3])
        XCTAssertLessThanOrEqual(log.state.withLock { $0.peak }, 80, "two threads at most")
    }

    func testWhatRunsAtOnceStaysWithinTheBudget() {
        let log = Log()
        let pool = ExportPool(budget: 64, threads: 2)
        pool.start(tasks([40, 40, 40, 10, 10], log: log))
        pool.waitAll()
        XCTAssertEqual(log.state.withLock { $0.finished.count }, 5)
        XCTAssertLessThanOrEqual(log.state.withLock { $0.peak }, 64, "two 40s never ran at once")
    }

    func testATaskOverTheBudgetStillRunsAlone() {
        let log = Log()
        let pool = ExportPool(budget: 64, threads: 2)
        pool.start(tasks([10, 200, 10], log: log))
        pool.waitAll()
        XCTAssertEqual(log.state.withLock { $0.atStart[1] }, 200, "the large task ran with nothing beside it")
        XCTAssertEqual(log.state.withLock { $0.finished.count }, 3)
    }

    func testResultsAreReadInOrderAndCancelSkipsWhatHasNotStarted() {
        let log = Log()
        let pool = ExportPool(budget: 1, threads: 1)
        pool.start(tasks([1, 1, 1, 1, 1, 1], log: log))
        pool.wait(0)
        XCTAssertTrue(log.state.withLock { $0.finished.contains(0) })
        pool.cancel()
        pool.waitAll()
        let finished = log.state.withLock { $0.finished }
        XCTAssertLessThan(finished.count, 6, "tasks after the cancel were skipped")
        XCTAssertEqual(finished, Array(0..<finished.count), "one thread runs them in order")
    }

    /// A run adds each scenario's tasks as soon as it is played: tasks added while earlier
    /// ones run are run too, in order, and the workers wait for more until the pool is closed.
    func testTasksAddedWhileOthersRunAreRunUntilClosed() {
        let log = Log()
        let pool = ExportPool(budget: 100, threads: 2)
        pool.open()
        let first = pool.add(tasks([10, 10], log: log))
        pool.wait(first + 1)
        usleep(20_000) // the workers are idle now, waiting for more
        let second = pool.add(tasks([10, 10, 10], log: log, from: 10))
        XCTAssertEqual(second, 2)
        pool.close()
        pool.waitAll()
        let finished = log.state.withLock { $0.finished }
        XCTAssertEqual(Set(finished), [0, 1, 10, 11, 12])
    }

    func testTasksAddedAfterACancelAreSkipped() {
        let log = Log()
        let pool = ExportPool(budget: 100, threads: 2)
        pool.open()
        pool.wait(pool.add(tasks([10], log: log)))
        pool.cancel()
        let late = pool.add(tasks([10, 10], log: log))
        pool.wait(late)
        pool.wait(late + 1)
        pool.close()
        XCTAssertEqual(log.state.withLock { $0.finished }, [0])
    }

    /// A task marked `beside` (a trace being written and synced) runs on the pool's own thread
    /// while every worker is busy, in order with the others so marked, and is skipped by cancel
    /// when it has not started.
    func testABesideTaskRunsWhileEveryWorkerIsBusy() {
        let pool = ExportPool(budget: 100, threads: 1)
        let besideRan = DispatchSemaphore(value: 0)
        let order = Mutex([Int]())
        let sawBeside = Mutex(false)
        pool.open()
        _ = pool.add([ExportPool.Task(weight: 10) {
            // The only worker waits here for the beside tasks (at most 10 s, so a pool that
            // ran them on the worker fails instead of hanging).
            let got = besideRan.wait(timeout: .now() + 10) == .success && besideRan.wait(timeout: .now() + 10) == .success
            sawBeside.withLock { $0 = got }
        }])
        let first = pool.add((1...2).map { k in ExportPool.Task(weight: 0, beside: true) {
            order.withLock { $0.append(k) }
            besideRan.signal()
        } })
        pool.close()
        pool.waitAll()
        XCTAssertTrue(sawBeside.withLock { $0 }, "the beside tasks waited for the busy worker")
        XCTAssertEqual(order.withLock { $0 }, [1, 2])
        XCTAssertEqual(first, 1)

        let cancelled = ExportPool(budget: 100, threads: 1)
        let ran = Mutex(false)
        cancelled.open()
        cancelled.cancel()
        _ = cancelled.add([ExportPool.Task(weight: 0, beside: true) { ran.withLock { $0 = true } }])
        cancelled.close()
        cancelled.waitAll()
        XCTAssertFalse(ran.withLock { $0 }, "a beside task added after a cancel is skipped")
    }
}
