import TransHostCore
import TransHostSupport
import TransHostDiscovery
import TransHostFFI
import TransHostManifest
#if canImport(Glibc)
import Glibc
#endif

/// Loads a plugin in a child process first, so that a plugin that crashes or hangs while
/// loading is reported instead of taking the host down.
///
/// The child is the transhost binary started fresh (posix_spawn + exec, `transhost __validate`;
/// never a fork of the host, whose other threads may hold locks). It runs exactly what the host
/// would: `PluginLoader.load` — dlopen, dlsym, the ABI and identity checks,
/// `init(HostBridge.table)`, `get_animator` for every animator of the manifest, the configure
/// symbol. On a report pipe (its fd 3) it writes the name of each step before taking it, so a
/// crash or a hang is attributed to the step it happened in, then "+ok" after the last one, or
/// "!reason" when a step fails. Only "+ok" passes: a plugin that calls exit(0) in a constructor
/// or in init ends the child without it and fails. The child's stdout and stderr go to a second
/// pipe, never to the host's. The parent sleeps in poll(2) on both pipes, reaps the child when
/// the report pipe closes, and kills it with SIGKILL after the timeout.
public enum PluginValidator {
    /// The default timeout in seconds (`TRANSHOST_VALIDATE_TIMEOUT` overrides it).
    public static let defaultTimeout = 5.0

    public static func validate(_ manifest: PluginManifest, timeout: Double = defaultTimeout) -> ScanCache.Validation {
        var report: [Int32] = [-1, -1], output: [Int32] = [-1, -1]
        guard pipe(&report) == 0 else {
            return .failed("could not create a pipe for the validation child process (\(String(cString: strerror(errno)))); run with --no-fork to load it in the host")
        }
        guard pipe(&output) == 0 else {
            close(report[0]); close(report[1])
            return .failed("could not create a pipe for the validation child process (\(String(cString: strerror(errno)))); run with --no-fork to load it in the host")
        }
        for fd in report + output { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let pid: pid_t
        do {
            pid = try ChildProcess.spawn(["__validate", "--parent", "\(getpid())", "--manifest", manifest.file],
                                         descriptors: [(1, output[1]), (2, output[1]), (3, report[1])])
        } catch {
            for fd in report + output { close(fd) }
            return .failed("\(error); run with --no-fork to load it in the host")
        }
        close(report[1]); close(output[1])
        defer { close(report[0]); close(output[0]) }
        for fd in [report[0], output[0]] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }

        var said: [UInt8] = [], printed: [UInt8] = []
        func drain(_ fd: Int32, into buffer: inout [UInt8]) -> Bool {
            var buf = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n > 0 { buffer.append(contentsOf: buf[0..<n]); if buffer.count > 65536 { buffer.removeFirst(buffer.count - 65536) } }
                else if n < 0 && errno == EINTR { continue }
                else { return n == 0 }
            }
        }
        let start = monotonicSeconds()
        var reportOpen = true, outputOpen = true
        var status: Int32 = 0
        while reportOpen || outputOpen {
            let left = timeout - (monotonicSeconds() - start)
            if left <= 0 {
                status = ChildProcess.kill(pid)
                _ = drain(report[0], into: &said)
                let stage = lastStage(said)
                return .failed("did not finish loading within \(JSONWriter.format(timeout)) s\(stage.map { " (it was still in \($0.rawValue))" } ?? ""), so the validation child process was killed; fix the hang, or give it longer with TRANSHOST_VALIDATE_TIMEOUT=SECONDS")
            }
            var fds = [pollfd(fd: reportOpen ? report[0] : -1, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: outputOpen ? output[0] : -1, events: Int16(POLLIN), revents: 0)]
            let r = poll(&fds, 2, Int32(min(1000, max(1, left * 1000))))
            if r < 0 && errno != EINTR { break }
            if fds[0].revents != 0 && drain(report[0], into: &said) { reportOpen = false }
            if fds[1].revents != 0 && drain(output[0], into: &printed) { outputOpen = false }
        }
        // Both pipes closed: the child is exiting. One that closed them and lives on is killed
        // at the timeout like any other hang.
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid || (r < 0 && errno != EINTR) { break }
            if monotonicSeconds() - start >= timeout { status = ChildProcess.kill(pid); break }
            usleep(200)
        }
        let also = printedNote(printed)
        if let sig = ChildProcess.signal(of: status) {
            let stage = lastStage(said)
            let what = stage.map { $0 == .dlopen ? "dlopen (a library constructor)" : $0.rawValue } ?? "loading"
            return .failed("\(what) crashed with \(signalName(sig)) in the validation child process, so the plugin was not loaded into the host; fix the crash (the result is remembered until the library or manifest changes)\(also)")
        }
        let code = (status >> 8) & 0xff
        if passed(said) && code == 0 { return .passed }
        if let message = failureMessage(said) { return .failed(message) }
        let stage = lastStage(said)
        return .failed("the validation child process exited with code \(code)\(stage.map { " in \($0 == .dlopen ? "dlopen (a library constructor)" : $0.rawValue)" } ?? "") before it reported that loading succeeded; the plugin may call exit() while loading\(also)")
    }

    /// What the child printed, for a failure message.
    static func printedNote(_ printed: [UInt8]) -> String {
        let text = String(decoding: printed.suffix(400), as: UTF8.self).split(whereSeparator: \.isNewline).joined(separator: " | ")
        return text.isEmpty ? "" : " (it printed: \(text))"
    }

    /// `transhost __validate --parent PID --manifest FILE`: the validation child. Never returns.
    public static func childMain(_ arguments: [String]) -> Never {
        var parent: pid_t = 0, file = ""
        var it = arguments.makeIterator()
        while let a = it.next() {
            if a == "--parent" { parent = pid_t(it.next() ?? "") ?? 0 }
            if a == "--manifest" { file = it.next() ?? "" }
        }
        ChildProcess.becomeChild(of: parent)
        let fd: Int32 = 3
        func send(_ line: String) {
            var bytes = Array(line.utf8.prefix(3000))
            bytes.append(10)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        }
        var stage = LoadStage.inspect
        do {
            let manifest = try PluginManifest.load(file: file)
            let engine = AnimationEngine()
            let bridge = HostBridge(engine: engine, breachHandler: { _ in }, logHandler: { _ in })
            bridge.activate()
            _ = try PluginLoader.load(manifest, bridge: bridge) { s in stage = s; send("@" + s.rawValue) }
            send("+ok")
            _exit(0)
        } catch let e as PluginHostError {
            if case .loadFailed(_, _, let reason) = e { send("!" + reason) } else { send("!" + e.description) }
            _exit(stage.exitCode)
        } catch {
            send("!\(error)")
            _exit(stage.exitCode)
        }
    }

    static func passed(_ output: [UInt8]) -> Bool { lines(output).contains { $0 == "+ok" } }

    private static func lines(_ output: [UInt8]) -> [Substring] {
        String(decoding: output, as: UTF8.self).split(separator: "\n")
    }

    static func lastStage(_ output: [UInt8]) -> LoadStage? {
        lines(output).last { $0.hasPrefix("@") }.flatMap { LoadStage(rawValue: String($0.dropFirst())) }
    }

    static func failureMessage(_ output: [UInt8]) -> String? {
        lines(output).last { $0.hasPrefix("!") }.map { String($0.dropFirst()) }
    }

    public static func signalName(_ s: Int32) -> String {
        let names: [Int32: String] = [SIGSEGV: "SIGSEGV", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE",
                                      SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGTRAP: "SIGTRAP", SIGSYS: "SIGSYS", SIGPIPE: "SIGPIPE",
                                      SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGALRM: "SIGALRM", SIGHUP: "SIGHUP", SIGUSR1: "SIGUSR1", SIGUSR2: "SIGUSR2"]
        return names[s] ?? "signal \(s)"
    }

    static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
