import Foundation
import TransHostPluginHost
import TransHostRouting
import TransHostManifest
import TransHostFFI
import TransHostDiscovery
import XCTest

/// Third-party plugins that are broken in every way we know, built in the test from C into
/// temporary directories. Each must be reported with a sentence that says what is wrong, and
/// the host must carry on: crashes and hangs while loading are caught by the validation child
/// process, the routed transition falls back to the default, and `run` exits 3.
final class BadPluginCorpusTests: XCTestCase {
    var root = ""
    var pluginsDir = ""
    var cacheFile = ""

    override func setUpWithError() throws {
        root = try BuildProducts.temporaryDirectory(self)
        pluginsDir = root + "/plugins"
        cacheFile = root + "/cache/scan-cache.json"
        try FileManager.default.createDirectory(atPath: pluginsDir, withIntermediateDirectories: true)
        _ = try BuildProducts.library("libfade-scale.so") // skips when the products are not built
    }

    var env: [String: String] { ["TRANSHOST_CACHE": cacheFile] }

    // MARK: - list (files first; plugin code only in a validation child)

    /// An init that refuses and a get_animator that returns NULL pass every file check, so list
    /// loads such plugins in a validation child and reports them as failed, with the reason, in
    /// text and JSON, and `list --failed` exits 3; with --no-fork it does not load them.
    func testListLoadsNewPluginsInAChildSoABadInitOrANullAnimatorIsNotOk() throws {
        try CorpusPlugin.write(name: "refuses", into: pluginsDir, source: CorpusPlugin.source(name: "refuses", initBody: "return 7;"))
        try CorpusPlugin.write(name: "noanim", into: pluginsDir, source: CorpusPlugin.source(name: "noanim", getAnimator: "(void)id; return NULL;"))
        try CorpusPlugin.write(name: "fine", into: pluginsDir, source: CorpusPlugin.source(name: "fine"))
        let refuses = try listPlugin("refuses")
        XCTAssertEqual(refuses["status"] as? String, "failed", "\(refuses)")
        XCTAssertTrue(reason(refuses).contains("init returned 7 (not 0)"), reason(refuses))
        let noanim = try listPlugin("noanim")
        XCTAssertEqual(noanim["status"] as? String, "failed", "\(noanim)")
        XCTAssertTrue(reason(noanim).contains("returns NULL from get_animator(\"noanim\")"), reason(noanim))
        let fine = try listPlugin("fine")
        XCTAssertEqual(fine["status"] as? String, "ok")
        XCTAssertEqual(fine["validated"] as? Bool, true)
        let text = try BuildProducts.run(["list", "--failed", "--plugins", pluginsDir], environment: env)
        XCTAssertEqual(text.status, 3, text.stderr)
        XCTAssertTrue(text.stdout.contains("refuses 1.0.0  ABI 1.0  third-party  failed"), text.stdout)
        XCTAssertFalse(text.stdout.contains("fine 1.0.0"), text.stdout)
        // Without a child process only the files are checked: nothing is loaded.
        let fresh = ["TRANSHOST_CACHE": root + "/other-cache.json"]
        let noFork = try BuildProducts.run(["list", "--json", "--no-fork", "--plugins", pluginsDir], environment: fresh)
        let unloaded = try XCTUnwrap(try plugins(noFork).first { $0["name"] as? String == "refuses" })
        XCTAssertEqual(unloaded["status"] as? String, "ok")
        XCTAssertEqual(unloaded["validated"] as? Bool, false)
    }

    func testANonELFFileIsReportedAsNotAnELFLibrary() throws {
        try CorpusPlugin.write(name: "notelf", into: pluginsDir, rawLibrary: "#!/bin/sh\necho this is a script\n")
        let p = try listPlugin("notelf")
        XCTAssertEqual(p["status"] as? String, "failed")
        XCTAssertTrue(reason(p).contains("not an ELF shared library (the file does not start with the ELF magic bytes)"), reason(p))
    }

    func testAMissingEntrySymbolIsNamed() throws {
        try CorpusPlugin.write(name: "nosym", into: pluginsDir, source: "int some_other_symbol(void) { return 0; }\n")
        let p = try listPlugin("nosym")
        XCTAssertEqual(p["status"] as? String, "failed")
        XCTAssertTrue(reason(p).contains("does not export the entry symbol transhost_plugin_entry"), reason(p))
    }

    /// A plugin that calls a function nothing defines fails its load, naming the function, also
    /// when it links the Swift toolchain's Foundation (loaded before it with lazy binding: the
    /// plugin's own symbols must still all be bound when it loads), and a run says so and
    /// plays the default transition.
    func testASymbolNothingDefinesFailsTheLoadAndIsNamed() throws {
        let calls = "extern int th_nobody_defines_this(void); if (th_nobody_defines_this()) return 1;"
        let runtime = try XCTUnwrap(ToolchainLibraries.directory)
        for (name, flags) in [("missing", [String]()), ("missingswift", ["-L", runtime, "-Wl,-rpath," + runtime, "-Wl,--no-as-needed", "-lFoundation"])] {
            try? FileManager.default.removeItem(atPath: pluginsDir)
            try CorpusPlugin.write(name: name, into: pluginsDir, source: CorpusPlugin.source(name: name, initBody: calls))
            let lib = pluginsDir + "/\(name)/lib\(name).so"
            try BuildProducts.compileC(CorpusPlugin.source(name: name, initBody: calls), to: lib, extraFlags: flags)
            XCTAssertEqual(try ELFInspector.inspect(path: lib).needed.contains("libFoundation.so"), !flags.isEmpty, name)
            let p = try listPlugin(name)
            XCTAssertEqual(p["status"] as? String, "failed", "\(name): \(p)")
            XCTAssertTrue(reason(p).contains("undefined symbol: th_nobody_defines_this"), "\(name): \(reason(p))")
            let r = try runScenario(extra: ["--trace-only", "--rescan"])
            XCTAssertEqual(r.status, 3, r.stdout + r.stderr)
            XCTAssertTrue(r.stderr.contains("undefined symbol: th_nobody_defines_this"), r.stderr)
            assertDefaultPush(r)
        }
        // Of a plugin's libraries, only the toolchain's that are not loaded yet are loaded ahead:
        // this test process has Foundation (XCTest links it) and the Swift runtime, not
        // FoundationXML; libc is not the toolchain's.
        XCTAssertEqual(ToolchainLibraries.unloaded(["libFoundation.so", "libFoundationXML.so", "libswiftCore.so", "libc.so.6"], pluginDirectory: pluginsDir),
                       ["libFoundationXML.so"])
    }

    func testAnABIMajorMismatchNamesBothVersions() throws {
        try CorpusPlugin.write(name: "major2", into: pluginsDir, source: CorpusPlugin.source(name: "major2", abi: (2, 0)))
        let p = try listPlugin("major2")
        XCTAssertEqual(p["status"] as? String, "failed")
        XCTAssertTrue(reason(p).contains("was built for transhost ABI 2.0, but this host implements ABI \(HostABI.text)"), reason(p))
    }

    func testANewerMinorIsRefusedAndNamesBothVersions() throws {
        try CorpusPlugin.write(name: "minor99", into: pluginsDir, source: CorpusPlugin.source(name: "minor99", abi: (1, 99)), abi: "1.99")
        let p = try listPlugin("minor99")
        XCTAssertEqual(p["status"] as? String, "failed")
        XCTAssertTrue(reason(p).contains("was built for transhost ABI 1.99, but this host implements ABI \(HostABI.text)"), reason(p))
        XCTAssertTrue(reason(p).contains("rebuild the plugin against this host's transhost.h"), reason(p))
    }

    func testAManifestWhoseABIDisagreesWithTheEntryIsReported() throws {
        // The entry says 1.0 (loadable); the manifest claims 1.1, which this host cannot load.
        try CorpusPlugin.write(name: "abiclaim", into: pluginsDir, source: CorpusPlugin.source(name: "abiclaim"), abi: "1.1")
        let p = try listPlugin("abiclaim")
        XCTAssertEqual(p["status"] as? String, "failed")
        XCTAssertTrue(reason(p).contains("ABI 1.1"), reason(p))
    }

    func testLibraryPathsThatLeaveThePluginDirectoryAreRefused() throws {
        try CorpusPlugin.write(name: "climb", into: pluginsDir, source: CorpusPlugin.source(name: "climb"), libraryField: "../x.so")
        try CorpusPlugin.write(name: "absolute", into: pluginsDir, source: CorpusPlugin.source(name: "absolute"), libraryField: "/abs.so")
        let r = try BuildProducts.run(["list", "--json", "--plugins", pluginsDir], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        for (dir, lib) in [("climb", "../x.so"), ("absolute", "/abs.so")] {
            let p = try XCTUnwrap(try plugins(r).first { ($0["manifest"] as? String)?.contains("/\(dir)/manifest.json") == true }, r.stdout)
            XCTAssertEqual(p["status"] as? String, "failed")
            XCTAssertTrue(reason(p).hasPrefix("\(pluginsDir)/\(dir)/manifest.json:1:"), reason(p))
            XCTAssertTrue(reason(p).contains(": field \"library\": \"\(lib)\" escapes the plugin's directory"), reason(p))
        }
    }

    func testDuplicateNamesAcrossTwoDirectoriesAreBothReportedAndTheFirstWins() throws {
        let second = root + "/more-plugins"
        try CorpusPlugin.write(name: "twin", into: pluginsDir, source: CorpusPlugin.source(name: "twin", duration: 0.2))
        try CorpusPlugin.write(name: "twin", into: second, source: CorpusPlugin.source(name: "twin", duration: 0.4))
        let r = try BuildProducts.run(["list", "--json", "--plugins", pluginsDir, "--plugins", second], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        let twins = try plugins(r).filter { $0["name"] as? String == "twin" }
        XCTAssertEqual(twins.count, 2, r.stdout)
        XCTAssertEqual(twins.first?["status"] as? String, "ok")
        XCTAssertTrue((twins.first?["location"] as? String)?.contains(pluginsDir) == true)
        XCTAssertEqual(twins.last?["status"] as? String, "duplicate")
        XCTAssertTrue(reason(twins.last ?? [:]).contains("another plugin named twin at \(pluginsDir)/twin/manifest.json comes first on the search path"), reason(twins.last ?? [:]))
        // The first one is the one that runs (0.2 s, not 0.4 s).
        let run = try runScenario(extra: ["--plugins", second])
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("push Src -> Dst  twin/twin  0.2 s  completed"), run.stdout)
    }

    // MARK: - run (plugin code runs, first in a validation child)

    func testAnEntryWhoseGetAnimatorReturnsNULLFailsToLoadAndTheDefaultRuns() throws {
        try CorpusPlugin.write(name: "noanim", into: pluginsDir, source: CorpusPlugin.source(name: "noanim", getAnimator: "(void)id; return NULL;"))
        let r = try runScenario()
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("plugin noanim (\(pluginsDir)/noanim/libnoanim.so): its entry returns NULL from get_animator(\"noanim\")"), r.stderr)
        assertDefaultPush(r)
    }

    func testAManifestWhoseNameAndVersionDisagreeWithTheEntryFailsToLoad() throws {
        try CorpusPlugin.write(name: "liar", into: pluginsDir, source: CorpusPlugin.source(name: "someone-else", version: "9.9.9"))
        let r = try runScenario()
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("the manifest \(pluginsDir)/liar/manifest.json says liar 1.0.0 but the library's entry says someone-else 9.9.9; make them agree"), r.stderr)
        assertDefaultPush(r)
    }

    func testAnInitThatSegfaultsIsCaughtNamedAndRemembered() throws {
        try CorpusPlugin.write(name: "segv", into: pluginsDir, source: CorpusPlugin.source(name: "segv", initBody: "raise(SIGSEGV);"))
        let r = try runScenario()
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("plugin segv (\(pluginsDir)/segv/libsegv.so): init crashed with SIGSEGV in the playback worker process"), r.stderr)
        assertDefaultPush(r)
        // Remembered: list shows it failed with the reason, without running it.
        let p = try listPlugin("segv")
        XCTAssertEqual(p["status"] as? String, "failed")
        XCTAssertEqual(p["validated"] as? Bool, false)
        XCTAssertTrue(reason(p).contains("init crashed with SIGSEGV"), reason(p))
        // And a second run reports it again from the cache, still with exit 3.
        let again = try runScenario()
        XCTAssertEqual(again.status, 3, again.stderr)
        XCTAssertTrue(again.stderr.contains("init crashed with SIGSEGV"), again.stderr)
        XCTAssertTrue(again.stderr.contains("remembered from an earlier load"), again.stderr)
        assertDefaultPush(again)
    }

    /// In the host (`--isolation none`) a validation child, spawned fresh, catches the crash.
    func testInTheHostAValidationChildCatchesAnInitThatSegfaults() throws {
        try CorpusPlugin.write(name: "segv", into: pluginsDir, source: CorpusPlugin.source(name: "segv", initBody: "raise(SIGSEGV);"))
        let r = try runScenario(extra: ["--isolation", "none"])
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("plugin segv (\(pluginsDir)/segv/libsegv.so): init crashed with SIGSEGV in the validation child process"), r.stderr)
        assertDefaultPush(r)
    }

    /// exit(0) in a constructor or in init ends the validation child without its report: never
    /// "passed", never cached as validated.
    func testExitZeroWhileLoadingNeverPassesValidation() throws {
        try CorpusPlugin.write(name: "ctorquit", into: pluginsDir, source: CorpusPlugin.source(name: "ctorquit")
            + "\n__attribute__((constructor)) static void quit(void) { exit(0); }\n")
        try CorpusPlugin.write(name: "initquit", into: pluginsDir, source: CorpusPlugin.source(name: "initquit", initBody: "exit(0);"))
        for name in ["ctorquit", "initquit"] {
            let m = try PluginManifest.load(file: pluginsDir + "/\(name)/manifest.json")
            guard case .failed(let reason) = PluginValidator.validate(m) else { return XCTFail("\(name) passed validation") }
            XCTAssertTrue(reason.contains("exited with code 0"), reason)
            XCTAssertTrue(reason.contains("before it reported that loading succeeded"), reason)
        }
        let m = try PluginManifest.load(file: pluginsDir + "/ctorquit/manifest.json")
        guard case .failed(let why) = PluginValidator.validate(m) else { return XCTFail("passed") }
        XCTAssertTrue(why.contains("in dlopen (a library constructor)"), why)
    }

    func testANullWriteInInitIsCaught() throws {
        try CorpusPlugin.write(name: "nullwrite", into: pluginsDir,
                               source: CorpusPlugin.source(name: "nullwrite", initBody: "*(volatile int *)0 = 1;"))
        let r = try runScenario()
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("init crashed with SIGSEGV"), r.stderr)
        assertDefaultPush(r)
    }

    func testAnInitThatAbortsIsCaught() throws {
        try CorpusPlugin.write(name: "aborts", into: pluginsDir, source: CorpusPlugin.source(name: "aborts", initBody: "abort();"))
        let r = try runScenario()
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("init crashed with SIGABRT"), r.stderr)
        assertDefaultPush(r)
    }

    func testAnInitThatHangsIsKilledAfterTheTimeout() throws {
        try CorpusPlugin.write(name: "hangs", into: pluginsDir, source: CorpusPlugin.source(name: "hangs", initBody: "for (;;) { }"))
        let started = Date()
        let r = try runScenario(environment: ["TRANSHOST_VALIDATE_TIMEOUT": "1"])
        XCTAssertLessThan(Date().timeIntervalSince(started), 20)
        XCTAssertEqual(r.status, 3, r.stderr)
        XCTAssertTrue(r.stderr.contains("plugin hangs (\(pluginsDir)/hangs/libhangs.so): did not finish loading within 1 s (it was still in init)"), r.stderr)
        assertDefaultPush(r)
        XCTAssertTrue(reason(try listPlugin("hangs")).contains("did not finish loading within 1 s"))
    }

    func testAChangedLibraryIsValidatedAgain() throws {
        try CorpusPlugin.write(name: "fixed", into: pluginsDir, source: CorpusPlugin.source(name: "fixed", initBody: "raise(SIGSEGV);"))
        XCTAssertEqual(try runScenario().status, 3)
        // Rebuilt without the crash: a new stamp, so the remembered failure no longer applies.
        try CorpusPlugin.write(name: "fixed", into: pluginsDir, source: CorpusPlugin.source(name: "fixed"))
        let r = try runScenario()
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("push Src -> Dst  fixed/fixed"), r.stdout)
        let p = try listPlugin("fixed")
        XCTAssertEqual(p["status"] as? String, "ok")
        XCTAssertEqual(p["validated"] as? Bool, true)
        let text = try BuildProducts.run(["list", "--plugins", pluginsDir], environment: env)
        XCTAssertTrue(text.stdout.contains("fixed 1.0.0  ABI 1.0  third-party  ok (validated)"), text.stdout)
    }

    func testNoForkIsAcceptedWithAWellBehavedPlugin() throws {
        try CorpusPlugin.write(name: "good", into: pluginsDir, source: CorpusPlugin.source(name: "good"))
        let r = try runScenario(extra: ["--no-fork"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("push Src -> Dst  good/good  0.3 s  completed"), r.stdout)
        let l = try BuildProducts.run(["list", "--no-fork", "--plugins", pluginsDir], environment: env)
        XCTAssertEqual(l.status, 0, l.stderr)
        XCTAssertTrue(l.stdout.contains("good 1.0.0  ABI 1.0  third-party  ok (validated)"), l.stdout)
        let help = try BuildProducts.run(["help", "run"])
        XCTAssertTrue(help.stdout.contains("--no-fork"), help.stdout)
        XCTAssertTrue(help.stdout.contains("a plugin that crashes then crashes transhost"), help.stdout)
    }

    // MARK: - helpers

    func assertDefaultPush(_ r: BuildProducts.Output, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(r.stdout.contains("#0 navigation push Src -> Dst  default  0.35 s  completed"), r.stdout, file: file, line: line)
        XCTAssertTrue(r.stderr.contains("the host's default transition was used for navigation push Src -> Dst"), r.stderr, file: file, line: line)
    }

    func runScenario(extra: [String] = [], environment: [String: String] = [:]) throws -> BuildProducts.Output {
        let scenario = root + "/scenario.json"
        if !FileManager.default.fileExists(atPath: scenario) {
            try CorpusPlugin.scenario.write(toFile: scenario, atomically: true, encoding: .utf8)
        }
        return try BuildProducts.run(["run", "--plugins", pluginsDir, "--scenario", scenario, "--out", root + "/out"] + extra,
                                     environment: env.merging(environment) { $1 })
    }

    func plugins(_ r: BuildProducts.Output) throws -> [[String: Any]] {
        try XCTUnwrap((JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])?["plugins"] as? [[String: Any]], r.stdout)
    }

    func listPlugin(_ name: String) throws -> [String: Any] {
        let r = try BuildProducts.run(["list", "--json", "--plugins", pluginsDir], environment: env)
        XCTAssertEqual(r.status, 0, r.stderr)
        return try XCTUnwrap(try plugins(r).first { $0["name"] as? String == name && ($0["location"] as? String)?.contains(pluginsDir) == true }, r.stdout)
    }

    func reason(_ p: [String: Any]) -> String { p["reason"] as? String ?? "(no reason)" }
}

/// Small C plugins for the corpus: one animator, routed for navigation push Src -> Dst.
enum CorpusPlugin {
    static let scenario = """
    {"format": "transhost-scenario/1", "name": "corpus", "device": "iphone-5",
     "types": {"Src": "UIViewController", "Dst": "UIViewController"},
     "controllers": {"a": {"type": "Src", "view": {"background": "#2f6fdf"}}, "b": {"type": "Dst", "view": {"background": "#e0533c"}}},
     "root": {"container": "navigation", "stack": ["a"]},
     "script": [{"action": "push", "controller": "b"}]}
    """

    static func source(name: String, version: String = "1.0.0", abi: (Int, Int) = (1, 0), duration: Double = 0.3,
                       initBody: String = "", getAnimator: String = "return strcmp(id, A.id) == 0 ? &A : NULL;") -> String {
        """
        #include "transhost.h"
        #include <signal.h>
        #include <stdlib.h>
        #include <string.h>
        static const th_host_api *host;
        static double dur(const th_animator *s, th_context *c) { (void)s; (void)c; return \(duration); }
        static void noop(void *u) { (void)u; }
        static void done(int f, void *u) { (void)f; host->context_complete_transition((th_context *)u, 1); }
        static void anim(const th_animator *s, th_context *c) {
            th_view *to = host->context_view(c, TH_KEY_TO);
            host->view_add_subview(host->context_container(c), to);
            th_animation_params p = { sizeof(th_animation_params), dur(s, c), 0, 0 };
            host->animate(&p, noop, done, c);
        }
        static const th_animator A = { sizeof(th_animator), "\(name)", dur, anim, NULL, NULL };
        static int init(const th_host_api *h) { host = h; \(initBody) return 0; }
        static void deinit(void) { }
        static const th_animator *get(const char *id) { \(getAnimator) }
        TH_EXPORT const th_plugin_entry transhost_plugin_entry = {
            \(abi.0), \(abi.1), sizeof(th_plugin_entry), "\(name)", "\(version)", init, deinit, get };
        """
    }

    static func manifest(name: String, abi: String, library: String, extra: String = "") -> String {
        """
        {"format": "transhost-manifest/1", "name": "\(name)", "version": "1.0.0", "abi": "\(abi)", "library": "\(library)",
         "animators": [{"id": "\(name)", "routes": [{"container": "navigation", "operations": ["push"], "from": "Src", "to": "Dst", "reverse": false}]}]\(extra)}
        """
    }

    /// `<into>/<name>/manifest.json` and `lib<name>.so`, compiled from `source` (or raw bytes).
    static func write(name: String, into dir: String, source: String? = nil, rawLibrary: String? = nil, abi: String = "1.0",
                      libraryField: String? = nil, extra: String = "") throws {
        let pdir = dir + "/" + name
        try FileManager.default.createDirectory(atPath: pdir, withIntermediateDirectories: true)
        let lib = pdir + "/lib\(name).so"
        if let source {
            // Build beside, then rename: a rebuilt library gets a new inode, as `make install` gives.
            try BuildProducts.compileC(source, to: lib + ".new")
            _ = rename(lib + ".new", lib)
        } else if let rawLibrary {
            try rawLibrary.write(toFile: lib, atomically: true, encoding: .utf8)
        }
        try manifest(name: name, abi: abi, library: libraryField ?? "lib\(name).so", extra: extra)
            .write(toFile: pdir + "/manifest.json", atomically: true, encoding: .utf8)
    }
}
