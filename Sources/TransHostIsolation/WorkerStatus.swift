import CTransHostProcess
#if canImport(Glibc)
import Glibc
#endif

/// The page a playback worker and its supervisor share (`th_worker_status`): the worker says
/// where it is before and after every plugin call; the supervisor reads it when the worker
/// dies or overruns, so nothing has to be sent at the moment of a crash.
final class WorkerStatus {
    let fd: Int32
    private let page: UnsafeMutablePointer<th_worker_status>

    private init(fd: Int32, page: UnsafeMutablePointer<th_worker_status>) { self.fd = fd; self.page = page }

    /// A new shared page (supervisor side); its fd is passed to the worker.
    static func create() -> WorkerStatus? {
        let fd = th_process_memfd("transhost-worker-status")
        guard fd >= 0 else { return nil }
        guard ftruncate(fd, off_t(MemoryLayout<th_worker_status>.size)) == 0, let w = map(fd) else { close(fd); return nil }
        w.page.pointee.transition = -1
        return w
    }

    /// The page the supervisor created (worker side).
    static func attach(_ fd: Int32) -> WorkerStatus? { map(fd) }

    private static func map(_ fd: Int32) -> WorkerStatus? {
        let p = mmap(nil, MemoryLayout<th_worker_status>.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        guard let p, p != MAP_FAILED else { return nil }
        return WorkerStatus(fd: fd, page: p.assumingMemoryBound(to: th_worker_status.self))
    }

    deinit {
        munmap(page, MemoryLayout<th_worker_status>.size)
        close(fd)
    }

    // MARK: worker side

    func set(phase: th_worker_phase) { page.pointee.phase = Int32(phase.rawValue); bump() }

    func enter(plugin: String, call: String, transition: Int, depth: Int, loading: Bool = false) {
        page.pointee.loading = loading ? 1 : 0
        write(plugin, into: &page.pointee.plugin)
        write(call, into: &page.pointee.call)
        page.pointee.transition = Int32(clamping: transition)
        page.pointee.call_started_ns = Self.nowNanoseconds()
        page.pointee.depth = Int32(depth)
        bump()
    }

    func leave(depth: Int) { page.pointee.depth = Int32(depth); page.pointee.loading = 0; bump() }

    private func bump() { page.pointee.sequence &+= 1 }

    private func write<T>(_ s: String, into field: inout T) {
        withUnsafeMutableBytes(of: &field) { raw in
            let bytes = Array(s.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
    }

    // MARK: supervisor side

    struct Snapshot {
        var phase: th_worker_phase
        var depth: Int
        var loading: Bool
        var transition: Int?
        var plugin: String
        var call: String
        /// Seconds the innermost plugin call has been running (when depth > 0).
        var callSeconds: Double
    }

    func read() -> Snapshot {
        let p = page.pointee
        func text<T>(_ field: T) -> String {
            var f = field
            return withUnsafeBytes(of: &f) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
        }
        return Snapshot(phase: th_worker_phase(rawValue: UInt32(max(0, p.phase))), depth: Int(p.depth), loading: p.loading != 0,
                        transition: p.transition >= 0 ? Int(p.transition) : nil, plugin: text(p.plugin), call: text(p.call),
                        callSeconds: Double(Self.nowNanoseconds() - p.call_started_ns) / 1e9)
    }

    static func nowNanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }
}
