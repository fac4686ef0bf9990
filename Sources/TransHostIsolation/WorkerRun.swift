import CTransHostProcess
import TransHostDiscovery
import TransHostManifest
import TransHostPluginHost
import TransHostScenario
import TransHostSupport
#if canImport(Glibc)
import Glibc
#endif

/// One playback worker, from spawn to reaping: sends the request, collects the result, watches
/// the wall clock (per plugin call, per load, per scenario) and says how the worker ended.
enum WorkerRun {
    enum Outcome {
        /// The worker could not start or could not play for a reason that is not a plugin's.
        case failedToStart(String)
        /// The result arrived; `lateFailure` names a plugin that failed after it was sent.
        case finished(WorkerResult, lateFailure: PluginFailure?)
        /// A plugin crashed, hung or exited while it was being loaded.
        case loadFailed(plugin: String, reason: String, failure: PluginFailure)
        /// A plugin crashed, hung or exited while the scenario played.
        case callFailed(PluginFailure)
    }

    /// A worker that was started and has its request.
    final class Started {
        let pid: pid_t
        let resultFD: Int32
        /// The in-memory file the worker writes its result into.
        let resultFile: Int32
        let status: WorkerStatus
        let start: Double
        private var finished = false
        init(pid: pid_t, resultFD: Int32, resultFile: Int32, status: WorkerStatus, start: Double) {
            self.pid = pid; self.resultFD = resultFD; self.resultFile = resultFile; self.status = status; self.start = start
        }
        deinit { close(resultFile) }
        /// Ends a worker whose result is no longer wanted (--fail-fast stopped the run).
        func abandon() {
            guard !finished else { return }
            finished = true
            _ = ChildProcess.kill(pid)
            close(resultFD)
        }
        func markFinished() { finished = true }
    }

    static func run(_ request: WorkerRequest, scenario: Scenario, options: IsolationOptions) -> Outcome {
        switch start(request, options: options) {
        case .failure(let e): return .failedToStart(e.message)
        case .success(let w): return finish(w, request: request, scenario: scenario, options: options)
        }
    }

    struct StartError: Error { let message: String }

    /// A worker process started before its request was known: it loads the transhost binary
    /// and its libraries (most of a worker's start) while the host is still scanning plugins and
    /// reading the scenario, then waits on stdin. `start` sends it its request. Dropped unused,
    /// it is killed and reaped.
    final class Spawned {
        let pid: pid_t
        /// The write end of the worker's stdin; -1 once the request was sent.
        fileprivate(set) var input: Int32
        let resultFD: Int32
        let resultFile: Int32
        let status: WorkerStatus
        init(pid: pid_t, input: Int32, resultFD: Int32, resultFile: Int32, status: WorkerStatus) {
            self.pid = pid; self.input = input; self.resultFD = resultFD; self.resultFile = resultFile; self.status = status
        }
        deinit {
            guard input >= 0 else { return }
            giveUp()
            _ = ChildProcess.kill(pid)
        }

        /// Whether the worker can still take a request. One that has ended (killed while it
        /// waited) is reaped here and given up: `start` then spawns a fresh one.
        func takesRequest() -> Bool {
            guard input >= 0 else { return false }
            var status: Int32 = 0
            guard waitpid(pid, &status, WNOHANG) == pid else { return true }
            giveUp()
            return false
        }

        /// Closes what the host holds of a worker that will not be used.
        private func giveUp() {
            close(input)
            close(resultFD)
            close(resultFile)
            input = -1
        }
    }

    /// Starts a worker process with its pipes, status page and result file; it plays nothing
    /// until `start` sends it a request.
    /// `forkOnly`: a failure (nothing started) when the process can no longer fork a worker (it
    /// has threads), instead of spawning one with exec.
    static func spawn(options: IsolationOptions, forkOnly: Bool = false) -> Result<Spawned, StartError> {
        guard let status = WorkerStatus.create() else {
            return .failure(StartError(message: "could not create the shared status page of a playback worker (\(String(cString: strerror(errno)))); run with --isolation none"))
        }
        var input: [Int32] = [-1, -1], result: [Int32] = [-1, -1]
        guard pipe(&input) == 0 else { return .failure(StartError(message: "could not create a pipe for a playback worker (\(String(cString: strerror(errno))))")) }
        guard pipe(&result) == 0 else {
            close(input[0]); close(input[1])
            return .failure(StartError(message: "could not create a pipe for a playback worker (\(String(cString: strerror(errno))))"))
        }
        for fd in input + result { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let file = th_process_memfd("transhost-worker-result")
        guard file >= 0 else {
            for fd in input + result { close(fd) }
            return .failure(StartError(message: "could not create the result file of a playback worker (\(String(cString: strerror(errno))))"))
        }
        let pid: pid_t
        let arguments = ["--parent", "\(getpid())", "--memory", "\(options.memoryBytes)", "--cpu", "\(options.cpuSeconds)"]
        let descriptors: [(child: Int32, parent: Int32)] = [(0, input[0]), (3, result[1]), (4, status.fd), (5, file)]
        do {
            if let forked = try ChildProcess.fork(descriptors: descriptors) {
                if forked == 0 { PlaybackWorker.main(arguments) }
                pid = forked
            } else if forkOnly {
                close(file)
                for fd in input + result { close(fd) }
                return .failure(StartError(message: "this process has threads (or TRANSHOST_WORKER_EXEC is set), so no worker can be forked"))
            } else {
                pid = try ChildProcess.spawn(["__worker"] + arguments, descriptors: descriptors)
            }
        } catch {
            close(file)
            for fd in input + result { close(fd) }
            return .failure(StartError(message: "\(error); run with --isolation none to play in the host"))
        }
        close(input[0]); close(result[1])
        return .success(Spawned(pid: pid, input: input[1], resultFD: result[0], resultFile: file, status: status))
    }

    /// Sends the request to `spawned`, or to a worker spawned now; it starts playing at once.
    static func start(_ request: WorkerRequest, options: IsolationOptions, spawned: Spawned? = nil) -> Result<Started, StartError> {
        let w: Spawned
        if let spawned, spawned.takesRequest() { w = spawned } else {
            switch spawn(options: options) {
            case .failure(let e): return .failure(e)
            case .success(let s): w = s
            }
        }
        let input = w.input
        w.input = -1
        Array(JSONWriter.write(request.json(), pretty: false).utf8).withUnsafeBytes { raw in
            var off = 0
            while off < raw.count {
                let n = write(input, raw.baseAddress! + off, raw.count - off)
                if n > 0 { off += n } else if n < 0 && errno == EINTR { continue } else { break }
            }
        }
        close(input)
        _ = fcntl(w.resultFD, F_SETFL, fcntl(w.resultFD, F_GETFL) | O_NONBLOCK)
        return .success(Started(pid: w.pid, resultFD: w.resultFD, resultFile: w.resultFile, status: w.status, start: Double(WorkerStatus.nowNanoseconds()) / 1e9))
    }

    /// Collects a started worker's result, watching its clocks, and says how it ended.
    static func finish(_ w: Started, request: WorkerRequest, scenario: Scenario, options: IsolationOptions) -> Outcome {
        w.markFinished()
        let pid = w.pid, status = w.status
        let result = [w.resultFD]
        defer { close(w.resultFD) }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        func drain() -> Bool {
            while true {
                let n = chunk.withUnsafeMutableBytes { read(result[0], $0.baseAddress, $0.count) }
                if n > 0 { buffer.append(contentsOf: chunk[0..<n]) } else if n < 0 && errno == EINTR { continue } else { return n == 0 }
            }
        }
        let start = w.start
        var open = true, exited = false
        var wait: Int32 = 0
        var overran: String?
        while !exited {
            if open {
                var pfd = pollfd(fd: result[0], events: Int16(POLLIN), revents: 0)
                if poll(&pfd, 1, 20) > 0 && drain() { open = false }
            } else {
                usleep(500)
            }
            let r = waitpid(pid, &wait, WNOHANG)
            if r == pid { exited = true; break }
            let s = status.read()
            if s.depth > 0 {
                let limit = s.loading ? options.loadTimeout : options.callTimeout
                if s.callSeconds > limit { overran = "no return within \(JSONWriter.format(limit)) s" }
            }
            if Double(WorkerStatus.nowNanoseconds()) / 1e9 - start > options.workerTimeout {
                overran = "the scenario took more than \(JSONWriter.format(options.workerTimeout)) s"
            }
            if overran != nil { wait = ChildProcess.kill(pid); exited = true }
        }
        _ = drain()
        // Anything a plugin started in the worker's process group goes with it.
        _ = Glibc.kill(-pid, SIGKILL)
        let snap = status.read()
        let cause = overran ?? ChildProcess.describe(wait)
        let clean = overran == nil && ChildProcess.signal(of: wait) == nil && (wait >> 8) & 0xff == 0

        if let (k, p) = message(buffer) {
            var kind = k, payload = p
            if kind == 3 {
                var r = ByteReader(payload)
                guard let length = try? r.int(), let bytes = readFile(w.resultFile, length: length) else {
                    return .failedToStart("the playback worker of scenario \(scenario.name) said its result was ready, but it could not be read; this is a transhost bug")
                }
                kind = 1
                payload = bytes
            }
            if kind == 2 { return .failedToStart("the playback worker of scenario \(scenario.name) stopped: \(String(decoding: payload, as: UTF8.self))") }
            do {
                let decoded = try PlayResultCodec.decode(payload, scenario: scenario, fps: request.fps)
                var late: PluginFailure?
                if !clean {
                    let who = snap.plugin.isEmpty ? "a plugin" : "plugin \(snap.plugin)"
                    late = PluginFailure(plugin: snap.plugin.isEmpty ? "(a plugin library)" : snap.plugin, call: snap.call, cause: cause, transition: nil,
                                         message: "\(who) \(verb(cause)) in \(snap.call) after the scenario was played (its playback worker ended with \(cause)); every output was still made")
                }
                return .finished(decoded, lateFailure: late)
            } catch {
                return .failedToStart("the playback worker of scenario \(scenario.name) sent a damaged result (\(error)); this is a transhost bug")
            }
        }
        if snap.plugin.isEmpty || snap.phase == TH_WORKER_STARTING {
            return .failedToStart("the playback worker of scenario \(scenario.name) ended with \(cause) before any plugin ran; run with --isolation none to play in the host")
        }
        let transition = snap.transition
        if snap.loading && snap.depth > 0 {
            let reason: String
            if overran != nil {
                reason = "did not finish loading within \(JSONWriter.format(options.loadTimeout)) s (it was still in \(snap.call)), so the playback worker process was killed; fix the hang, or give it longer with TRANSHOST_VALIDATE_TIMEOUT=SECONDS"
            } else if ChildProcess.signal(of: wait) != nil {
                reason = "\(snap.call) crashed with \(cause) in the playback worker process, so the plugin was not used; fix the crash (the result is remembered until the library or manifest changes)"
            } else {
                reason = "the playback worker process ended with \(cause) in \(snap.call) before the plugin finished loading; the plugin may call exit() while loading"
            }
            return .loadFailed(plugin: snap.plugin, reason: reason,
                               failure: PluginFailure(plugin: snap.plugin, call: snap.call, cause: cause, transition: transition,
                                                      message: "plugin \(snap.plugin): \(reason)"))
        }
        let call = snap.depth > 0 ? snap.call : "host code after its \(snap.call) returned (a thread it started?)"
        let at = transition.map { "transition #\($0)" } ?? "the scenario"
        let during = transition.map { "during transition #\($0)" } ?? "while the scenario played"
        let what: String
        if overran != nil {
            what = "plugin \(snap.plugin) did not return from \(call) within \(JSONWriter.format(options.callTimeout)) s (TRANSHOST_PLUGIN_TIMEOUT) \(during), so its playback worker was killed"
        } else {
            what = "plugin \(snap.plugin) \(verb(cause)) (\(cause)) in \(call) \(during), and its playback worker died"
        }
        return .callFailed(PluginFailure(plugin: snap.plugin, call: call, cause: overran == nil ? cause : "timeout (\(cause))", transition: transition,
                                         message: "\(what); \(at) and every later transition routed to \(snap.plugin) were played with the host's default transition"))
    }

    static func verb(_ cause: String) -> String {
        cause.hasPrefix("SIG") ? "crashed" : (cause.hasPrefix("exit") ? "ended the process" : "hung")
    }

    /// The first `length` bytes of an in-memory file.
    static func readFile(_ fd: Int32, length: Int) -> [UInt8]? {
        guard length >= 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: length)
        var off = 0
        let ok = bytes.withUnsafeMutableBytes { raw -> Bool in
            while off < length {
                let n = pread(fd, raw.baseAddress! + off, length - off, off_t(off))
                if n > 0 { off += n } else if n < 0 && errno == EINTR { continue } else { return false }
            }
            return true
        }
        return ok ? bytes : nil
    }

    /// The complete message in `buffer`: kind, then an 8-byte length, then the payload.
    static func message(_ buffer: [UInt8]) -> (UInt8, [UInt8])? {
        var r = ByteReader(buffer)
        guard let kind = try? r.u8(), let length = try? r.int(), length >= 0, buffer.count - 9 >= length else { return nil }
        return (kind, Array(buffer[9..<9 + length]))
    }
}
