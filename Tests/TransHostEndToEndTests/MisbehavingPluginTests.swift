import Foundation
import TransHostPluginHost
import TransHostRouting
import TransHostManifest
import TransHostFFI
import TransHostDiscovery
import XCTest

/// A plugin that logs, declares an absurd duration and completes twice: the host caps the
/// duration, reports every breach in the trace and the exit code, shows the log line, and the
/// app stays consistent.
final class MisbehavingPluginTests: XCTestCase {
    /// Builds a one-animator C plugin routed for push Src -> Dst into ROOT/plugins/NAME, writes a
    /// scenario that makes that push, and runs it with the real binary.
    func runPlugin(named name: String, body: String,
                   script: String = #"[{"action": "push", "controller": "d"}]"#, extra: [String] = [],
                   environment: [String: String] = [:]) throws -> (BuildProducts.Output, String) {
        let root = try BuildProducts.temporaryDirectory(self)
        try BuildProducts.writePushPlugin(named: name, body: body, script: script, in: root)
        let r = try BuildProducts.run(["run", "--scenario", root + "/app.json", "--plugins", root + "/plugins", "--out", root + "/out", "--trace-only"] + extra,
                                      environment: environment)
        return (r, root)
    }

    func testBreachesReachTheTraceAndTheExitCodeAndLogsReachStderr() throws {
        let (r, root) = try runPlugin(named: "rogue", body: """
        #include "transhost.h"
        static const th_host_api *host;
        static double duration(const th_animator *self, th_context *ctx) { (void)self; (void)ctx; return 1e9; }
        static void animate(const th_animator *self, th_context *ctx) {
            (void)self;
            host->log(TH_LOG_WARNING, "rogue says hello");
            host->view_add_subview(host->context_container(ctx), host->context_view(ctx, TH_KEY_TO));
            host->context_complete_transition(ctx, 1);
            host->context_complete_transition(ctx, 1);
        }
        static const th_animator rogue = { sizeof(th_animator), "rogue", duration, animate, 0, 0 };
        static int init(const th_host_api *h) { host = h; return 0; }
        static const th_animator *get(const char *id) { (void)id; return &rogue; }
        TH_EXPORT const th_plugin_entry transhost_plugin_entry = { TH_ABI_MAJOR, TH_ABI_MINOR, sizeof(th_plugin_entry),
            "rogue", "1.0.0", init, 0, get };
        """)
        XCTAssertEqual(r.status, 4, "an animator broke the contract: \(r.stderr)")
        XCTAssertTrue(r.stderr.contains("[rogue] warning: rogue says hello"), r.stderr)
        XCTAssertTrue(r.stdout.contains("#0 navigation push Src -> Dst  rogue/rogue  60 s  completed"), r.stdout)
        let trace = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: root + "/out/trace.json"))) as? [String: Any])
        let t = try XCTUnwrap((trace["transitions"] as? [[String: Any]])?.first)
        let kinds = (t["breaches"] as? [[String: Any]])?.compactMap { $0["kind"] as? String } ?? []
        XCTAssertEqual(Set(kinds), ["invalid-value", "completed-twice"], "\(kinds)")
        XCTAssertTrue(((t["breaches"] as? [[String: Any]]) ?? []).allSatisfy { $0["plugin"] as? String == "rogue" })
        XCTAssertEqual(((trace["final"] as? [String: Any])?["stack"] as? [String]), ["Src", "Dst"])
    }

    /// A plugin that cancels its own push and leaves the from-view faded: the host puts the alpha
    /// back, and the trace and stderr say so, because on a device the view would stay faded.
    func testRepairsReachTheTraceAndStderr() throws {
        let (r, root) = try runPlugin(named: "fader", body: """
        #include "transhost.h"
        static const th_host_api *host;
        static double duration(const th_animator *self, th_context *ctx) { (void)self; (void)ctx; return 0.2; }
        static void animate(const th_animator *self, th_context *ctx) {
            (void)self;
            host->view_set_alpha(host->context_view(ctx, TH_KEY_FROM), 0.25);
            host->context_complete_transition(ctx, 0);
        }
        static const th_animator fader = { sizeof(th_animator), "fader", duration, animate, 0, 0 };
        static int init(const th_host_api *h) { host = h; return 0; }
        static const th_animator *get(const char *id) { (void)id; return &fader; }
        TH_EXPORT const th_plugin_entry transhost_plugin_entry = { TH_ABI_MAJOR, TH_ABI_MINOR, sizeof(th_plugin_entry),
            "fader", "1.0.0", init, 0, get };
        """)
        XCTAssertTrue(r.stderr.contains("repaired what fader left: from.alpha"), r.stderr)
        XCTAssertTrue(r.stdout.contains("cancelled  1 frames  1 repair(s) by the host"), r.stdout)
        let trace = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: root + "/out/trace.json"))) as? [String: Any])
        let t = try XCTUnwrap((trace["transitions"] as? [[String: Any]])?.first)
        XCTAssertEqual(t["outcome"] as? String, "cancelled")
        let repairs = try XCTUnwrap(t["repairs"] as? [[String: Any]], "\(t.keys.sorted())")
        XCTAssertEqual(repairs.map { $0["subject"] as? String }, ["from.alpha"])
        XCTAssertEqual(repairs.first?["kind"] as? String, "field-restored")
        XCTAssertTrue((repairs.first?["message"] as? String)?.contains("at 0.25") ?? false, "\(repairs)")
        XCTAssertEqual(t["restored"] as? [String], ["from.alpha"])
    }

    /// A plugin that says 0.1 s but completes after 30 s (its block animates a helper view the
    /// watchdog does not stop): the watchdog completes the push, and the late call is reported as
    /// `completed-late`, not as a second call.
    func testALateCompletionAfterTheWatchdogIsCompletedLate() throws {
        let (r, root) = try runPlugin(named: "sloth", body: """
        #include "transhost.h"
        static const th_host_api *host;
        static th_context *current;
        static th_view *helper;
        static double duration(const th_animator *self, th_context *ctx) { (void)self; (void)ctx; return 0.1; }
        static void fade(void *user) { (void)user; host->view_set_alpha(helper, 0); }
        static void done(int finished, void *user) { (void)finished; (void)user; host->context_complete_transition(current, 1); }
        static void animate(const th_animator *self, th_context *ctx) {
            (void)self;
            current = ctx;
            host->view_add_subview(host->context_container(ctx), host->context_view(ctx, TH_KEY_TO));
            helper = host->view_create((th_rect){0, 0, 10, 10});
            host->view_add_subview(host->context_container(ctx), helper);
            th_animation_params p = { sizeof(th_animation_params), 30.0, 0.0, 0 };
            host->animate(&p, fade, done, 0);
        }
        static const th_animator sloth = { sizeof(th_animator), "sloth", duration, animate, 0, 0 };
        static int init(const th_host_api *h) { host = h; return 0; }
        static const th_animator *get(const char *id) { (void)id; return &sloth; }
        TH_EXPORT const th_plugin_entry transhost_plugin_entry = { TH_ABI_MAJOR, TH_ABI_MINOR, sizeof(th_plugin_entry),
            "sloth", "1.0.0", init, 0, get };
        """, script: #"[{"action": "push", "controller": "d"}, {"action": "wait", "seconds": 40}]"#)
        XCTAssertEqual(r.status, 4, r.stderr)
        XCTAssertTrue(r.stderr.contains("completed-late"), r.stderr)
        XCTAssertFalse(r.stderr.contains("completed-twice"), r.stderr)
        let trace = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: root + "/out/trace.json"))) as? [String: Any])
        let t = try XCTUnwrap((trace["transitions"] as? [[String: Any]])?.first)
        let kinds = (t["breaches"] as? [[String: Any]])?.compactMap { $0["kind"] as? String } ?? []
        XCTAssertEqual(kinds, ["never-completed", "completed-late"])
    }

    /// A plugin that passes validation but crashes while it animates: its worker dies, the host
    /// names it, the call and the signal, plays the default instead and exits 3. In the host
    /// (`--isolation none`) the crash handler names it and stops the run with exit 3 instead of
    /// a bare "Segmentation fault".
    func testAPluginThatCrashesWhileAnimatingIsNamed() throws {
        let crashy = """
        #include "transhost.h"
        static double duration(const th_animator *self, th_context *ctx) { (void)self; (void)ctx; return 0.3; }
        static void animate(const th_animator *self, th_context *ctx) {
            (void)self; (void)ctx;
            volatile int *p = 0;
            *p = 1;
        }
        static const th_animator crashy = { sizeof(th_animator), "crashy", duration, animate, 0, 0 };
        static int init(const th_host_api *h) { (void)h; return 0; }
        static const th_animator *get(const char *id) { (void)id; return &crashy; }
        TH_EXPORT const th_plugin_entry transhost_plugin_entry = { TH_ABI_MAJOR, TH_ABI_MINOR, sizeof(th_plugin_entry),
            "crashy", "1.0.0", init, 0, get };
        """
        let (r, _) = try runPlugin(named: "crashy", body: crashy)
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("plugin failure: plugin crashy crashed (SIGSEGV) in animate_transition during transition #0"), r.stderr)
        XCTAssertTrue(r.stdout.contains("#0 navigation push Src -> Dst  default  0.35 s  completed"), r.stdout)
        let (inHost, _) = try runPlugin(named: "crashy", body: crashy, extra: ["--isolation", "none"])
        XCTAssertEqual(inHost.status, 3, inHost.stderr)
        XCTAssertTrue(inHost.stderr.contains("transhost: plugin crashy crashed (SIGSEGV) in animate_transition; the run was stopped (exit 3)"), inHost.stderr)
    }

    /// A plugin that builds a 100,000-deep view chain in the container: the host refuses every
    /// level past View.maxDepth as a breach, and the run (trace, snapshots, teardown) survives.
    func testA100000DeepViewChainIsRefusedPastTheDepthLimit() throws {
        let (r, root) = try runPlugin(named: "deep", body: """
        #include "transhost.h"
        static const th_host_api *host;
        static double duration(const th_animator *self, th_context *ctx) { (void)self; (void)ctx; return 0.1; }
        static void animate(const th_animator *self, th_context *ctx) {
            (void)self;
            th_view *container = host->context_container(ctx);
            th_view *tip = container;
            th_rect f = { 0, 0, 1, 1 };
            for (int i = 0; i < 100000; i++) {
                th_view *v = host->view_create(f);
                host->view_add_subview(tip, v);
                tip = v;
            }
            host->view_snapshot(container, 0);
            host->view_add_subview(container, host->context_view(ctx, TH_KEY_TO));
            host->context_complete_transition(ctx, 1);
        }
        static const th_animator deep = { sizeof(th_animator), "deep", duration, animate, 0, 0 };
        static int init(const th_host_api *h) { host = h; return 0; }
        static const th_animator *get(const char *id) { (void)id; return &deep; }
        TH_EXPORT const th_plugin_entry transhost_plugin_entry = { TH_ABI_MAJOR, TH_ABI_MINOR, sizeof(th_plugin_entry),
            "deep", "1.0.0", init, 0, get };
        """,
            // 100,000 refused host calls take about 3 s of CPU; on a loaded machine that is more
            // wall time than the default 5 s plugin timeout, which is not what this test is about.
            environment: ["TRANSHOST_PLUGIN_TIMEOUT": "120"])
        XCTAssertEqual(r.status, 4, "a breach, not a crash: \(r.stderr.suffix(2000))")
        XCTAssertTrue(r.stderr.contains("levels deep; at most 128 are allowed; the call was ignored"), String(r.stderr.prefix(2000)))
        XCTAssertTrue(r.stdout.contains("#0 navigation push Src -> Dst  deep/deep"), r.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/out/trace.json"))
    }
}
