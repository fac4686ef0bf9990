import XCTest
@testable import TransHostIsolation
import TransHostDiscovery
import TransHostPluginHost
import TransHostScenario
#if canImport(Glibc)
import Glibc
#endif

/// A run starts its first playback worker before it scans plugins (Supervisor.standby): the
/// scenario is played by that worker, a worker that is never used is killed and reaped, and
/// one that died while it waited is replaced, so the run still plays.
final class StandbyWorkerTests: XCTestCase {
    override func setUp() {
        ChildProcess.executable = BuildProducts.transhost
    }

    func play(standby: Supervisor.Standby?) -> [SupervisedPlay] {
        Supervisor.playAll([.builtInDefault], scan: PluginScan(records: [], warnings: []), fps: .standard, loading: PluginLoadOptions(),
                           unroutable: [], options: IsolationOptions(), standby: standby)
    }

    /// Whether `pid` is still a process (a zombie counts: it has not been reaped).
    func exists(_ pid: pid_t) -> Bool { kill(pid, 0) == 0 || errno != ESRCH }

    func testTheWorkerStartedAheadPlaysTheFirstScenario() throws {
        let standby = try XCTUnwrap(Supervisor.standby(options: IsolationOptions()))
        let pid = standby.spawned.pid
        XCTAssertTrue(exists(pid), "the worker is started at once and waits for its request")
        let ahead = play(standby: standby)
        XCTAssertEqual(standby.spawned.input, -1, "the request went to the worker started ahead")
        XCTAssertFalse(exists(pid), "the worker that played is reaped")
        let fresh = play(standby: nil)
        let a = try XCTUnwrap(ahead.first?.run, "ahead: \(ahead.first?.error ?? "no error") \(ahead.first?.warnings ?? [])")
        let b = try XCTUnwrap(fresh.first?.run, "fresh: \(fresh.first?.error ?? "no error") \(fresh.first?.warnings ?? [])")
        XCTAssertNil(ahead.first?.error)
        XCTAssertEqual(a.transitions.count, 2, "the built-in scenario's push and pop")
        XCTAssertEqual(a.transitions.map(\.frames.count), b.transitions.map(\.frames.count))
        XCTAssertEqual(a.finalStack, b.finalStack)
    }

    func testAWorkerStartedAheadAndNeverUsedIsKilledAndReaped() throws {
        var pid: pid_t = 0
        do {
            let standby = try XCTUnwrap(Supervisor.standby(options: IsolationOptions()))
            pid = standby.spawned.pid
            XCTAssertTrue(exists(pid))
        }
        XCTAssertFalse(exists(pid), "a run that stops before it plays leaves no worker behind")
    }

    func testAWorkerThatDiedWhileItWaitedIsReplaced() throws {
        let standby = try XCTUnwrap(Supervisor.standby(options: IsolationOptions()))
        let pid = standby.spawned.pid
        XCTAssertEqual(kill(pid, SIGKILL), 0)
        // Let it become a zombie before the request is sent.
        for _ in 0..<200 where (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.contains(") Z ") != true { usleep(5_000) }
        let plays = play(standby: standby)
        XCTAssertNil(plays.first?.error, "\(plays.first?.error ?? "")")
        XCTAssertEqual(plays.first?.run?.transitions.count, 2, "a fresh worker played the scenario")
        XCTAssertFalse(exists(pid), "the dead worker was reaped")
    }

    func testNoWorkerIsStartedAheadWithoutIsolation() {
        var options = IsolationOptions()
        options.mode = .none
        XCTAssertNil(Supervisor.standby(options: options))
    }
}
