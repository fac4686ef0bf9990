import TransHostSupport
import TransHostDiscovery
import TransHostFFI
import TransHostManifest
#if canImport(Glibc)
import Glibc
#endif

/// Loads a plugin in a child process first, so that a plugin that crashes
/// or hangs while loading is reported instead of taking the host down.
///
/// The child (fork, no exec) runs exactly what the host would: `PluginLoader.load` — dlopen,
/// dlsym, the ABI and identity checks, `init(HostBridge.table)`, `get_animator` for every
/// animator of the manifest, the configure symbol — and `_exit(0)`s, or `_exit`s with the failed
/// step's `LoadStage.exitCode` after writing the reason to a pipe. Before each step it writes the
/// step's name to the pipe, so a crash or a hang is attributed to the step it happened in. The
/// parent polls `waitpid(WNOHANG)`, sleeping in poll(2) on the pipe between polls so that it
/// wakes as soon as the child exits, and kills the child with SIGKILL after the timeout.
public enum PluginValidator {
    /// The default timeout in seconds (`TRANSHOST_VALIDATE_TIMEOUT` overrides it).
    public static let defaultTimeout = 5.0

    public static func validate(_ manifest: PluginManifest, timeout: Double = defaultTimeout) -> ScanCache.Validation {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            return .failed("could not create a pipe for the validation child process (\(String(cString: strerror(errno)))); run with --no-fork to load it in the host")
        }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        // The child inherits unflushed buffers; flush every stream so output is not doubled.
        fflush(nil)
        let pid = fork()
        if pid < 0 {
            close(fds[0]); close(fds[1])
            return .failed("could not fork a validation child process (\(String(cString: strerror(errno)))); run with --no-fork to load it in the host")
        }
        if pid == 0 { child(manifest, writeFD: fds[1]) }
        close(fds[1])
        defer { close(fds[0]) }
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)

        var output: [UInt8] = []
        func drain() {
            var buf = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buf.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, $0.count) }
                if n > 0 { output.append(contentsOf: buf[0..<n]); if output.count > 65536 { output.removeFirst(output.count - 65536) } }
                else if n < 0 && errno == EINTR { continue }
                else { break }
            }
        }
        let start = monotonicSeconds()
        var status: Int32 = 0
        var pause: UInt32 = 20 // microseconds, growing to 5 ms, once the pipe is closed
        var hungUp = false
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { break }
            if r < 0 && errno != EINTR {
                return .failed("waiting for the validation child process failed (\(String(cString: strerror(errno)))); run with --no-fork to load it in the host")
            }
            drain()
            if monotonicSeconds() - start >= timeout {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                drain()
                let stage = lastStage(output)
                return .failed("did not finish loading within \(JSONWriter.format(timeout)) s\(stage.map { " (it was still in \($0.rawValue))" } ?? ""), so the validation child process was killed; fix the hang, or give it longer with TRANSHOST_VALIDATE_TIMEOUT=SECONDS")
            }
            // Sleep until the child writes or exits (its end of the pipe closes), at most 5 ms.
            if hungUp {
                usleep(pause)
                pause = min(pause * 2, 5000)
            } else {
                var pfd = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
                let left = Int32(max(0, (timeout - (monotonicSeconds() - start)) * 1000))
                if poll(&pfd, 1, min(5, left + 1)) > 0 && pfd.revents & Int16(POLLHUP) != 0 && pfd.revents & Int16(POLLIN) == 0 {
                    hungUp = true
                }
            }
        }
        drain()
        let termSignal = status & 0x7f
        if termSignal != 0 && termSignal != 0x7f {
            let stage = lastStage(output)
            let what = stage.map { $0 == .dlopen ? "dlopen (a library constructor)" : $0.rawValue } ?? "loading"
            return .failed("\(what) crashed with \(signalName(termSignal)) in the validation child process, so the plugin was not loaded into the host; fix the crash (the result is remembered until the library or manifest changes)")
        }
        let code = (status >> 8) & 0xff
        if code == 0 { return .passed }
        if let message = failureMessage(output) { return .failed(message) }
        let stage = LoadStage.allCases.first { $0.exitCode == code }
        return .failed("the validation child process exited with code \(code)\(stage.map { " (in \($0.rawValue))" } ?? "") without saying why; the plugin may call exit() while loading")
    }

    /// In the child: never returns.
    private static func child(_ manifest: PluginManifest, writeFD fd: Int32) -> Never {
        // No core files, and the default action for crash signals: the Swift runtime's
        // backtracer would otherwise catch them and print a host backtrace for plugin code.
        var noCore = rlimit(rlim_cur: 0, rlim_max: 0)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &noCore)
        for s in [SIGSEGV, SIGABRT, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS] { signal(s, SIG_DFL) }
        func send(_ line: String) {
            var bytes = Array(line.utf8.prefix(3000))
            bytes.append(10)
            _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        }
        var stage = LoadStage.inspect
        do {
            _ = try PluginLoader.load(manifest, bridge: HostBridge.current) { s in stage = s; send("@" + s.rawValue) }
            _exit(0)
        } catch let e as PluginHostError {
            if case .loadFailed(_, _, let reason) = e { send("!" + reason) } else { send("!" + e.description) }
            _exit(stage.exitCode)
        } catch {
            send("!\(error)")
            _exit(stage.exitCode)
        }
    }

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
