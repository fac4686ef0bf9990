#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The temporary files atomic writes have open (`.NAME.tmp.PID.N` beside their target), so an
/// interrupted run leaves none behind: on SIGINT or SIGTERM the handler unlinks them and the
/// signal then takes its default action. A crash or SIGKILL cannot be handled; the next write
/// into the same directory sweeps files of that pattern whose process is gone.
///
/// Global on purpose: a signal handler can reach nothing else. It only reads fixed slots
/// prepared outside it and calls unlink(2), which is async-signal-safe.
public enum TemporaryFiles {
    static let slots = 256
    static let pathCapacity = 4096
    /// Zeroed by calloc, whose fresh pages the system maps only when a slot is written: a
    /// megabyte cleared by hand cost every command a few hundred page faults at start.
    nonisolated(unsafe) private static let paths: UnsafeMutablePointer<CChar> =
        calloc(slots * pathCapacity, 1)!.bindMemory(to: CChar.self, capacity: slots * pathCapacity)
    /// 1 while a slot holds a live temporary path.
    nonisolated(unsafe) private static let used: UnsafeMutablePointer<Int32> = {
        let p = UnsafeMutablePointer<Int32>.allocate(capacity: slots)
        p.initialize(repeating: 0, count: slots)
        return p
    }()
    /// Writers between registering a temporary path and having created its file, and whether
    /// the handler has begun: the handler waits for the first to drain (a pool thread may be
    /// about to create a file it already passed over) and writers seeing the second stop
    /// before creating anything, so no file appears after the handler's sweep.
    private static let creating = Atomic<Int>(0)
    private static let terminating = Atomic<Bool>(false)
    nonisolated(unsafe) private static var lock = pthread_mutex_t()
    nonisolated(unsafe) private static var installed = false
    nonisolated(unsafe) private static var swept = Set<String>()

    /// Installs the SIGINT/SIGTERM handlers (the CLI does; embedders choose).
    public static func installSignalCleanup() {
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        guard !installed else { return }
        installed = true
        _ = paths; _ = used; _ = creating.load(ordering: .relaxed); _ = terminating.load(ordering: .relaxed)
        signal(SIGINT, handler)
        signal(SIGTERM, handler)
    }

    private static let handler: @convention(c) (Int32) -> Void = { sig in
        terminating.store(true, ordering: .sequentiallyConsistent)
        // At most 0.2 s: a writer interrupted by this very signal on its own thread never drains.
        var pause = timespec(tv_sec: 0, tv_nsec: 1_000_000), waited = 0
        while creating.load(ordering: .sequentiallyConsistent) > 0 && waited < 200 {
            nanosleep(&pause, nil)
            waited += 1
        }
        var i = 0
        while i < slots {
            if used[i] != 0 { unlink(paths + i * pathCapacity) }
            i += 1
        }
        signal(sig, SIG_DFL)
        raise(sig)
    }

    /// Records `path` as a live temporary file; returns its slot (nil when all are taken, in
    /// which case only the sweep will catch it).
    static func register(_ path: String) -> Int? {
        let bytes = Array(path.utf8)
        guard bytes.count < pathCapacity else { return nil }
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        for i in 0..<slots where used[i] == 0 {
            let base = paths + i * pathCapacity
            for (k, b) in bytes.enumerated() { base[k] = CChar(bitPattern: b) }
            base[bytes.count] = 0
            used[i] = 1
            return i
        }
        return nil
    }

    /// Registers `path` and runs `create` (which makes its file) as one step the signal
    /// handler waits for; returns the slot and what `create` returned. Once the handler has
    /// begun, nothing is created: the caller's thread waits for the process to end.
    static func registering<T>(_ path: String, create: () -> T) -> (slot: Int?, created: T) {
        creating.add(1, ordering: .sequentiallyConsistent)
        defer { creating.subtract(1, ordering: .sequentiallyConsistent) }
        if terminating.load(ordering: .sequentiallyConsistent) {
            creating.subtract(1, ordering: .sequentiallyConsistent)
            while true { Glibc.pause() }
        }
        let slot = register(path)
        return (slot, create())
    }

    static func unregister(_ slot: Int?) {
        guard let slot else { return }
        pthread_mutex_lock(&lock)
        used[slot] = 0
        pthread_mutex_unlock(&lock)
    }

    /// Removes, once per directory and process, temporary files of the atomic-write pattern
    /// whose writing process no longer exists (left by a crash or SIGKILL). Files of live
    /// processes, this one included, are left alone.
    static func sweepOnce(_ dir: String) {
        pthread_mutex_lock(&lock)
        let first = swept.insert(dir).inserted
        pthread_mutex_unlock(&lock)
        guard first, let names = try? FileIO.list(dir) else { return }
        for name in names {
            guard let pid = writerPID(name), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink(PathUtil.join(dir, name))
        }
    }

    /// The PID in ".NAME.tmp.PID.N", or nil when `name` is not of that pattern.
    static func writerPID(_ name: String) -> pid_t? {
        guard name.hasPrefix(".") else { return nil }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        // "", NAME parts..., "tmp", PID, N
        guard parts.count >= 5, parts[parts.count - 3] == "tmp", UInt(parts[parts.count - 1]) != nil,
              let pid = Int32(parts[parts.count - 2]), pid > 0 else { return nil }
        return pid
    }
}
