import Foundation
import XCTest

/// `transhost run` forks its first playback worker from the host while the host has one thread,
/// instead of starting the transhost binary again (which loads it and its libraries anew): the
/// worker is still a process of its own, with the descriptors, signals and output capture of
/// one started with exec, and it plays the same. TRANSHOST_WORKER_EXEC=1 starts it with exec.
final class ForkedWorkerTests: XCTestCase {
    /// A plugin that logs the command line of the process it runs in and prints to stdout.
    static let plugin = """
    #include "transhost.h"
    #include <stdio.h>
    #include <string.h>
    #include <unistd.h>
    #include <fcntl.h>
    static const th_host_api *host;
    static double duration(const th_animator *self, th_context *ctx) { (void)self; (void)ctx; return 0.1; }
    static void animate(const th_animator *self, th_context *ctx) {
        (void)self;
        char buf[512] = {0}, line[600];
        int fd = open("/proc/self/cmdline", O_RDONLY);
        ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : 0;
        if (fd >= 0) close(fd);
        const char *base = strrchr(buf, '/'); /* in argv[0], before its NUL is replaced */
        base = base ? base + 1 : buf;
        for (ssize_t i = 0; i + 1 < n; i++) if (buf[i] == 0) buf[i] = ' ';
        snprintf(line, sizeof line, "cmdline: %s", base);
        host->log(TH_LOG_INFO, line);
        /* The descriptors open in the worker's process. */
        char fds[256] = "descriptors:";
        for (int d = 0; d < 1024; d++)
            if (fcntl(d, F_GETFD) >= 0) snprintf(fds + strlen(fds), sizeof fds - strlen(fds), " %d", d);
        host->log(TH_LOG_INFO, fds);
        printf("printed by the plugin\\n");
        fflush(stdout);
        host->view_add_subview(host->context_container(ctx), host->context_view(ctx, TH_KEY_TO));
        host->context_complete_transition(ctx, 1);
    }
    static const th_animator a = { sizeof(th_animator), "where", duration, animate, 0, 0 };
    static int init(const th_host_api *h) { host = h; return 0; }
    static const th_animator *get(const char *id) { (void)id; return &a; }
    TH_EXPORT const th_plugin_entry transhost_plugin_entry = { TH_ABI_MAJOR, TH_ABI_MINOR, sizeof(th_plugin_entry),
        "where", "1.0.0", init, 0, get };
    """

    func makeRoot() throws -> String {
        let root = try BuildProducts.temporaryDirectory(self)
        try BuildProducts.writePushPlugin(named: "where", body: Self.plugin, in: root)
        return root
    }

    func run(_ root: String, out: String, environment: [String: String] = [:]) throws -> BuildProducts.Output {
        try BuildProducts.run(["run", "--scenario", root + "/app.json", "--plugins", root + "/plugins", "--out", root + "/" + out, "--trace-only"],
                              environment: environment)
    }

    func testTheFirstWorkerIsForkedAndPlaysWhatAWorkerStartedWithExecPlays() throws {
        let root = try makeRoot()
        let forked = try run(root, out: "forked")
        let exec = try run(root, out: "exec", environment: ["TRANSHOST_WORKER_EXEC": "1"])
        XCTAssertEqual(forked.status, 0, forked.stderr)
        XCTAssertEqual(exec.status, 0, exec.stderr)
        // The forked worker runs in a copy of the host: its command line is the host's.
        XCTAssertTrue(forked.stderr.contains("[where] info: cmdline: transhost run --scenario"), forked.stderr)
        XCTAssertTrue(exec.stderr.contains("[where] info: cmdline: transhost __worker --parent"), exec.stderr)
        for r in [forked, exec] {
            // Output capture: what the plugin prints is a log line, never the host's stdout.
            XCTAssertFalse(r.stdout.contains("printed by the plugin"), r.stdout)
            XCTAssertTrue(r.stderr.contains("[where] output: printed by the plugin"), r.stderr)
        }
        // The forked worker has its stdin, stdout and stderr, its result pipe, status page, result
        // file and output capture, and none of the host's other descriptors (its saved stdout,
        // the registry it read), whether or not they were close-on-exec.
        XCTAssertTrue(forked.stderr.contains("[where] info: descriptors: 0 1 2 3 4 5 6\n"), forked.stderr)
        // The traces differ only in the logged command line.
        func trace(_ dir: String) throws -> String {
            try String(contentsOfFile: root + "/\(dir)/trace.json", encoding: .utf8)
                .replacingOccurrences(of: #"cmdline: [^"]*"#, with: "cmdline", options: .regularExpression)
                .replacingOccurrences(of: root + "/\(dir)", with: "OUT")
                .replacingOccurrences(of: #"descriptors: [0-9 ]*"#, with: "descriptors", options: .regularExpression)
        }
        XCTAssertEqual(try trace("forked"), try trace("exec"))
    }

    /// A gallery of several scenarios forks every scenario's worker while the host has one
    /// thread (Supervisor.Standby.prepare), not only the first: each later scenario is played
    /// in a copy of the host too, with only its own descriptors, and plays what an exec'd
    /// worker plays.
    func testEveryScenarioOfAGalleryIsPlayedInAForkedWorker() throws {
        let root = try BuildProducts.temporaryDirectory(self)
        let names = ["where-a", "where-b", "where-c"]
        for name in names {
            try BuildProducts.writePushPlugin(named: name, body: Self.plugin.replacingOccurrences(of: "\"where\"", with: "\"\(name)\""), in: root)
            try FileManager.default.copyItem(atPath: root + "/app.json", toPath: root + "/plugins/\(name)/demo.json")
        }
        let entries = names.map { #"{"name": "\#($0)", "path": "plugins/\#($0)", "language": "c", "seeds": [], "description": "logs where it runs"}"# }
        try #"{"format": "transhost-registry/1", "plugins": [\#(entries.joined(separator: ", "))]}"#
            .write(toFile: root + "/registry.json", atomically: true, encoding: .utf8)
        func gallery(_ out: String, environment: [String: String] = [:]) throws -> BuildProducts.Output {
            try BuildProducts.run(["run", "--registry", root + "/registry.json", "--plugins", root + "/plugins", "--out", root + "/" + out, "--trace-only"],
                                  environment: environment)
        }
        let forked = try gallery("forked")
        let exec = try gallery("exec", environment: ["TRANSHOST_WORKER_EXEC": "1"])
        XCTAssertEqual(forked.status, 0, forked.stderr)
        XCTAssertEqual(exec.status, 0, exec.stderr)
        // The three plugins have one route, so where-a animates every scenario's push.
        func count(_ text: String, in output: String) -> Int { output.components(separatedBy: text).count - 1 }
        XCTAssertEqual(count("[where-a] info: cmdline: transhost run --registry", in: forked.stderr), 3, forked.stderr)
        XCTAssertEqual(count("[where-a] info: descriptors: 0 1 2 3 4 5 6\n", in: forked.stderr), 3, "no worker has another's pipes: \(forked.stderr)")
        XCTAssertEqual(count("[where-a] info: cmdline: transhost __worker --parent", in: exec.stderr), 3, exec.stderr)
        for name in names {
            func trace(_ dir: String) throws -> String {
                try String(contentsOfFile: root + "/\(dir)/\(name)/trace.json", encoding: .utf8)
                    .replacingOccurrences(of: #"cmdline: [^"]*"#, with: "cmdline", options: .regularExpression)
                    .replacingOccurrences(of: root + "/\(dir)", with: "OUT")
                    .replacingOccurrences(of: #"descriptors: [0-9 ]*"#, with: "descriptors", options: .regularExpression)
            }
            XCTAssertEqual(try trace("forked"), try trace("exec"), name)
        }
    }

    func testABuiltInDemoTracesTheSameBytesEitherWay() throws {
        let root = try BuildProducts.temporaryDirectory(self)
        let a = try BuildProducts.run(["run", "fade-scale", "-q", "--trace-only", "--out", root + "/forked"])
        let b = try BuildProducts.run(["run", "fade-scale", "-q", "--trace-only", "--out", root + "/exec"], environment: ["TRANSHOST_WORKER_EXEC": "1"])
        XCTAssertEqual(a.status, 0, a.stderr)
        XCTAssertEqual(b.status, 0, b.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: root + "/forked/trace.json")),
                       try Data(contentsOf: URL(fileURLWithPath: root + "/exec/trace.json")))
    }
}
