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

    /// A worker's status page is opened at the lowest free descriptor, and in a process whose
    /// fd 3 is free that is 3, the number its result pipe is passed as. The worker still gets
    /// each under its own number and plays (it exited with status 71 before it played).
    func testAWorkerStartedWhileFd3IsFreePlays() throws {
        let held = fcntl(3, F_GETFD) >= 0 ? fcntl(3, F_DUPFD_CLOEXEC, 300) : -1
        if held >= 0 { close(3) }
        defer {
            // Give fd 3 back to whatever held it, once the worker's descriptors are closed.
            if held >= 0 { if fcntl(3, F_GETFD) < 0 { dup2(held, 3) }; close(held) }
        }
        do {
            let standby = try XCTUnwrap(Supervisor.standby(options: IsolationOptions()))
            if standby.spawned.status.fd != 3 {
                // Another thread took fd 3 first: the worker still has to play.
                print("StandbyWorkerTests: the status page is fd \(standby.spawned.status.fd), not 3")
            }
            let plays = play(standby: standby)
            XCTAssertNil(plays.first?.error, "\(plays.first?.error ?? "")")
            XCTAssertEqual(plays.first?.run?.transitions.count, 2)
        }
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
