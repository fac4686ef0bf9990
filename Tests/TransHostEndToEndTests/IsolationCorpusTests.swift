import Foundation
import TransHostManifest
import TransHostPluginHost
import XCTest

/// The run-time half of the bad-plugin corpus: plugins that pass loading and then crash, hang,
/// exit, spin the virtual clock, call the host from a thread or print to stdout. Each plays
/// beside a good plugin; the run must finish, the good plugin's transitions must be
/// byte-identical to a run without the bad plugin, and the failure must be named.
final class IsolationCorpusTests: XCTestCase {
    var root = ""

    override func setUpWithError() throws {
        root = try BuildProducts.temporaryDirectory(self)
        _ = try BuildProducts.library("libfade-scale.so") // skips when the products are not built
        try FileManager.default.createDirectory(atPath: root + "/good-only", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/both", withIntermediateDirectories: true)
        try Self.write(plugin: "good", routes: ("Home", "Detail"), into: root + "/good-only")
        try Self.write(plugin: "good", routes: ("Home", "Detail"), into: root + "/both")
        try Self.scenario.write(toFile: root + "/app.json", atomically: true, encoding: .utf8)
    }

    // MARK: - the rows of the corpus

    func testAnInfiniteLoopInAnimateIsKilledByTheWallClockWatchdog() throws {
        let r = try corpus("spin", animate: "for (;;) { }")
        XCTAssertEqual(r.run.status, 3, r.run.stderr)
        XCTAssertTrue(r.run.stderr.contains("plugin spin did not return from animate_transition within 1 s (TRANSHOST_PLUGIN_TIMEOUT) during transition #2"), r.run.stderr)
        try assertFailed(r, call: "animate_transition", cause: "timeout (no return within 1 s)")
    }

    func testAnInfiniteLoopInDurationIsKilled() throws {
        let r = try corpus("spindur", duration: "for (;;) { } return 0.35;")
        XCTAssertEqual(r.run.status, 3, r.run.stderr)
        XCTAssertTrue(r.run.stderr.contains("plugin spindur did not return from transition_duration within 1 s"), r.run.stderr)
        try assertFailed(r, call: "transition_duration", cause: "timeout (no return within 1 s)")
    }

    func testAStackOverflowInAnimateCostsOnlyItsTransitions() throws {
        let r = try corpus("deep", animate: "deep_recursion(1);", helpers: """
        static volatile int sink;
        static int deep_recursion(int n) { volatile char pad[4096]; pad[0] = (char)n; sink = pad[0]; return deep_recursion(n + 1) + pad[0]; }
        """)
        XCTAssertEqual(r.run.status, 3, r.run.stderr)
        XCTAssertTrue(r.run.stderr.contains("plugin deep crashed (SIGSEGV) in animate_transition during transition #2"), r.run.stderr)
        try assertFailed(r, call: "animate_transition", cause: "SIGSEGV")
    }

    func testExitZeroInAnimateIsAFailureNotASuccess() throws {
        let r = try corpus("quitter", animate: "exit(0);")
        XCTAssertEqual(r.run.status, 3, r.run.stderr)
        XCTAssertTrue(r.run.stderr.contains("plugin quitter ended the process (exit status 0) in animate_transition during transition #2"), r.run.stderr)
        try assertFailed(r, call: "animate_transition", cause: "exit status 0")
    }

    func testExitZeroInInitIsALoadFailure() throws {
        let r = try corpus("initquit", initBody: "exit(0);")
        XCTAssertEqual(r.run.status, 3, r.run.stderr)
        XCTAssertTrue(r.run.stderr.contains("plugin initquit: the playback worker process ended with exit status 0 in init before the plugin finished loading"), r.run.stderr)
        try assertGoodTransitionsUnchanged(r)
        XCTAssertTrue(r.run.stdout.contains("#2 navigation push Home -> Bad  default"), r.run.stdout)
        // Remembered as failed to load, like a crash found by a validation child.
        let list = try BuildProducts.run(["list", "--json", "--plugins", root + "/both"], environment: r.env)
        XCTAssertTrue(list.stdout.contains("ended with exit status 0 in init"), list.stdout)
    }

    func testAZeroDurationCompletionChainDoesNotHangTheRun() throws {
        let r = try corpus("chain", animate: "host->view_add_subview(host->context_container(c), host->context_view(c, TH_KEY_TO)); again(c);", helpers: """
        static void again(void *u);
        static void nothing(void *u) { (void)u; }
        static void chained(int f, void *u) { (void)f; again(u); }
        static void again(void *u) {
            th_animation_params p = { sizeof(th_animation_params), 0, 0, 0 };
            host->animate(&p, nothing, chained, u);
        }
        """)
        XCTAssertEqual(r.run.status, 4, "the animator never completed: a contract breach \(r.run.stderr)")
        XCTAssertTrue(r.run.stderr.contains("the chain was cut"), r.run.stderr)
        XCTAssertTrue(r.run.stderr.contains("contract breach: chain: never-completed"), r.run.stderr)
        // The watchdog ended #2 later than the default would have, so only the absolute times of
        // the later transitions moved.
        try assertGoodTransitionsUnchanged(r, ignoringAbsoluteTimes: true)
    }

    func testAThreadThatCallsTheHostAfterCompletionIsRefusedAndNamed() throws {
        // The completion block completes the transition, then waits (at most 2 s) until the
        // thread has made its first call, so the refusal is reported at a known point.
        let r = try corpus("threader", animate: """
        host->view_add_subview(host->context_container(c), host->context_view(c, TH_KEY_TO));
        pthread_t t; pthread_create(&t, 0, pester, host->context_view(c, TH_KEY_TO));
        th_animation_params p = { sizeof(th_animation_params), 0.35, 0, 0 };
        host->animate(&p, noop, finish_then_wait, c);
        """, helpers: """
        static volatile int completed, called;
        static void *pester(void *v) {
            struct timespec ms = { 0, 1000000 };
            while (!completed) nanosleep(&ms, 0);
            for (;;) { host->view_set_alpha((th_view *)v, 0.5); host->context_container(0); called = 1; nanosleep(&ms, 0); }
            return 0;
        }
        static void finish_then_wait(int f, void *u) {
            (void)f;
            host->context_complete_transition((th_context *)u, 1);
            completed = 1;
            struct timespec ms = { 0, 1000000 };
            for (int i = 0; i < 2000 && !called; i++) nanosleep(&ms, 0);
        }
        """, flags: ["-pthread"])
        XCTAssertEqual(r.run.status, 4, r.run.stderr)
        XCTAssertTrue(r.run.stderr.contains("contract breach: threader: off-thread-call: a host callback was called from a thread other than the main one"), r.run.stderr)
        // The bad plugin played #2 and #3 itself (it ends at once, the baseline's default takes
        // 0.35 s each), so only the absolute times of #4 move.
        try assertGoodTransitionsUnchanged(r, ignoringAbsoluteTimes: true)
    }

    func testStdoutFromAConstructorNeverReachesTheJSONSummary() throws {
        let r = try corpus("chatty", helpers: """
        __attribute__((constructor)) static void hello(void) { printf("chatty was loaded\\n"); fflush(stdout); }
        """, extra: ["--json"])
        XCTAssertEqual(r.run.status, 0, r.run.stderr)
        let summary = try JSONSerialization.jsonObject(with: Data(r.run.stdout.utf8)) as? [String: Any]
        XCTAssertNotNil(summary?["transitions"], r.run.stdout)
        XCTAssertFalse(r.run.stdout.contains("chatty was loaded"))
        XCTAssertTrue(r.run.stderr.contains("[chatty] output: chatty was loaded"), r.run.stderr)
        for mode in ["none", "worker"] {
            let again = try BuildProducts.run(["run", "--json", "--isolation", mode, "--scenario", root + "/app.json", "--plugins", root + "/both",
                                               "--out", root + "/out-\(mode)", "--trace-only"], environment: r.env)
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)), "--isolation \(mode): \(again.stdout)")
        }
        let list = try BuildProducts.run(["list", "--json", "--plugins", root + "/both"], environment: r.env)
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(list.stdout.utf8)), list.stdout)
    }

    func testASegfaultInADestructorCostsNoOutput() throws {
        let r = try corpus("dtor", helpers: """
        __attribute__((destructor)) static void bye(void) { volatile int *p = 0; *p = 1; }
        """)
        XCTAssertEqual(r.run.status, 3, r.run.stderr)
        XCTAssertTrue(r.run.stderr.contains("after the scenario was played (its playback worker ended with SIGSEGV); every output was still made"), r.run.stderr)
        // The bad plugin played #2 and #3 itself, so only the absolute times of #4 move.
        try assertGoodTransitionsUnchanged(r, ignoringAbsoluteTimes: true)
        XCTAssertTrue(r.run.stdout.contains("#2 navigation push Home -> Bad  dtor/dtor"), r.run.stdout)
    }

    func testFailFastStopsAtTheFirstFailure() throws {
        let r = try corpus("crashfast", animate: "*(volatile int *)0 = 1;", extra: ["--fail-fast"])
        XCTAssertEqual(r.run.status, 3, r.run.stderr)
        XCTAssertTrue(r.run.stderr.contains("plugin crashfast crashed (SIGSEGV) in animate_transition during transition #2, and its playback worker died; stopped at the first plugin failure (--fail-fast)"), r.run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root + "/out-both/trace.json"))
    }

    func testListRemembersACrashWhileAnimatingUntilTheLibraryChanges() throws {
        let r = try corpus("crashlist", animate: "*(volatile int *)0 = 1;")
        XCTAssertEqual(r.run.status, 3, r.run.stderr)
        let list = try BuildProducts.run(["list", "--plugins", root + "/both"], environment: r.env)
        XCTAssertTrue(list.stdout.contains("last run: crashed while animating (SIGSEGV in animate_transition)"), list.stdout)
        // Rebuilt (a new library): forgotten.
        try Self.write(plugin: "crashlist", routes: ("Home", "Bad"), into: root + "/both")
        let after = try BuildProducts.run(["list", "--plugins", root + "/both"], environment: r.env)
        XCTAssertFalse(after.stdout.contains("crashed while animating"), after.stdout)
    }

    // MARK: - helpers

    struct CorpusRun {
        let run: BuildProducts.Output
        let baseline: [String: Any]
        let trace: [String: Any]
        let env: [String: String]
    }

    /// Builds the bad plugin (routed for push Home -> Bad) beside the good one (Home -> Detail),
    /// runs the scenario with both and with the good one only.
    func corpus(_ name: String, duration: String = "return 0.35;", animate: String = "complete_now(c);", initBody: String = "",
                helpers: String = "", flags: [String] = [], extra: [String] = []) throws -> CorpusRun {
        try Self.write(plugin: name, routes: ("Home", "Bad"), into: root + "/both", duration: duration, animate: animate,
                       initBody: initBody, helpers: helpers, flags: flags)
        let env = ["TRANSHOST_CACHE": root + "/cache.json", "TRANSHOST_PLUGIN_TIMEOUT": "1", "TRANSHOST_VALIDATE_TIMEOUT": "2"]
        let base = try BuildProducts.run(["run", "--scenario", root + "/app.json", "--plugins", root + "/good-only", "--out", root + "/out-good", "--trace-only"],
                                         environment: env)
        XCTAssertEqual(base.status, 0, base.stderr)
        let started = Date()
        let r = try BuildProducts.run(["run", "--scenario", root + "/app.json", "--plugins", root + "/both", "--out", root + "/out-both", "--trace-only"] + extra,
                                      environment: env)
        XCTAssertLessThan(Date().timeIntervalSince(started), 30, "the run finished")
        let trace = (try? JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: root + "/out-both/trace.json")))) as? [String: Any] ?? [:]
        let baseline = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: root + "/out-good/trace.json"))) as? [String: Any])
        return CorpusRun(run: r, baseline: baseline, trace: trace, env: env)
    }

    func transitions(_ trace: [String: Any]) -> [[String: Any]] { trace["transitions"] as? [[String: Any]] ?? [] }

    func canonical(_ o: Any) throws -> Data { try JSONSerialization.data(withJSONObject: o, options: [.sortedKeys]) }

    /// The good plugin's transitions (#0, #1 and #4) are byte-identical to the run without the bad one.
    func assertGoodTransitionsUnchanged(_ r: CorpusRun, ignoringAbsoluteTimes: Bool = false, file: StaticString = #filePath, line: UInt = #line) throws {
        func relative(_ t: [String: Any]) -> [String: Any] {
            guard ignoringAbsoluteTimes else { return t }
            var t = t
            t["start"] = nil; t["end"] = nil; t["appearance"] = nil
            return t
        }
        let with = transitions(r.trace).map(relative), without = transitions(r.baseline).map(relative)
        XCTAssertEqual(with.count, 5, "every transition was played", file: file, line: line)
        XCTAssertEqual(without.count, 5, file: file, line: line)
        for i in [0, 1, 4] where i < with.count && i < without.count {
            XCTAssertEqual((with[i]["animator"] as? [String: Any])?["plugin"] as? String, "good", file: file, line: line)
            XCTAssertEqual(try canonical(with[i]), try canonical(without[i]), "transition #\(i) of the good plugin differs", file: file, line: line)
        }
    }

    /// Transition #2 is marked plugin-failed and played by the default; #3 (its reverse) too.
    func assertFailed(_ r: CorpusRun, call: String, cause: String, file: StaticString = #filePath, line: UInt = #line) throws {
        try assertGoodTransitionsUnchanged(r, file: file, line: line)
        let ts = transitions(r.trace)
        guard ts.count == 5 else { return }
        let note = try XCTUnwrap(ts[2]["pluginFailure"] as? [String: Any], "transition #2 names the failure", file: file, line: line)
        XCTAssertEqual(note["kind"] as? String, "plugin-failed", file: file, line: line)
        XCTAssertEqual(note["call"] as? String, call, file: file, line: line)
        XCTAssertEqual(note["cause"] as? String, cause, file: file, line: line)
        XCTAssertTrue(ts[2]["animator"] is NSNull, "the default played #2", file: file, line: line)
        XCTAssertEqual((ts[3]["pluginFailure"] as? [String: Any])?["kind"] as? String, "replaced-after-failure", file: file, line: line)
        XCTAssertEqual((r.trace["pluginFailures"] as? [[String: Any]])?.count, 1, file: file, line: line)
        XCTAssertTrue(r.run.stdout.contains("#2 navigation push Home -> Bad  default  0.35 s  completed"), r.run.stdout, file: file, line: line)
    }

    static let scenario = """
    {"format": "transhost-scenario/1", "name": "isolation", "device": "iphone-5",
     "types": {"Home": "UIViewController", "Detail": "UIViewController", "Bad": "UIViewController"},
     "controllers": {"h": {"type": "Home", "view": {"background": "#2f6fdf"}}, "d": {"type": "Detail", "view": {"background": "#e0533c"}},
                     "b": {"type": "Bad", "view": {"background": "#33aa55"}}},
     "root": {"container": "navigation", "stack": ["h"]},
     "script": [{"action": "push", "controller": "d"}, {"action": "pop"}, {"action": "push", "controller": "b"}, {"action": "pop"},
                {"action": "push", "controller": "d"}]}
    """

    /// A C plugin with one animator routed for push FROM -> TO (and its pop back). It takes as
    /// long as the host's default transition (0.35 s), so when it behaves, the transitions
    /// after it start at the same instants as with the default.
    static func write(plugin name: String, routes: (String, String), into dir: String, duration: String = "return 0.35;",
                      animate: String = "complete_now(c);", initBody: String = "", helpers: String = "", flags: [String] = []) throws {
        let pdir = dir + "/" + name
        try FileManager.default.createDirectory(atPath: pdir, withIntermediateDirectories: true)
        let source = """
        #define _POSIX_C_SOURCE 200809L
        #include "transhost.h"
        #include <pthread.h>
        #include <stdio.h>
        #include <stdlib.h>
        #include <time.h>
        static const th_host_api *host;
        static void noop(void *u) { (void)u; }
        static void done(int f, void *u) { (void)f; host->context_complete_transition((th_context *)u, 1); }
        static void complete_now(th_context *c) {
            host->view_add_subview(host->context_container(c), host->context_view(c, TH_KEY_TO));
            th_animation_params p = { sizeof(th_animation_params), 0.35, 0, 0 };
            host->animate(&p, noop, done, c);
        }
        \(helpers)
        static double dur(const th_animator *s, th_context *c) { (void)s; (void)c; \(duration) }
        static void anim(const th_animator *s, th_context *c) { (void)s; (void)complete_now; \(animate) }
        static const th_animator A = { sizeof(th_animator), "\(name)", dur, anim, NULL, NULL };
        static int init(const th_host_api *h) { host = h; \(initBody) return 0; }
        static const th_animator *get(const char *id) { (void)id; return &A; }
        TH_EXPORT const th_plugin_entry transhost_plugin_entry = {
            TH_ABI_MAJOR, TH_ABI_MINOR, sizeof(th_plugin_entry), "\(name)", "1.0.0", init, NULL, get };
        """
        let lib = pdir + "/lib\(name).so"
        try BuildProducts.compileC(source, to: lib + ".new", extraFlags: flags)
        _ = rename(lib + ".new", lib)
        try """
        {"format": "transhost-manifest/1", "name": "\(name)", "version": "1.0.0", "abi": "\(HostABI.text)", "library": "lib\(name).so",
         "animators": [{"id": "\(name)", "routes": [{"container": "navigation", "operations": ["push"], "from": "\(routes.0)", "to": "\(routes.1)"}]}]}
        """.write(toFile: pdir + "/manifest.json", atomically: true, encoding: .utf8)
    }
}

/// Child processes never outlive the host: a worker (or a validation child) stuck in a plugin
/// dies when transhost is killed, by PR_SET_PDEATHSIG.
final class WorkerLifetimeTests: XCTestCase {
    func testAWorkerStuckInAPluginDiesWithItsHost() throws {
        let root = try BuildProducts.temporaryDirectory(self)
        _ = try BuildProducts.library("libfade-scale.so")
        // A worker stuck in animate; in the host, a validation child stuck in init.
        try IsolationCorpusTests.write(plugin: "stuck", routes: ("Home", "Bad"), into: root + "/worker", animate: "for (;;) { }")
        try IsolationCorpusTests.write(plugin: "stuck", routes: ("Home", "Bad"), into: root + "/none", initBody: "for (;;) { }")
        try IsolationCorpusTests.scenario.write(toFile: root + "/app.json", atomically: true, encoding: .utf8)
        for mode in ["worker", "none"] {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: BuildProducts.transhost)
            p.arguments = ["run", "--scenario", root + "/app.json", "--plugins", root + "/" + mode, "--out", root + "/out", "--trace-only",
                           "--isolation", mode]
            var env = ProcessInfo.processInfo.environment
            env["TRANSHOST_CACHE"] = root + "/cache.json"
            env["TRANSHOST_PLUGIN_TIMEOUT"] = "600"
            env["TRANSHOST_VALIDATE_TIMEOUT"] = "600"
            p.environment = env
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            // A failed assertion below must not leave the host (and its stuck child) running.
            defer { if p.isRunning { kill(p.processIdentifier, SIGKILL); p.waitUntilExit() } }
            // Wait (at most 10 s) for the child that runs plugin code.
            var child: Int32?
            for _ in 0..<1000 where child == nil {
                child = Self.children(of: p.processIdentifier).first
                if child == nil { usleep(10_000) }
            }
            let pid = try XCTUnwrap(child, "\(mode): no worker or validation child was started")
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
            var gone = false
            for _ in 0..<500 where !gone {
                gone = kill(pid, 0) != 0 || Self.isZombie(pid)
                if !gone { usleep(10_000) }
            }
            XCTAssertTrue(gone, "\(mode): child \(pid) outlived its host")
        }
    }

    /// The child processes of `parent`: workers forked from it or started with exec, and
    /// validation children (the parent pid of /proc/PID/stat, after the command name).
    static func children(of parent: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && fields[1] == Substring(String(parent))
        }
    }

    static func isZombie(_ pid: Int32) -> Bool {
        guard let s = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        return s.split(separator: ")").last?.trimmingCharacters(in: .whitespaces).hasPrefix("Z") == true
    }
}

/// Playing in workers and in the host gives the same bytes: the worker sends the played run
/// back bit-exact (GalleryGoldenTests pins the worker mode's pictures; this pins the traces of
/// both modes against each other).
final class IsolationModesTests: XCTestCase {
    func testTheGalleryTracesAreTheSameInWorkersAndInTheHost() throws {
        _ = try BuildProducts.library("libfade-scale.so")
        let root = try BuildProducts.temporaryDirectory(self)
        var traces: [String: [String: Data]] = [:]
        for mode in ["worker", "none"] {
            let r = try BuildProducts.run(["run", "--trace-only", "-q", "--isolation", mode, "--out", root + "/" + mode])
            XCTAssertEqual(r.status, 0, r.stderr)
            XCTAssertTrue(r.stdout.isEmpty, r.stdout)
            for demo in try FileManager.default.contentsOfDirectory(atPath: root + "/" + mode) {
                traces[mode, default: [:]][demo] = FileManager.default.contents(atPath: root + "/\(mode)/\(demo)/trace.json")
            }
        }
        XCTAssertEqual(traces["worker"]?.count, try BuildProducts.galleryDemoCount())
        XCTAssertEqual(traces["worker"], traces["none"])
    }
}
