import Foundation
import XCTest
@testable import TransHostCommands

/// The command line as people actually type it: options in any order, typos, `--`, exit codes
/// a script can rely on, a progress line that behaves on any terminal, and Ctrl-C.
final class CommandLineEdgeTests: XCTestCase {
    var root = ""
    var plugins = ""

    override func setUpWithError() throws {
        root = try BuildProducts.temporaryDirectory(self)
        plugins = root + "/plugins"
        try BuildProducts.installPlugin("fade-scale", library: "libfade-scale.so", into: plugins)
    }

    func run(_ args: [String], environment: [String: String] = [:]) throws -> BuildProducts.Output {
        try BuildProducts.run(args, environment: environment)
    }

    func testCommonOptionsMayComeBeforeTheCommandAndQuietIsAcceptedEverywhere() throws {
        let list = try run(["--plugins", plugins, "list"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertTrue(list.stdout.contains("found in: --plugins \(plugins)"), list.stdout)
        let route = try run(["route", "-q", "--container", "navigation", "--op", "push", "--from", "A", "--to", "B", "--plugins", plugins])
        XCTAssertEqual(route.status, 0, route.stderr)
        XCTAssertTrue(route.stdout.contains("fade-scale/fade-scale"), route.stdout)
        let inspect = try run(["-q", "--plugins", plugins, "inspect", "fade-scale"])
        XCTAssertEqual(inspect.status, 0, inspect.stderr)
    }

    func testTyposGetASuggestionAndHelpForNoSuchCommandIsAUsageError() throws {
        let help = try run(["help", "rn"])
        XCTAssertEqual(help.status, 2)
        XCTAssertTrue(help.stderr.contains(#"there is no command "rn"; did you mean "run"?"#), help.stderr)
        let command = try run(["lsit"])
        XCTAssertEqual(command.status, 2)
        XCTAssertTrue(command.stderr.contains(#"unknown command "lsit"; did you mean "list"?"#), command.stderr)
        let option = try run(["run", "--scenaro", "default"])
        XCTAssertEqual(option.status, 2)
        XCTAssertTrue(option.stderr.contains(#"unknown option --scenaro; did you mean "--scenario"?"#), option.stderr)
        let plugin = try run(["inspect", "fade-scal", "--plugins", plugins])
        XCTAssertNotEqual(plugin.status, 0)
        XCTAssertTrue(plugin.stderr.contains(#"no plugin named fade-scal is installed; did you mean "fade-scale"?"#), plugin.stderr)
    }

    func testMisspeltParameterPluginsAndNamesGetASuggestion() throws {
        let plugin = try run(["run", "--scenario", "default", "--trace-only", "--out", root + "/o", "--plugins", plugins, "--param", "fade-scal.duration=0.3"])
        XCTAssertEqual(plugin.status, 2, plugin.stderr)
        XCTAssertTrue(plugin.stderr.contains(#"no plugin named fade-scal is installed; did you mean "fade-scale"?"#), plugin.stderr)
        let name = try run(["run", "--scenario", "default", "--trace-only", "--out", root + "/o", "--plugins", plugins, "--param", "fade-scale.duraton=0.3"])
        XCTAssertEqual(name.status, 2, name.stderr)
        XCTAssertTrue(name.stderr.contains(#"no such parameter; did you mean "duration"?"#), name.stderr)
    }

    func testDoubleDashEndsTheOptions() throws {
        let r = try run(["inspect", "--plugins", plugins, "--", "--help"])
        XCTAssertNotEqual(r.status, 0, "--help after -- must not print help")
        XCTAssertTrue(r.stderr.contains("no plugin named --help is installed"), r.stderr)
        let ok = try run(["inspect", "--plugins", plugins, "--", "fade-scale"])
        XCTAssertEqual(ok.status, 0, ok.stderr)
    }

    func testListFailedAndInspectOfABrokenPluginExitThree() throws {
        // The staged first-party plugins alone: nothing is broken.
        let clean = try run(["list", "--failed"])
        XCTAssertEqual(clean.status, 0, clean.stdout + clean.stderr)
        XCTAssertTrue(clean.stdout.contains("no failed plugins"), clean.stdout)
        let plugins = root + "/only-broken"
        try FileManager.default.createDirectory(atPath: plugins + "/broken", withIntermediateDirectories: true)
        try #"{"name": "broken", "version": "1", "abi": "1.0", "library": "libbroken.so", "animators": [{"id": "a"}]}"#
            .write(toFile: plugins + "/broken/manifest.json", atomically: true, encoding: .utf8)
        let failed = try run(["list", "--failed", "--plugins", plugins])
        XCTAssertEqual(failed.status, 3, failed.stdout + failed.stderr)
        XCTAssertTrue(failed.stdout.contains("broken"), failed.stdout)
        let json = try run(["list", "--failed", "--json", "--plugins", plugins])
        XCTAssertEqual(json.status, 3)
        let inspect = try run(["inspect", "broken", "--plugins", plugins])
        XCTAssertEqual(inspect.status, 3, inspect.stderr)
        XCTAssertTrue(inspect.stdout.contains("does not exist"), inspect.stdout)
    }

    func testStaleTemporaryFilesOfDeadProcessesAreSweptAndLiveOnesKept() throws {
        let out = root + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let gone = Process()
        gone.executableURL = URL(fileURLWithPath: "/bin/true")
        try gone.run()
        gone.waitUntilExit()
        let stale = out + "/.trace.json.tmp.\(gone.processIdentifier).140234"
        let live = out + "/.trace.json.tmp.\(getpid()).140234"
        for f in [stale, live] { try "partial".write(toFile: f, atomically: false, encoding: .utf8) }
        let r = try run(["run", "--scenario", "default", "--trace-only", "--out", out, "--plugins", plugins])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: stale), "a dead writer's temporary file was left")
        XCTAssertTrue(FileManager.default.fileExists(atPath: live), "a live process's temporary file was removed")
    }

    func testCtrlCLeavesNoTemporaryFiles() throws {
        let out = root + "/gallery"
        let p = Process()
        p.executableURL = URL(fileURLWithPath: BuildProducts.transhost)
        p.arguments = ["run", "--out", out, "--frames", "--rescan"]
        p.environment = ProcessInfo.processInfo.environment.merging(["TRANSHOST_CACHE": ""]) { $1 }
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try p.run()
        func temporaries() -> [String] {
            (FileManager.default.enumerator(atPath: out)?.allObjects as? [String] ?? []).filter { $0.contains(".tmp.") }
        }
        // Interrupt it while it is writing (a temporary file exists), as Ctrl-C would.
        var seen = false
        for _ in 0..<20_000 where p.isRunning {
            if !temporaries().isEmpty { seen = true; break }
            usleep(500)
        }
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        XCTAssertTrue(seen, "no temporary file was seen while the gallery was written")
        XCTAssertEqual(p.terminationReason, .uncaughtSignal, "SIGINT still ends the run")
        XCTAssertEqual(temporaries(), [], "an interrupted run left temporary files")
    }

    // MARK: - progress line

    /// Applies raw writes as a terminal would (carriage return, overwrite) and returns the line.
    final class Terminal: @unchecked Sendable {
        var line: [Character] = []
        var cursor = 0
        var raw = ""
        func write(_ s: String) {
            raw += s
            for c in s {
                if c == "\r" { cursor = 0; continue }
                if cursor < line.count { line[cursor] = c } else { line.append(c) }
                cursor += 1
            }
        }
    }

    func testTheProgressLineFitsTheWidthUsesNoEscapesAndClearsItself() throws {
        let term = Terminal()
        let console = Console(out: { _ in }, err: { _ in }, isTTY: true, errRaw: term.write)
        let line = try XCTUnwrap(ProgressLine(console: console, environment: ["COLUMNS": "40", "TERM": "dumb"], quiet: false))
        line.render(done: 1, total: 3, of: "a-scenario-with-a-rather-long-name")
        XCTAssertLessThanOrEqual(term.line.count, 39)
        line.render(done: 3, total: 3, of: "s")
        XCTAssertTrue(String(term.line).hasPrefix("[") && String(term.line).contains("s: rendered 3/3"), String(term.line))
        line.clear()
        XCTAssertTrue(term.line.allSatisfy { $0 == " " }, "stale text left: \(String(term.line))")
        XCTAssertEqual(term.cursor, 0)
        XCTAssertFalse(term.raw.contains("\u{1B}"), "escape sequences written")
        XCTAssertNil(ProgressLine(console: console, environment: [:], quiet: true))
        XCTAssertNil(ProgressLine(console: Console(out: { _ in }, err: { _ in }, isTTY: false, errRaw: term.write), environment: [:], quiet: false))
    }
}
