import Foundation
import XCTest

/// The ABI 1.3 property animators from C: a push played by a host property animator that is the
/// animator's interruptible one, grabbed by the scenario while it runs; misuse UIKit raises for
/// is reported as a breach and ignored.
extension MisbehavingPluginTests {
    func testAPropertyAnimatorFromCPlaysIsGrabbedAndReportsMisuse() throws {
        let (r, root) = try runPlugin(named: "slider", body: """
        #include "transhost.h"
        static const th_host_api *host;
        static th_context *current;
        static th_view *to;
        static th_property_animator *made;
        static double duration(const th_animator *self, th_context *ctx) { (void)self; (void)ctx; return 0.5; }
        static void slide(void *user) { th_affine id = {1, 0, 0, 1, 0, 0}; (void)user; host->view_set_transform(to, id); }
        static void done(th_animating_position position, void *user) {
            (void)user;
            host->context_complete_transition(current, position == TH_POSITION_END);
        }
        static th_property_animator *interruptible(const th_animator *self, th_context *ctx) { (void)self; (void)ctx; return made; }
        static void animate(const th_animator *self, th_context *ctx) {
            th_affine off = {1, 0, 0, 1, 320, 0};
            th_timing_parameters bad = { .struct_size = sizeof(th_timing_parameters), .kind = 9 };
            th_timing_parameters linear = { .struct_size = sizeof(th_timing_parameters), .kind = TH_TIMING_CUBIC,
                                            .control_point1 = {0, 0}, .control_point2 = {1, 1} };
            (void)self;
            current = ctx;
            to = host->context_view(ctx, TH_KEY_TO);
            host->view_add_subview(host->context_container(ctx), to);
            host->view_set_transform(to, off);
            host->property_animator_create(0.5, &bad);
            made = host->property_animator_create(0.5, &linear);
            host->property_animator_finish(made, TH_POSITION_END);
            host->property_animator_add_animations(made, slide, 0, 0);
            host->property_animator_add_completion(made, done, 0);
            host->property_animator_start(made, 0);
        }
        static const th_animator slider = { .struct_size = sizeof(th_animator), .id = "slider", .transition_duration = duration,
                                            .animate_transition = animate, .interruptible_animator = interruptible };
        static int init(const th_host_api *h) { host = h; return h->abi_minor >= 3 ? 0 : 1; }
        static const th_animator *get(const char *id) { (void)id; return &slider; }
        TH_EXPORT const th_plugin_entry transhost_plugin_entry = { .abi_major = TH_ABI_MAJOR, .abi_minor = TH_ABI_MINOR,
            .struct_size = sizeof(th_plugin_entry), .name = "slider", .version = "1.0.0", .init = init, .get_animator = get };
        """, script: #"[{"action": "push", "controller": "d", "at": "0s"}, {"action": "grab", "at": "0.25s", "gesture": {"samples": [[0.05, -32]], "release": [0.1, -64], "direction": "backward", "completionCurve": "linear"}}]"#)
        XCTAssertEqual(r.status, 4, "the misuse is a breach: \(r.stderr.suffix(2000))")
        XCTAssertTrue(r.stderr.contains("timing kind 9 is not TH_TIMING_CUBIC"), r.stderr)
        XCTAssertTrue(r.stderr.contains("finishAnimation(at:) was called on a property animator that is not stopped"), r.stderr)
        let data = try XCTUnwrap(FileManager.default.contents(atPath: root + "/out/trace.json"))
        let trace = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let t = try XCTUnwrap((trace["transitions"] as? [[String: Any]])?.first)
        XCTAssertEqual(t["outcome"] as? String, "completed")
        XCTAssertEqual(t["interactive"] as? Bool, true, "grabbed")
        let frames = try XCTUnwrap(t["frames"] as? [[String: Any]])
        func tx(_ k: Int) -> Double {
            let views = frames[k]["views"] as? [[String: Any]] ?? []
            let dst = views.first { $0["name"] as? String == "Dst" }
            return ((dst?["transform"] as? [NSNumber])?[12].doubleValue) ?? .nan
        }
        // Linear over 0.5 s, grabbed at 0.25 s (f = 0.5), dragged 32 pt on (f = 0.6) at 0.3 s,
        // released at 64 pt (f = 0.7) at 0.35 s; the rest, 0.3, runs linearly in 0.15 s.
        XCTAssertEqual(tx(6), 320 * (1 - 0.2), accuracy: 1e-6)
        XCTAssertEqual(tx(16), 160, accuracy: 1e-6, "held")
        XCTAssertEqual(tx(19), 320 * 0.4, accuracy: 1e-6, "dragged")
        XCTAssertEqual(tx(24), 320 * (0.3 - 0.3 * (0.4 - 0.35) / 0.15), accuracy: 1e-6, "thrown on")
        XCTAssertEqual(tx(frames.count - 1), 0, accuracy: 1e-6)
        XCTAssertEqual((t["end"] as? NSNumber)?.doubleValue ?? .nan, 0.5, accuracy: 1e-9)
    }
}
