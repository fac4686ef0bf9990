import Foundation
import TransHostCoordinators
import TransHostCore
import TransHostRun
import TransHostScenario
import TransHostTestSupport
import XCTest

/// ABI 1.3's th_presentation_controller from C: a delegate vends it for a `.custom` present; the
/// host lays the sheet out at its frame, keeps the presenter's view, calls its hooks in order,
/// and the dimming view it fades through the coordinator follows the transition. Bad answers
/// and crashes in its calls are the plugin's, reported, never the host's.
final class PresentationABITests: XCTestCase {
    static let scenarioJSON = """
    {"format": "transhost-scenario/1", "name": "presentation-abi",
     "types": {"Home": "UIViewController", "Sheet": "UIViewController"},
     "controllers": {"home": {"type": "Home", "view": {"background": "#2f6fdf"}},
                     "sheet": {"type": "Sheet", "modalPresentationStyle": "custom", "view": {"background": "#ffffff"}}},
     "root": {"container": "single", "controller": "home"},
     "script": [{"action": "present", "controller": "sheet"}, {"action": "dismiss"}]}
    """

    /// MODE 0: a well-behaved sheet; 1: frame_of_presented_view returns NaN; 2: its
    /// presentation_will_begin crashes; 3: presented_view wraps the controller's view.
    static let source = """
    #include "transhost.h"
    #include <math.h>
    #include <signal.h>
    #include <stdio.h>
    #include <string.h>
    static const th_host_api *host;
    static th_view *dimming;
    static void say(const char *what) { host->log(TH_LOG_INFO, what); }
    static double dur(const th_animator *s, th_context *c) { (void)s; (void)c; return 0.5; }
    static void slide(void *u) {
        th_context *c = u;
        th_view *v = host->context_view(c, host->context_operation(c) == TH_OP_PRESENT ? TH_KEY_TO : TH_KEY_FROM);
        th_affine t = {1, 0, 0, 1, 0, host->context_operation(c) == TH_OP_PRESENT ? 0 : 284};
        host->view_set_transform(v, t);
    }
    static void done(int f, void *u) {
        (void)f; th_context *c = u;
        th_affine id = {1, 0, 0, 1, 0, 0};
        host->view_set_transform(host->context_view(c, host->context_operation(c) == TH_OP_PRESENT ? TH_KEY_TO : TH_KEY_FROM), id);
        host->context_complete_transition(c, !host->context_transition_was_cancelled(c));
    }
    static void anim(const th_animator *s, th_context *c) {
        char line[120];
        snprintf(line, sizeof line, "animate: from-view %s, to-view %s, style %d",
                 host->context_view(c, TH_KEY_FROM) ? "given" : "NULL", host->context_view(c, TH_KEY_TO) ? "given" : "NULL",
                 host->context_presentation_style(c));
        say(line);
        if (host->context_operation(c) == TH_OP_PRESENT) {
            th_view *sheet = host->context_view(c, TH_KEY_TO);
            host->view_set_frame(sheet, host->context_final_frame(c, host->context_controller(c, TH_KEY_TO)));
            host->view_add_subview(host->context_container(c), sheet);
            th_affine below = {1, 0, 0, 1, 0, 284};
            host->view_set_transform(sheet, below);
        }
        th_animation_params p = { sizeof(th_animation_params), dur(s, c), 0, TH_ANIM_CURVE_LINEAR };
        host->animate(&p, slide, done, c);
    }
    static void ended(const th_animator *s, int completed) { (void)s; say(completed ? "animation_ended 1" : "animation_ended 0"); }
    static const th_animator A = { sizeof(th_animator), "slide", dur, anim, ended, NULL };

    static void fade(th_context *c, void *u) { (void)c; host->view_set_alpha(dimming, u ? 1 : 0); }
    static void faded(th_context *c, void *u) {
        (void)u;
        say(host->context_transition_was_cancelled(c) ? "alongside completion cancelled" : "alongside completion");
    }
    static th_rect frame(const th_presentation_controller *self, th_view *container) {
        (void)self;
        th_rect b = host->view_bounds(container);
        th_rect r = {0, b.height / 2, b.width, b.height / 2};
    #if MODE == 1
        r.y = NAN;
    #endif
        return r;
    }
    static void will_begin(const th_presentation_controller *self, th_context *c, th_view *container) {
        (void)self;
    #if MODE == 2
        raise(SIGSEGV);
    #endif
        say("presentation_will_begin");
        th_rect all = host->view_bounds(container);
        dimming = host->view_create(all);
        th_color black = {0, 0, 0, 0.5};
        host->view_set_background_color(dimming, black);
        host->view_set_alpha(dimming, 0);
        host->view_add_subview(container, dimming);
        host->coordinator_animate_alongside(c, fade, faded, (void *)1);
    }
    static void did_end(const th_presentation_controller *self, th_context *c, int completed) {
        (void)self; (void)c;
        say(completed ? "presentation_did_end 1" : "presentation_did_end 0");
    }
    static void dismiss_begin(const th_presentation_controller *self, th_context *c, th_view *container) {
        (void)self; (void)container;
        say("dismissal_will_begin");
        host->coordinator_animate_alongside(c, fade, faded, NULL);
    }
    static void dismiss_end(const th_presentation_controller *self, th_context *c, int completed) {
        (void)self; (void)c;
        say(completed ? "dismissal_did_end 1" : "dismissal_did_end 0");
        if (completed) host->view_remove_from_superview(dimming);
    }
    static void layout(const th_presentation_controller *self, th_view *container) { (void)self; (void)container; say("container_will_layout"); }
    static th_controller *sheet_vc;
    static th_view *wrapper;
    static th_view *presented(const th_presentation_controller *self) {
        (void)self;
    #if MODE == 3
        if (!wrapper) {
            th_rect r = {0, 0, 320, 284};
            wrapper = host->view_create(r);
            host->view_set_corner_radius(wrapper, 12);
            th_view *content = host->controller_view(sheet_vc);
            host->view_set_frame(content, r);
            host->view_add_subview(wrapper, content);
        }
        return wrapper;
    #else
        return NULL;
    #endif
    }
    static const th_presentation_controller PC = { sizeof(th_presentation_controller), frame, NULL, will_begin, did_end,
                                                   dismiss_begin, dismiss_end, layout, presented, NULL };

    static const th_animator *animator_for(const th_delegate *d, const th_transition_request *r) { (void)d; (void)r; return &A; }
    static const th_presentation_controller *pc_for(const th_delegate *d, const th_transition_request *r) {
        (void)d;
        sheet_vc = r->to;
        say(r->operation == TH_OP_PRESENT && r->presenting && r->source ? "presentation_controller_for present" : "presentation_controller_for ?");
        return &PC;
    }
    static const th_delegate D = { sizeof(th_delegate), "sheet", animator_for, NULL, NULL, NULL, pc_for };
    static int init(const th_host_api *h) { host = h; return 0; }
    static void deinit(void) { }
    static const th_animator *get(const char *id) { (void)id; return NULL; }
    static const th_delegate *get_delegate(const char *id) { return strcmp(id, "sheet") == 0 ? &D : NULL; }
    TH_EXPORT const th_plugin_entry transhost_plugin_entry = {
        TH_ABI_MAJOR, TH_ABI_MINOR, sizeof(th_plugin_entry), NAME, "1.0.0", init, deinit, get, get_delegate };
    """

    func install(_ name: String, mode: Int, into dir: String) throws {
        let pdir = dir + "/" + name
        try FileManager.default.createDirectory(atPath: pdir, withIntermediateDirectories: true)
        let src = pdir + "/plugin.c"
        try Self.source.write(toFile: src, atomically: true, encoding: .utf8)
        let cc = try TestProcess.run("/usr/bin/env", ["cc", "-shared", "-fPIC", "-std=gnu11", "-DMODE=\(mode)", "-DNAME=\"\(name)\"",
                                                      "-I", Products.packageRoot + "/Sources/CTransHost/include", "-o", pdir + "/lib\(name).so", src, "-lm"])
        XCTAssertEqual(cc.status, 0, cc.stderr)
        try """
        {"format": "transhost-manifest/1", "name": "\(name)", "version": "1.0.0", "abi": "1.3", "library": "lib\(name).so",
         "delegates": [{"id": "sheet", "routes": [{"container": "modal", "operations": ["present"], "to": "Sheet"}]}]}
        """.write(toFile: pdir + "/manifest.json", atomically: true, encoding: .utf8)
    }

    func play(mode: Int) throws -> RunResult {
        let dir = try Products.temporaryDirectory(self)
        try install("sheet-c", mode: mode, into: dir)
        return Playback.play(try Products.scenario(Self.scenarioJSON, test: self), scan: try Products.scan(dir)).run
    }

    func testACPresentationControllerLaysOutDimsAndHearsItsHooksInOrder() throws {
        let run = try play(mode: 0)
        XCTAssertEqual(run.breaches, [])
        XCTAssertEqual(run.transitions.map(\.record.animator?.id), ["slide", "slide"])
        XCTAssertEqual(run.logs.filter { $0.hasPrefix("[sheet-c]") }.map { String($0.dropFirst("[sheet-c] info: ".count)) }, [
            "presentation_controller_for present",
            "presentation_will_begin", "container_will_layout", "animate: from-view NULL, to-view given, style 4",
            "presentation_did_end 1", "alongside completion", "animation_ended 1",
            "dismissal_will_begin", "container_will_layout", "animate: from-view given, to-view NULL, style 4",
            "dismissal_did_end 1", "alongside completion", "animation_ended 1"])
        let present = run.transitions[0]
        let veil = Color(red: 0, green: 0, blue: 0, alpha: 0.5)
        for t in stride(from: 0.0, through: 0.5, by: 0.1) {
            let frame = try present.frame(at: t)
            let dimming = try XCTUnwrap(frame.nodes.first { $0.state.backgroundColor == veil })
            XCTAssertEqual(dimming.state.alpha, Reference.easeInOut(t / 0.5), accuracy: 1e-4, "t = \(t)")
            XCTAssertTrue(frame.has("Home"), "custom: the presenter's view stays")
        }
        XCTAssertEqual(try present.after.node(named: "Sheet").state.frame, Rect(x: 0, y: 284, width: 320, height: 284))
        XCTAssertTrue(present.after.has("Home"))
        let dismiss = run.transitions[1]
        XCTAssertFalse(dismiss.after.nodes.contains { $0.state.backgroundColor == veil }, "dismissal_did_end removed the dimming view")
        XCTAssertFalse(dismiss.after.has("Sheet"))
    }

    func testANonFiniteFrameIsABreachAndTheContainersBoundsAreUsed() throws {
        let run = try play(mode: 1)
        XCTAssertTrue(run.breaches.contains { $0.plugin == "sheet-c" && $0.kind == "invalid-value" && $0.message.contains("frame_of_presented_view") },
                      "\(run.breaches)")
        XCTAssertEqual(try run.transitions[0].after.node(named: "Sheet").state.frame, Rect(x: 0, y: 0, width: 320, height: 568))
    }

    /// presented_view: the wrapper stands for the sheet in the transition and on screen.
    func testAPresentedViewWrapperIsWhatTheHostAnimatesAndShows() throws {
        let run = try play(mode: 3)
        XCTAssertEqual(run.breaches, [])
        let present = run.transitions[0], dismiss = run.transitions[1]
        let wrapper = try XCTUnwrap(present.after.nodes.first { $0.state.cornerRadius == 12 }, "the wrapper is on screen")
        XCTAssertEqual(wrapper.state.frame, Rect(x: 0, y: 284, width: 320, height: 284), "laid out at the controller's frame")
        XCTAssertEqual(try present.after.node(named: "Sheet").parentID, wrapper.view.id, "the controller's view is inside it")
        // The animator moved the context's to-view: the wrapper slid up from 284 below.
        let first = try XCTUnwrap(present.frames.first?.nodes.first { $0.view.id == wrapper.view.id })
        XCTAssertEqual(first.state.transform.m42, 284, accuracy: 1e-9)
        XCTAssertFalse(dismiss.after.nodes.contains { $0.view.id == wrapper.view.id }, "the dismissal takes the wrapper away")
        XCTAssertFalse(dismiss.after.has("Sheet"))
        XCTAssertTrue(dismiss.after.has("Home"))
    }

    func testACrashInAPresentationControllerHookIsThePluginsFailure() throws {
        let dir = try Products.temporaryDirectory(self)
        try install("sheet-crash", mode: 2, into: dir)
        let scenario = dir + "/scenario.json"
        try Self.scenarioJSON.write(toFile: scenario, atomically: true, encoding: .utf8)
        let r = try Products.run(Products.transhost, ["run", "--scenario", scenario, "--plugins", dir, "--trace-only", "--out", dir + "/out"],
                                 environment: ["TRANSHOST_CACHE": dir + "/cache.json"])
        XCTAssertEqual(r.status, 3, r.stdout + r.stderr)
        XCTAssertTrue(r.stdout.contains("plugin sheet-crash crashed (SIGSEGV) in its presentation_will_begin"), r.stdout)
        XCTAssertTrue(FileManager.default.fileExists(atPath: dir + "/out/trace.json"), r.stdout)
    }
}
