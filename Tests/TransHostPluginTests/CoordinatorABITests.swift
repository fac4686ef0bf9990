import Foundation
import TransHostCoordinators
import TransHostCore
import TransHostRun
import TransHostScenario
import TransHostTestSupport
import XCTest

/// ABI 1.3's transition coordinator from C: an animator asks the coordinator to fade a view
/// alongside its own animation; the view follows the transition frame by frame, the completion
/// runs after the end with the outcome, and a crash inside an alongside block costs only the
/// plugin's transition. A 1.2 plugin's shorter th_delegate still loads.
final class CoordinatorABITests: XCTestCase {
    static let scenarioJSON = """
    {"format": "transhost-scenario/1", "name": "coordinator-abi",
     "types": {"Src": "UIViewController", "Dst": "UIViewController"},
     "controllers": {"a": {"type": "Src", "view": {"background": "#2f6fdf"}},
                     "b": {"type": "Dst", "view": {"background": "#e0533c",
                           "subviews": [{"name": "title", "frame": [20, 80, 280, 44], "background": "#ffffff"}]}}},
     "root": {"container": "navigation", "stack": ["a"]},
     "script": [{"action": "push", "controller": "b"}, {"action": "pop"}]}
    """

    /// A delegate plugin: its animator slides nothing, fades the to-view in over 0.4 s (linear)
    /// and fades the to-view's "title" in alongside (MODE 1), or crashes in the alongside block
    /// (MODE 2). `delegateSize` is the th_delegate struct_size it reports.
    static func source(name: String, abi: (Int, Int), delegateSize: String = "sizeof(th_delegate)") -> String {
        """
        #include "transhost.h"
        #include <signal.h>
        #include <stdio.h>
        #include <string.h>
        static const th_host_api *host;
        static double dur(const th_animator *s, th_context *c) { (void)s; (void)c; return 0.4; }
        static void fade_in(void *u) { host->view_set_alpha(host->context_view((th_context *)u, TH_KEY_TO), 1); }
        static void done(int f, void *u) { (void)f; th_context *c = u; host->context_complete_transition(c, !host->context_transition_was_cancelled(c)); }
        static void title_in(th_context *c, void *u) {
            (void)c;
        #if MODE == 2
            raise(SIGSEGV);
        #endif
            host->view_set_alpha((th_view *)u, 1);
        }
        static void title_done(th_context *c, void *u) {
            (void)u;
            char line[160];
            snprintf(line, sizeof line, "alongside completion: cancelled %d, percent %.2f, duration %.2f, context gone %d",
                     host->context_transition_was_cancelled(c), host->coordinator_percent_complete(c),
                     host->coordinator_transition_duration(c), host->controller_transition_context(host->context_controller(c, TH_KEY_TO)) == NULL);
            host->log(TH_LOG_INFO, line);
        }
        static void anim(const th_animator *s, th_context *c) {
            th_view *to = host->context_view(c, TH_KEY_TO);
            host->view_add_subview(host->context_container(c), to);
            host->view_set_alpha(to, 0);
        #if MODE >= 1
            if (host->context_operation(c) == TH_OP_PUSH) {
                th_view *title = host->view_find_named(to, "title");
                host->view_set_alpha(title, 0);
                char line[120];
                snprintf(line, sizeof line, "coordinator of the pushed controller is the context: %d",
                         host->controller_transition_context(host->context_controller(c, TH_KEY_TO)) == c);
                host->log(TH_LOG_INFO, line);
                host->coordinator_animate_alongside(c, title_in, title_done, title);
            }
        #endif
            th_animation_params p = { sizeof(th_animation_params), dur(s, c), 0, TH_ANIM_CURVE_LINEAR };
            host->animate(&p, fade_in, done, c);
        }
        static const th_animator A = { sizeof(th_animator), "fade", dur, anim, NULL, NULL };
        static const th_animator *animator_for(const th_delegate *d, const th_transition_request *r) { (void)d; (void)r; return &A; }
        static th_delegate D = { 0, "main", animator_for, NULL, NULL, NULL, NULL };
        static int init(const th_host_api *h) { host = h; D.struct_size = (uint32_t)(\(delegateSize)); return 0; }
        static void deinit(void) { }
        static const th_animator *get(const char *id) { (void)id; return NULL; }
        static const th_delegate *get_delegate(const char *id) { return strcmp(id, "main") == 0 ? &D : NULL; }
        TH_EXPORT const th_plugin_entry transhost_plugin_entry = {
            \(abi.0), \(abi.1), sizeof(th_plugin_entry), "\(name)", "1.0.0", init, deinit, get, get_delegate };
        """
    }

    /// `dir/<name>/` with the library compiled from `source` with MODE defined, and a manifest
    /// whose delegate routes every navigation transition.
    func install(_ name: String, abi: (Int, Int), mode: Int, delegateSize: String = "sizeof(th_delegate)", into dir: String) throws {
        let pdir = dir + "/" + name
        try FileManager.default.createDirectory(atPath: pdir, withIntermediateDirectories: true)
        let src = pdir + "/plugin.c"
        try Self.source(name: name, abi: abi, delegateSize: delegateSize).write(toFile: src, atomically: true, encoding: .utf8)
        let cc = try TestProcess.run("/usr/bin/env", ["cc", "-shared", "-fPIC", "-std=gnu11", "-DMODE=\(mode)",
                                                      "-I", Products.packageRoot + "/Sources/CTransHost/include", "-o", pdir + "/lib\(name).so", src])
        XCTAssertEqual(cc.status, 0, cc.stderr)
        try """
        {"format": "transhost-manifest/1", "name": "\(name)", "version": "1.0.0", "abi": "\(abi.0).\(abi.1)", "library": "lib\(name).so",
         "delegates": [{"id": "main", "routes": [{"container": "navigation"}]}]}
        """.write(toFile: pdir + "/manifest.json", atomically: true, encoding: .utf8)
    }

    func testAnAlongsideFadeFollowsThePushAndItsCompletionRunsAfterTheEnd() throws {
        let dir = try Products.temporaryDirectory(self)
        try install("coord-c", abi: (1, 3), mode: 1, into: dir)
        let scan = try Products.scan(dir)
        let p = Playback.play(try Products.scenario(Self.scenarioJSON, test: self), scan: scan)
        let run = p.run
        XCTAssertEqual(run.breaches, [])
        XCTAssertEqual(run.transitions.map(\.record.animator?.plugin), ["coord-c", "coord-c"])
        let push = run.transitions[0]
        // Both the animator's linear fade and the alongside block (ease-in-out, the
        // coordinator's curve) run over the transition's 0.4 s from its start.
        for t in [0.0, 0.1, 0.2, 0.3, 0.4] {
            let frame = try push.frame(at: t)
            XCTAssertEqual(try frame.node(named: "title").state.alpha, Reference.easeInOut(t / 0.4), accuracy: 1e-4, "t = \(t)")
            XCTAssertEqual(try frame.node(named: "Dst").state.alpha, t / 0.4, accuracy: 1e-9, "t = \(t)")
        }
        XCTAssertEqual(run.logs.filter { $0.contains("coord-c") }, [
            "[coord-c] info: coordinator of the pushed controller is the context: 1",
            "[coord-c] info: alongside completion: cancelled 0, percent 1.00, duration 0.40, context gone 1"])
    }

    func testA12DelegateWithTheShorterStructStillLoadsAndAnimates() throws {
        let dir = try Products.temporaryDirectory(self)
        // th_delegate as 1.2 defined it ends at user: 1.3's presentation_controller_for is not there.
        try install("old-delegate", abi: (1, 2), mode: 0, delegateSize: "offsetof(th_delegate, presentation_controller_for)", into: dir)
        let scan = try Products.scan(dir)
        XCTAssertEqual(scan.records.map(\.status), [.ok])
        let run = Playback.play(try Products.scenario(Self.scenarioJSON, test: self), scan: scan).run
        XCTAssertEqual(run.breaches, [])
        XCTAssertEqual(run.loadFailures.count, 0, "\(run.loadFailures) \(run.warnings)")
        XCTAssertEqual(run.transitions.map(\.record.animator?.plugin), ["old-delegate", "old-delegate"], "\(run.warnings) \(run.logs)")
    }

    /// Through the real binary, whose playback worker isolates plugin code: a crash inside an
    /// alongside block is the plugin's failure, named, and the run goes on.
    func testACrashInAnAlongsideBlockCostsOnlyThePluginsTransitions() throws {
        let dir = try Products.temporaryDirectory(self)
        try install("coord-crash", abi: (1, 3), mode: 2, into: dir)
        let scenario = dir + "/scenario.json"
        try Self.scenarioJSON.write(toFile: scenario, atomically: true, encoding: .utf8)
        let r = try Products.run(Products.transhost, ["run", "--scenario", scenario, "--plugins", dir, "--trace-only", "--out", dir + "/out"],
                                 environment: ["TRANSHOST_CACHE": dir + "/cache.json"])
        XCTAssertEqual(r.status, 3, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("plugin coord-crash crashed (SIGSEGV) in its alongside animation"), r.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/out/trace.json"), "the trace is still written: \(r.stdout)")
    }
}
