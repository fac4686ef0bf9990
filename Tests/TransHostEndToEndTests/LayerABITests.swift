import Foundation
import TransHostManifest
import XCTest

/// The ABI 1.3 layer calls from C, as a C plugin author uses them: a shape-layer mask, an
/// explicit animation whose delegate completes the transition, a transaction completion, and
/// every kind of malformed input, each refused with a breach naming the call, never a crash.
final class LayerABITests: XCTestCase {
    func testACPluginMasksAnimatesAndIsToldWhatItGotWrong() throws {
        let root = try BuildProducts.temporaryDirectory(self)
        try BuildProducts.writePushPlugin(named: "layered", body: """
        #include "transhost.h"
        #include <math.h>
        static const th_host_api *host;
        static th_context *current;
        static int stops, tx;
        static double duration(const th_animator *self, th_context *ctx) { (void)self; (void)ctx; return 0.5; }
        static void on_event(int event, int finished, void *user) {
            (void)user;
            if (event == 1) { stops += finished ? 1 : 100; host->context_complete_transition(current, 1); }
        }
        static void on_tx(void *user) { (void)user; tx++; host->log(TH_LOG_INFO, "transaction done"); }
        static void animate(const th_animator *self, th_context *ctx) {
            (void)self;
            current = ctx;
            th_view *to = host->context_view(ctx, TH_KEY_TO);
            host->view_add_subview(host->context_container(ctx), to);
            th_layer *mask = host->layer_create(TH_LAYER_SHAPE);
            th_path_element square[5] = {{TH_PATH_MOVE, {{0, 0}}}, {TH_PATH_LINE, {{100, 0}}}, {TH_PATH_LINE, {{100, 100}}},
                                         {TH_PATH_LINE, {{0, 100}}}, {TH_PATH_CLOSE, {{0, 0}}}};
            th_layer_value path = {sizeof(th_layer_value), TH_VALUE_PATH, 0, 0, 0, square, 5, 0};
            host->layer_set_value(mask, "path", &path);
            host->layer_set_mask(host->view_layer(to), mask);

            double from = 0, target = 1;
            th_layer_value a = {sizeof(th_layer_value), TH_VALUE_NUMBER, 0, &from, 1, 0, 0, 0};
            th_layer_value b = {sizeof(th_layer_value), TH_VALUE_NUMBER, 0, &target, 1, 0, 0, 0};
            th_layer_animation fade = {0};
            fade.struct_size = sizeof(th_layer_animation);
            fade.kind = TH_CA_BASIC;
            fade.key_path = "opacity";
            fade.duration = 0.5;
            fade.speed = 1;
            fade.removed_on_completion = 1;
            fade.from = &a;
            fade.to = &b;
            host->transaction_begin();
            host->transaction_set_completion(on_tx, 0);
            host->layer_add_animation(host->view_layer(to), &fade, "fade", on_event, 0);
            host->transaction_commit();

            /* What a plugin can get wrong: each is one breach, and nothing else happens. */
            host->layer_add_animation(mask, 0, "x", 0, 0);
            th_layer_animation bad = fade;
            bad.duration = NAN;
            host->layer_add_animation(mask, &bad, "nan", 0, 0);
            th_layer_animation group = fade;
            const th_layer_animation *members[1] = {0};
            group.kind = TH_CA_GROUP;
            group.animations = members;
            group.animation_count = 1;
            host->layer_add_animation(mask, &group, "group", 0, 0);
            th_layer_animation keyframes = fade;
            keyframes.kind = TH_CA_KEYFRAME;
            keyframes.value_count = 3;
            keyframes.values = 0;
            host->layer_add_animation(mask, &keyframes, "kf", 0, 0);
            th_layer_value shortRect = {sizeof(th_layer_value), TH_VALUE_RECT, 0, &from, 1, 0, 0, 0};
            host->layer_set_value(mask, "bounds", &shortRect);
            host->layer_set_value(mask, "wobble", &a);
            host->layer_set_value(mask, "colors", &a);
            host->layer_set_value((th_layer *)0x42, "opacity", &a);
            host->layer_add_sublayer(mask, host->view_layer(to));
        }
        static const th_animator layered = { sizeof(th_animator), "layered", duration, animate, 0, 0 };
        static int init(const th_host_api *h) { host = h; return 0; }
        static const th_animator *get(const char *id) { (void)id; return &layered; }
        TH_EXPORT const th_plugin_entry transhost_plugin_entry = { TH_ABI_MAJOR, TH_ABI_MINOR, sizeof(th_plugin_entry),
            "layered", "1.0.0", init, 0, get };
        """, in: root)
        let r = try BuildProducts.run(["run", "--scenario", root + "/app.json", "--plugins", root + "/plugins", "--out", root + "/out", "--trace-only"])
        XCTAssertEqual(r.status, 4, "the plugin's mistakes are breaches: \(r.stdout)\n\(r.stderr)")
        XCTAssertTrue(r.stderr.contains("[layered] info: transaction done"), r.stderr)
        let trace = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: root + "/out/trace.json"))) as? [String: Any])
        let t = try XCTUnwrap((trace["transitions"] as? [[String: Any]])?.first)
        XCTAssertEqual(t["outcome"] as? String, "completed")
        XCTAssertEqual((t["end"] as? NSNumber)?.doubleValue ?? -1, 0.5, accuracy: 1e-9, "the delegate completed it when the animation ended")
        let breaches = (t["breaches"] as? [[String: Any]] ?? []).compactMap { $0["message"] as? String }
        for expected in ["layer_add_animation got a NULL animation", "not finite", "group member 0 is NULL",
                         "value_count is 3 but values is NULL", "needs 4 numbers", "\"wobble\" is not a layer property",
                         "a shape layer has no colors", "is not a layer handle", "a view's own layer cannot be a sublayer"] {
            XCTAssertTrue(breaches.contains { $0.contains(expected) }, "no breach says \"\(expected)\": \(breaches)")
        }
        XCTAssertEqual(breaches.count, 9, "\(breaches)")
        let frames = try XCTUnwrap(t["frames"] as? [[String: Any]])
        let dst = { (f: [String: Any]) in (f["views"] as? [[String: Any]])?.first { $0["name"] as? String == "Dst" } }
        let mid = try XCTUnwrap(dst(frames[15]))
        XCTAssertEqual((mid["alpha"] as? NSNumber)?.doubleValue ?? -1, 0.5, accuracy: 1e-6, "the explicit fade, linear, half way")
        let mask = try XCTUnwrap((mid["layer"] as? [String: Any])?["mask"] as? [String: Any])
        XCTAssertEqual(((mask["shape"] as? [String: Any])?["path"] as? [String: Any])?["elements"] as? Int, 5)
    }
}
