import CTransHostProcess
import TransHostCoordinators
import TransHostDiscovery
import TransHostManifest
import TransHostPluginHost
import TransHostRun
import TransHostScenario
import TransHostSupport
#if canImport(Glibc)
import Glibc
#endif

/// `transhost __worker`: plays one scenario with its plugins in this process and sends the
/// result to the supervisor that started it. Plugin code runs only here, never in the host.
///
/// Descriptors: 0 the request (JSON, see WorkerRequest), 3 the result pipe, 4 the shared status
/// page, 5 an in-memory file for the result. stdout and stderr are replaced by an in-memory file, read after every plugin call, so
/// what a plugin prints becomes a log line named by that plugin and never reaches the host's
/// stdout. The result is sent before deinit and library destructors run, so a plugin that
/// crashes on the way out costs no output.
public enum PlaybackWorker {
    public static func main(_ arguments: [String]) -> Never {
        var parent: pid_t = 0, memory: UInt64?, cpu: UInt64?
        var it = arguments.makeIterator()
        while let a = it.next() {
            switch a {
            case "--parent": parent = pid_t(it.next() ?? "") ?? 0
            case "--memory": memory = UInt64(it.next() ?? "")
            case "--cpu": cpu = UInt64(it.next() ?? "")
            default: break
            }
        }
        ChildProcess.becomeChild(of: parent, addressSpaceBytes: memory, cpuSeconds: cpu)
        guard let status = WorkerStatus.attach(4) else { _exit(71) }
        let capture = OutputCapture()
        let request: WorkerRequest
        do {
            request = try WorkerRequest(json: try JSONParser.parse(bytes: readAll(0)))
        } catch {
            send([UInt8]("!the worker could not read its request: \(error)".utf8), kind: 2)
            _exit(72)
        }
        let scenario: Scenario
        var records: [PluginRecord] = []
        do {
            var s = request.scenarioSource == "built-in" ? Scenario.builtInDefault : try Scenario.load(file: request.scenarioSource)
            s.device = request.device
            scenario = s
            for p in request.plugins {
                let m = try PluginManifest.load(file: p.manifest)
                records.append(PluginRecord(name: m.name, version: m.version, abi: m.abi, source: "third-party", manifestPath: p.manifest,
                                            libraryPath: m.libraryPath, manifest: m, status: .ok, validation: p.validation))
            }
        } catch {
            send([UInt8]("!\(error)".utf8), kind: 2)
            _exit(73)
        }
        var scan = PluginScan(records: records, warnings: [])
        scan.searchOrder = request.plugins.map(\.manifest)

        let monitor = CallMonitor(status: status, capture: capture)
        HostBridge.callObserver = monitor
        var control = PlaybackControl()
        control.excluded = request.excluded
        control.replaced = request.replaced
        var validations: [(plugin: String, failure: String?)] = []
        control.validation = { plugin, v in
            if case .failed(let r) = v { validations.append((plugin, r)) } else { validations.append((plugin, nil)) }
        }
        control.loadStage = { plugin, stage in monitor.loadStage(plugin, stage == .dlopen ? "dlopen (a library constructor)" : stage.rawValue) }
        control.loadEnded = { _ in monitor.loadEnded() }
        control.started = { app in monitor.app = app }
        status.set(phase: TH_WORKER_PLAYING)
        let parameters: ParameterOverrides
        do { parameters = try ParameterOverrides.parse(request.parameters, scan: scan) } catch {
            send([UInt8]("!\(error)".utf8), kind: 2)
            _exit(74)
        }
        let played = Playback.play(scenario, scan: scan, fps: FrameRate(request.fps) ?? .standard,
                                   loading: PluginLoadOptions(fork: false, parameters: parameters),
                                   failures: request.unroutable, control: control)
        monitor.collectOutput()
        var run = played.run
        run.events += monitor.output.map(RunEvent.log)
        status.set(phase: TH_WORKER_REPORTING)
        // The result goes into the in-memory file the supervisor gave (fd 5) in one write, so
        // the worker never waits for the supervisor to drain a pipe; the pipe only says how long.
        let result = PlayResultCodec.encode(run, validations: validations)
        if writeAll(5, result) {
            var w = ByteWriter(capacity: 8)
            w.int(result.count)
            send(w.bytes, kind: 3)
        } else {
            send(result, kind: 1)
        }
        close(3)
        close(5)
        status.set(phase: TH_WORKER_EXITING)
        PluginLibraries.process.shutdown()
        // Library destructors run in exit(); a crash there is named as one "at exit".
        monitor.exiting()
        exit(0)
    }

    /// One message on the result pipe: kind (1 result, 2 error text, 3 the result's length in
    /// the result file), length, bytes.
    static func send(_ bytes: [UInt8], kind: UInt8) {
        var w = ByteWriter(capacity: bytes.count + 16)
        w.u8(kind)
        w.int(bytes.count)
        w.append(bytes)
        _ = writeAll(3, w.bytes)
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var off = 0
        return bytes.withUnsafeBytes { raw in
            while off < raw.count {
                let n = write(fd, raw.baseAddress! + off, raw.count - off)
                if n > 0 { off += n } else if n < 0 && errno == EINTR { continue } else { return false }
            }
            return true
        }
    }

    static func readAll(_ fd: Int32) -> [UInt8] {
        var out: [UInt8] = []
        var buf = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n > 0 { out.append(contentsOf: buf[0..<n]) } else if n < 0 && errno == EINTR { continue } else { break }
        }
        return out
    }
}

/// Publishes every plugin call to the status page and turns what plugins print into log lines.
final class CallMonitor: PluginCallObserver {
    let status: WorkerStatus
    let capture: OutputCapture?
    var app: App?
    /// The plugin being loaded and the step it is in (its constructors and init are plugin code
    /// even between host calls, and they get the load timeout).
    private var loading: (plugin: String, step: String)?
    private var stack: [(plugin: String, call: String)] = []
    private(set) var output: [String] = []

    init(status: WorkerStatus, capture: OutputCapture?) { self.status = status; self.capture = capture }

    func transition() -> Int { app?.host.currentTransitionIndex ?? 0 }

    func exiting() {
        collectOutput()
        status.enter(plugin: "", call: "library destructors at exit", transition: transition(), depth: 1)
    }

    func loadStage(_ plugin: String, _ step: String) {
        collectOutput()
        loading = (plugin, step)
        status.enter(plugin: plugin, call: step, transition: transition(), depth: stack.count + 1, loading: true)
    }

    func loadEnded() {
        collectOutput()
        loading = nil
        if let top = stack.last {
            status.enter(plugin: top.plugin, call: top.call, transition: transition(), depth: stack.count)
        } else {
            status.leave(depth: 0)
        }
    }

    func willCall(plugin: String, call: String) {
        collectOutput()
        stack.append((plugin, call))
        status.enter(plugin: plugin, call: call, transition: transition(), depth: stack.count + (loading == nil ? 0 : 1), loading: loading != nil)
    }

    func didReturn(to outer: (plugin: String, call: String)?) {
        let returned = stack.popLast()
        collectOutput(by: returned?.plugin)
        if let outer {
            status.enter(plugin: outer.plugin, call: outer.call, transition: transition(), depth: stack.count + (loading == nil ? 0 : 1),
                         loading: loading != nil)
        } else if let l = loading {
            status.enter(plugin: l.plugin, call: l.step, transition: transition(), depth: 1, loading: true)
        } else {
            status.leave(depth: 0)
        }
    }

    /// Output printed since the last look belongs to the plugin that was running.
    func collectOutput(by plugin: String? = nil) {
        guard let capture, let text = capture.take() else { return }
        let who = plugin ?? stack.last?.plugin ?? loading?.plugin ?? "a plugin"
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            output.append("[\(who)] output: \(line)")
        }
    }
}

/// stdout and stderr of the worker, redirected into an in-memory file.
final class OutputCapture {
    private let fd: Int32
    private var consumed = 0
    /// At most this much of what plugins print is kept (the rest is dropped).
    static let limit = 1 << 20

    init?() {
        let fd = th_process_memfd("transhost-worker-output")
        guard fd >= 0 else { return nil }
        self.fd = fd
        fflush(nil)
        dup2(fd, 1)
        dup2(fd, 2)
        // A plugin that prints without end gets EFBIG instead of filling memory.
        _ = Glibc.signal(SIGXFSZ, SIG_IGN)
        var l = rlimit(rlim_cur: rlim_t(Self.limit * 16), rlim_max: rlim_t(Self.limit * 16))
        _ = setrlimit(__rlimit_resource_t(RLIMIT_FSIZE.rawValue), &l)
    }

    func take() -> String? {
        fflush(nil)
        var st = stat()
        guard fstat(fd, &st) == 0, Int(st.st_size) > consumed else { return nil }
        let size = Int(st.st_size)
        let n = min(size - consumed, Self.limit)
        var buf = [UInt8](repeating: 0, count: n)
        let got = buf.withUnsafeMutableBytes { pread(fd, $0.baseAddress, n, off_t(consumed)) }
        consumed = size
        guard got > 0 else { return nil }
        if size > Self.limit * 8 { _ = ftruncate(fd, 0); _ = lseek(fd, 0, SEEK_SET); consumed = 0 }
        return String(decoding: buf[0..<got], as: UTF8.self)
    }
}
