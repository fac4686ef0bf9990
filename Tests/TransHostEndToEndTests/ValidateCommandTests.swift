import Foundation
import TransHostManifest
import XCTest

/// `transhost validate`: every first-party plugin passes; six plugins that each break one rule
/// of the transition contract fail, and the failure names the test and the reason; the options
/// and exit codes do what `transhost help validate` says.
final class ValidateCommandTests: XCTestCase {
    var root = ""
    var env: [String: String] { ["TRANSHOST_CACHE": root + "/cache.json"] }

    override func setUpWithError() throws {
        root = try BuildProducts.temporaryDirectory(self)
        _ = try BuildProducts.library("libfade-scale.so") // skips when the products are not built
    }

    /// A C plugin with one animator for navigation push Src -> Dst (and its pop), whose
    /// animate_transition is `animate`, in ROOT/plugins/NAME.
    @discardableResult
    func plugin(_ name: String, animate: String, duration: Double = 0.3) throws -> String {
        let dir = root + "/plugins/\(name)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try BuildProducts.compileC("""
        #include "transhost.h"
        #include <string.h>
        #include <signal.h>
        static const th_host_api *host;
        typedef struct { th_context *ctx; th_view *from, *to, *extra; } run_state;
        static run_state r;
        static double duration(const th_animator *self, th_context *ctx) { (void)self; (void)ctx; return \(duration); }
        static void animate(const th_animator *self, th_context *ctx) {
            (void)self;
            r.ctx = ctx;
            r.from = host->context_view(ctx, TH_KEY_FROM);
            r.to = host->context_view(ctx, TH_KEY_TO);
            th_view *container = host->context_container(ctx);
            (void)container;
            \(animate)
        }
        static const th_animator A = { sizeof(th_animator), "\(name)", duration, animate, 0, 0 };
        static int init(const th_host_api *h) { host = h; return 0; }
        static const th_animator *get(const char *id) { return strcmp(id, A.id) == 0 ? &A : NULL; }
        TH_EXPORT const th_plugin_entry transhost_plugin_entry = { TH_ABI_MAJOR, TH_ABI_MINOR, sizeof(th_plugin_entry),
            "\(name)", "1.0.0", init, 0, get };
        """, to: dir + "/lib\(name).so")
        try """
        {"format": "transhost-manifest/1", "name": "\(name)", "version": "1.0.0", "abi": "\(HostABI.text)", "library": "lib\(name).so",
         "animators": [{"id": "\(name)", "routes": [{"container": "navigation", "operations": ["push"], "from": "Src", "to": "Dst"}]}]}
        """.write(toFile: dir + "/manifest.json", atomically: true, encoding: .utf8)
        return dir
    }

    /// A fade whose completion puts the from-view back and completes with !cancelled: correct.
    static let goodFade = """
    host->view_add_subview(container, r.to);
    host->view_set_alpha(r.to, 0.0);
    th_animation_params p = { sizeof(th_animation_params), 0.3, 0.0, TH_ANIM_CURVE_EASE_IN_OUT };
    host->animate(&p, fade_in, done, &r);
    """

    /// The body is pasted into animate: it declares the callbacks, starts the fade, closes
    /// animate and defines them, leaving the completion's closing brace to the template.
    static func fadePlugin(completion: String) -> String {
        """
        void fade_in(void *u); void done(int finished, void *u);
        \(goodFade)
        }
        void fade_in(void *u) { run_state *s = u; host->view_set_alpha(s->to, 1.0); host->view_set_alpha(s->from, 0.3); }
        void done(int finished, void *u) {
            (void)finished; run_state *s = u;
            int cancelled = host->context_transition_was_cancelled(s->ctx);
            \(completion)
        """
    }

    func validate(_ args: [String]) throws -> BuildProducts.Output {
        try BuildProducts.run(["validate"] + args, environment: env)
    }

    func result(_ out: BuildProducts.Output, test: String) throws -> [String: Any] {
        let doc = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(out.stdout.utf8)) as? [String: Any], out.stdout + out.stderr)
        let plugins = try XCTUnwrap(doc["plugins"] as? [[String: Any]])
        let tests = try XCTUnwrap(plugins.first?["tests"] as? [[String: Any]])
        return try XCTUnwrap(tests.first { $0["name"] as? String == test }, "no result for \(test): \(out.stdout)")
    }

    func assertFails(_ dir: String, test: String, reason: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let out = try validate([dir, "--json", "--test-filter", "^\(test)$"])
        XCTAssertEqual(out.status, 1, "\(out.stdout)\n\(out.stderr)", file: file, line: line)
        let r = try result(out, test: test)
        XCTAssertEqual(r["status"] as? String, "failed", "\(r)", file: file, line: line)
        XCTAssertTrue((r["reason"] as? String ?? "").contains(reason), "\(r["reason"] ?? "")", file: file, line: line)
    }

    func testEveryFirstPartyPluginPasses() throws {
        let out = try validate([])
        XCTAssertEqual(out.status, 0, out.stdout + out.stderr)
        // Every first-party plugin (one per registry entry), each with every test.
        let count = try BuildProducts.galleryDemoCount()
        for name in ["split-modal", "rotate-spring", "corner-fly", "fade-scale", "snapshot-search", "sheet-drag", "half-sheet", "circle-reveal"] {
            XCTAssertTrue(out.stdout.contains("  \(name): "), out.stdout)
        }
        XCTAssertTrue(out.stdout.contains("\(count) plugins, \(20 * count) tests: "), out.stdout)
        XCTAssertTrue(out.stdout.contains(" 0 failed"), out.stdout)
        XCTAssertFalse(out.stdout.contains("FAILED"), out.stdout)
    }

    func testAPluginThatNeverCompletesFailsCompletesOnce() throws {
        let dir = try plugin("stuck", animate: "host->view_add_subview(container, r.to);")
        try assertFails(dir, test: "transition-completes-once", reason: "never-completed: completeTransition was not called")
    }

    func testAPluginThatCompletesTwiceFailsCompletesOnce() throws {
        let dir = try plugin("twice", animate: """
        host->view_add_subview(container, r.to);
        host->context_complete_transition(ctx, 1);
        host->context_complete_transition(ctx, 1);
        """)
        try assertFails(dir, test: "transition-completes-once", reason: "completed-twice")
    }

    func testAPluginThatLeavesASnapshotFailsNoLeftovers() throws {
        let dir = try plugin("litter", animate: """
        th_view *snap = host->view_snapshot(r.from, 0);
        host->view_add_subview(container, snap);
        host->view_add_subview(container, r.to);
        host->context_complete_transition(ctx, 1);
        """)
        try assertFails(dir, test: "transition-no-leftovers", reason: "are still in the window after it completed (snapshot")
    }

    func testAPluginThatIgnoresTheContainerSizeFailsDeviceIndependence() throws {
        let dir = try plugin("fixed", animate: """
        host->view_add_subview(container, r.to);
        th_rect iphone5 = { 0, 0, 320, 568 };
        host->view_set_frame(r.to, iphone5);
        host->context_complete_transition(ctx, 1);
        """)
        try assertFails(dir, test: "device-independence", reason: "on iphone-4 (320 x 480): the shown view (Dst) ends at frame [0, 0, 320, 568], not the container's bounds [0, 0, 320, 480]")
        // On the device it was written for it passes everything else.
        let rest = try validate([dir, "--test-filter", "^transition-"])
        XCTAssertEqual(rest.status, 0, rest.stdout)
    }

    func testAPluginThatCrashesInAnimateFailsAndTheOtherTestsStillRun() throws {
        let dir = try plugin("crasher", animate: "raise(SIGSEGV);")
        let out = try validate([dir, "--json"])
        XCTAssertEqual(out.status, 1, out.stderr)
        let r = try result(out, test: "transition-completes-once")
        XCTAssertEqual(r["status"] as? String, "failed")
        XCTAssertTrue((r["reason"] as? String ?? "").contains("the test process crashed with SIGSEGV while playing navigation push Src -> Dst (animator crasher)"), "\(r)")
        // A crash is one test's result: the manifest and binary tests before it passed.
        XCTAssertEqual(try result(out, test: "binary-load")["status"] as? String, "passed")
        XCTAssertEqual(try result(out, test: "determinism")["status"] as? String, "failed")
    }

    func testAPluginWhoseCancelDoesNotRestoreFailsInteractiveCancel() throws {
        let sloppy = try plugin("sloppy", animate: Self.fadePlugin(completion: """
            if (cancelled) host->view_remove_from_superview(s->to);
            host->context_complete_transition(s->ctx, !cancelled);
        """))
        try assertFails(sloppy, test: "interactive-cancel", reason: "cancelled at progress 0: the state afterwards is not the state before: the cancelled transition left the from-view's alpha")
        // The same fade putting the from-view's alpha back passes.
        let tidy = try plugin("tidy", animate: Self.fadePlugin(completion: """
            host->view_set_alpha(s->from, 1.0);
            if (cancelled) host->view_remove_from_superview(s->to);
            host->context_complete_transition(s->ctx, !cancelled);
        """))
        let out = try validate([tidy, "--test-filter", "interactive"])
        XCTAssertEqual(out.status, 0, out.stdout + out.stderr)
        XCTAssertTrue(out.stdout.contains("  passed   interactive-cancel"), out.stdout)
    }

    func testListTestsOnlyFailedInProcessAndExitCodes() throws {
        let list = try validate(["--list-tests"])
        XCTAssertEqual(list.status, 0)
        XCTAssertTrue(list.stdout.contains("interactive-cancel "), list.stdout)
        for line in list.stdout.split(separator: "\n") {
            let name = String(line.prefix { $0 != " " })
            XCTAssertNotNil(name.range(of: "^[a-z]+(-[a-z]+)*$", options: .regularExpression), "not kebab-case: \(name)")
            XCTAssertGreaterThan(line.count, name.count + 10, "no description: \(line)")
        }
        let json = try validate(["--list-tests", "--json"])
        let tests = try XCTUnwrap((JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["tests"] as? [[String: Any]])
        XCTAssertEqual(tests.count, list.stdout.split(separator: "\n").count)

        let dir = try plugin("stuck", animate: "host->view_add_subview(container, r.to);")
        let failedOnly = try validate([dir, "--only-failed", "--test-filter", "^(binary-load|transition-completes-once)$"])
        XCTAssertEqual(failedOnly.status, 1)
        XCTAssertTrue(failedOnly.stdout.contains("FAILED   transition-completes-once: "), failedOnly.stdout)
        XCTAssertFalse(failedOnly.stdout.contains("passed   binary-load"), failedOnly.stdout)
        XCTAssertTrue(failedOnly.stdout.contains("stuck: 1 passed, 1 failed, 0 skipped"), failedOnly.stdout)
        // In-process gives the same verdict (a watchdog breach is no crash).
        let here = try validate([dir, "--in-process", "--test-filter", "^transition-completes-once$"])
        XCTAssertEqual(here.status, 1)
        XCTAssertTrue(here.stdout.contains("never-completed"), here.stdout)

        XCTAssertEqual(try validate(["no-such-plugin"]).status, 5)
        XCTAssertEqual(try validate(["--test-filter", "("]).status, 2)
        XCTAssertEqual(try validate(["--test-filter", "nothing-matches-this"]).status, 2)
    }
}

extension ValidateCommandTests {
    func testAManifestTypoFailsTheSchemaTestWithASuggestionAndSkipsTheRest() throws {
        let dir = try plugin("typo", animate: "host->view_add_subview(container, r.to); host->context_complete_transition(ctx, 1);")
        let m = dir + "/manifest.json"
        try String(contentsOfFile: m, encoding: .utf8).replacingOccurrences(of: "\"routes\"", with: "\"rotues\"")
            .write(toFile: m, atomically: true, encoding: .utf8)
        let out = try validate([dir, "--json"])
        XCTAssertEqual(out.status, 1, out.stderr)
        let schema = try result(out, test: "manifest-schema")
        XCTAssertEqual(schema["status"] as? String, "failed")
        XCTAssertTrue((schema["reason"] as? String ?? "").contains("did you mean \"routes\""), "\(schema)")
        XCTAssertEqual(try result(out, test: "transition-completes-once")["status"] as? String, "skipped")
    }

    func testAnInitCrashIsNamedByTheLoadTest() throws {
        let dir = try plugin("initcrash", animate: "host->context_complete_transition(ctx, 1);")
        // Rebuild with an init that crashes.
        try BuildProducts.compileC("""
        #include "transhost.h"
        #include <signal.h>
        static int init(const th_host_api *h) { (void)h; raise(SIGSEGV); return 0; }
        static const th_animator *get(const char *id) { (void)id; return 0; }
        TH_EXPORT const th_plugin_entry transhost_plugin_entry = { TH_ABI_MAJOR, TH_ABI_MINOR, sizeof(th_plugin_entry),
            "initcrash", "1.0.0", init, 0, get };
        """, to: dir + "/libinitcrash.so")
        try assertFails(dir, test: "binary-load", reason: "init crashed with SIGSEGV in the validation child process")
    }

    func testAPluginThatLeaksFailsMemoryFlat() throws {
        // 1 MiB kept (and touched) per transition: 200 MiB over the test.
        let dir = try plugin("leaky", animate: """
        char *keep = malloc(1 << 20);
        memset(keep, 1, 1 << 20);
        host->view_add_subview(container, r.to);
        host->context_complete_transition(ctx, 1);
        """)
        let src = dir + "/libleaky.so.c"
        try String(contentsOfFile: src, encoding: .utf8).replacingOccurrences(of: "#include <string.h>", with: "#include <string.h>\n#include <stdlib.h>")
            .write(toFile: src, atomically: true, encoding: .utf8)
        try BuildProducts.compileC(try String(contentsOfFile: src, encoding: .utf8), to: dir + "/libleaky.so")
        try assertFails(dir, test: "memory-flat", reason: "resident memory grew by")
    }
}
