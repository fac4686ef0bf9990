import TransHostManifest
import TransHostPluginHost
import TransHostSupport
#if canImport(Glibc)
import Glibc
#endif

/// Runs validation tests, each in its own child process (`transhost __validate-test`), so a
/// plugin that crashes or hangs in one test fails that test and the next one starts afresh.
///
/// The child is the transhost binary started fresh (as the validation child and the playback
/// workers are). It writes on its fd 3 one line per step before taking it (`@playing ...`),
/// one per detail (`+...`) and the verdict last (`=pass`, `=fail REASON`, `=skip REASON`). A
/// child that ends without a verdict failed: the parent names its signal or exit status and the
/// step it was in. What it prints goes to a pipe of its own, never to the parent's stdout.
public enum ValidationRunner {
    /// Seconds one test may take (`validate --timeout`).
    public static let defaultTimeout = 120.0

    /// Runs `test` on the plugin whose manifest is `manifest`: in a child process, or in this
    /// one when `inProcess` (a crash then ends transhost, as under a debugger you want).
    public static func run(_ test: ValidationTest, manifest: PluginManifest, inProcess: Bool, timeout: Double) -> ValidationResult {
        let (verdict, details) = inProcess
            ? runHere(test.name, manifest: manifest, parameter: nil, timeout: timeout, spawn: false)
            : runChild(test.name, manifestFile: manifest.file, parameter: nil, timeout: timeout)
        return result(verdict, details: details, plugin: manifest.name, manifest: manifest.file, test: test.name)
    }

    static func result(_ v: Verdict, details: [String], plugin: String, manifest: String, test: String) -> ValidationResult {
        switch v {
        case .pass: return ValidationResult(plugin: plugin, manifest: manifest, test: test, status: .passed, details: details)
        case .fail(let r): return ValidationResult(plugin: plugin, manifest: manifest, test: test, status: .failed, reason: r, details: details)
        case .skip(let r): return ValidationResult(plugin: plugin, manifest: manifest, test: test, status: .skipped, reason: r, details: details)
        }
    }

    static func runHere(_ test: String, manifest: PluginManifest, parameter: String?, timeout: Double, spawn: Bool) -> (Verdict, [String]) {
        let ctx = ValidationContext(manifest: manifest)
        if spawn { ctx.spawn = { t, p in runChild(t, manifestFile: manifest.file, parameter: p, timeout: timeout).0 } }
        if let parameter {
            do { ctx.parameters = try ParameterOverrides.parse([parameter], scan: ctx.scan) } catch {
                return (.fail("--param \(parameter): \(error)"), [])
            }
        }
        let v = ValidationChecks.run(test, ctx)
        return (v, ctx.details)
    }

    /// Runs one test in a fresh `transhost __validate-test` process and reads its verdict.
    static func runChild(_ test: String, manifestFile: String, parameter: String?, timeout: Double) -> (Verdict, [String]) {
        var report: [Int32] = [-1, -1], output: [Int32] = [-1, -1]
        guard pipe(&report) == 0 else { return (.fail("could not create a pipe for the test process (\(String(cString: strerror(errno)))); try --in-process"), []) }
        guard pipe(&output) == 0 else {
            close(report[0]); close(report[1])
            return (.fail("could not create a pipe for the test process (\(String(cString: strerror(errno)))); try --in-process"), [])
        }
        for fd in report + output { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var args = ["__validate-test", "--parent", "\(getpid())", "--manifest", manifestFile, "--test", test, "--timeout", JSONWriter.format(timeout)]
        if let parameter { args += ["--param", parameter] }
        let pid: pid_t
        do { pid = try ChildProcess.spawn(args, descriptors: [(1, output[1]), (2, output[1]), (3, report[1])]) } catch {
            for fd in report + output { close(fd) }
            return (.fail("\(error); try --in-process"), [])
        }
        close(report[1]); close(output[1])
        defer { close(report[0]); close(output[0]) }
        for fd in [report[0], output[0]] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        var said: [UInt8] = [], printed: [UInt8] = []
        func drain(_ fd: Int32, into buffer: inout [UInt8], cap: Int) -> Bool {
            var buf = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if n > 0 { buffer.append(contentsOf: buf[0..<n]); if buffer.count > cap { buffer.removeFirst(buffer.count - cap) } }
                else if n < 0 && errno == EINTR { continue }
                else { return n == 0 }
            }
        }
        let start = ValidationChecks.monotonic()
        var reportOpen = true, outputOpen = true, status: Int32 = 0, timedOut = false
        while reportOpen || outputOpen {
            let left = timeout - (ValidationChecks.monotonic() - start)
            if left <= 0 { timedOut = true; break }
            var fds = [pollfd(fd: reportOpen ? report[0] : -1, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: outputOpen ? output[0] : -1, events: Int16(POLLIN), revents: 0)]
            let r = poll(&fds, 2, Int32(min(1000, max(1, left * 1000))))
            if r < 0 && errno != EINTR { break }
            if fds[0].revents != 0 && drain(report[0], into: &said, cap: 1 << 20) { reportOpen = false }
            if fds[1].revents != 0 && drain(output[0], into: &printed, cap: 4096) { outputOpen = false }
        }
        if timedOut {
            status = ChildProcess.kill(pid)
        } else {
            while true {
                let r = waitpid(pid, &status, WNOHANG)
                if r == pid || (r < 0 && errno != EINTR) { break }
                if ValidationChecks.monotonic() - start >= timeout { timedOut = true; status = ChildProcess.kill(pid); break }
                usleep(500)
            }
        }
        _ = Glibc.kill(-pid, SIGKILL)
        let lines = String(decoding: said, as: UTF8.self).split(separator: "\n").map(String.init)
        let details = lines.filter { $0.hasPrefix("+") }.map { String($0.dropFirst()) }
        let step = lines.last { $0.hasPrefix("@") }.map { String($0.dropFirst()) }
        let verdict = lines.last { $0.hasPrefix("=") }.map { String($0.dropFirst()) }
        let note = printedNote(printed)
        if timedOut {
            return (.fail("the test did not finish within \(JSONWriter.format(timeout)) s\(step.map { " (it was \($0))" } ?? ""), so its process was killed: the plugin hangs (or give it longer with --timeout SECONDS)\(note)"), details)
        }
        if let sig = ChildProcess.signal(of: status) {
            let when = verdict == nil ? (step.map { " while \($0)" } ?? "") : " after the test ended (\(step ?? "at exit"))"
            return (.fail("the test process crashed with \(PluginValidator.signalName(sig))\(when)\(note)"), details)
        }
        guard let verdict else {
            let code = (status >> 8) & 0xff
            return (.fail("the test process exited with status \(code)\(step.map { " while \($0)" } ?? "") before it gave a verdict; the plugin may call exit()\(note)"), details)
        }
        if verdict == "pass" { return (.pass, details) }
        if verdict.hasPrefix("fail ") { return (.fail(String(verdict.dropFirst(5))), details) }
        if verdict.hasPrefix("skip ") { return (.skip(String(verdict.dropFirst(5))), details) }
        return (.fail("the test process gave a verdict it should not (\(verdict)); this is a transhost bug"), details)
    }

    /// What the child printed, for a failure message.
    static func printedNote(_ printed: [UInt8]) -> String {
        let text = String(decoding: printed.suffix(400), as: UTF8.self).split(whereSeparator: \.isNewline).joined(separator: " | ")
        return text.isEmpty ? "" : " (it printed: \(text))"
    }

    /// `transhost __validate-test --parent PID --manifest FILE --test NAME [--param P.N=V]`:
    /// one test in this process. Never returns.
    public static func childMain(_ arguments: [String]) -> Never {
        var parent: pid_t = 0, file = "", test = "", parameter: String?, timeout = defaultTimeout
        var it = arguments.makeIterator()
        while let a = it.next() {
            switch a {
            case "--parent": parent = pid_t(it.next() ?? "") ?? 0
            case "--manifest": file = it.next() ?? ""
            case "--test": test = it.next() ?? ""
            case "--param": parameter = it.next()
            case "--timeout": timeout = Double(it.next() ?? "") ?? defaultTimeout
            default: break
            }
        }
        ChildProcess.becomeChild(of: parent)
        func send(_ line: String) {
            var bytes = Array(line.split(whereSeparator: \.isNewline).joined(separator: " ").utf8.prefix(8000))
            bytes.append(10)
            _ = bytes.withUnsafeBytes { write(3, $0.baseAddress, $0.count) }
        }
        let verdict: Verdict, details: [String]
        do {
            let manifest = try PluginManifest.load(file: file)
            let ctx = ValidationContext(manifest: manifest, step: { send("@" + $0) })
            ctx.spawn = { t, p in runChild(t, manifestFile: file, parameter: p, timeout: timeout).0 }
            if let parameter { ctx.parameters = try ParameterOverrides.parse([parameter], scan: ctx.scan) }
            verdict = ValidationChecks.run(test, ctx)
            details = ctx.details
        } catch {
            verdict = .fail("\(error)")
            details = []
        }
        for d in details { send("+" + d) }
        switch verdict {
        case .pass: send("=pass")
        case .fail(let r): send("=fail " + r)
        case .skip(let r): send("=skip " + r)
        }
        // Library destructors run at exit(); only the test that is about them waits for them.
        if test == "binary-init-deinit" { exit(0) }
        _exit(0)
    }
}
