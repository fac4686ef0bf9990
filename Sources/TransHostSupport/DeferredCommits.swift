#if canImport(Glibc)
import Glibc
#endif

/// The last step of atomic writes, syncing the temporary file and renaming it into place, taken
/// off the writing thread: commits run in order on a thread of their own, so a thread that
/// renders one file after another does not wait for the disk between them (a sync waits for
/// the file system's journal, about a millisecond here, with the core idle).
///
/// Writes join it only inside `deferring`, on that thread; FileIO.writeAtomically then returns
/// once the temporary file is written, and the file appears under its name when its commit
/// runs. `finish()` waits for every commit and reports the first failure. Until then a deferred
/// file is still a registered temporary file (TemporaryFiles): an interrupt removes it, and
/// nothing half-written ever takes a name.
public final class DeferredCommits: @unchecked Sendable {
    /// The commits the current thread's atomic writes join, if any.
    @TaskLocal static var current: DeferredCommits?

    struct Commit {
        /// The temporary file, open for the sync (closed after it).
        var fd: Int32
        var temporary: String
        var path: String
        var slot: Int?
    }

    /// Guards the fields below; signalled when the queue has run dry.
    private let state = ConditionLock()
    private var queue: [Commit] = []
    private var head = 0
    private var committing = false
    private var failure: FileIO.Failure?

    public init() {}

    /// Runs `body` with the current thread's atomic writes committed here (see the type).
    public func deferring<T>(_ body: () throws -> T) rethrows -> T {
        try Self.$current.withValue(self, operation: body)
    }

    /// Waits until every commit so far has run; throws the first that failed (its temporary
    /// file is removed and its path untouched, as a failed FileIO.writeAtomically leaves them).
    public func finish() throws {
        state.lock()
        while committing || head < queue.count { state.wait() }
        let f = failure
        failure = nil
        state.unlock()
        if let f { throw f }
    }

    /// Commits queued or running at most, in all instances together: each holds an open file
    /// and a TemporaryFiles slot, so threads writing many small files (`--frames all`, on many
    /// cores, for several jobs at once) faster than the disk syncs them wait here instead of
    /// running out of either.
    static let maximumWaiting = 32
    private static let room = Room(maximumWaiting)

    /// A count of what may be held at once, shared by the process.
    private final class Room: @unchecked Sendable {
        private let lock = ConditionLock()
        private var free: Int
        init(_ count: Int) { free = count }
        func take() {
            lock.lock()
            while free == 0 { lock.wait() }
            free -= 1
            lock.unlock()
        }
        func give() {
            lock.lock()
            free += 1
            lock.signal()
            lock.unlock()
        }
    }

    /// Queues a commit; starts the committing thread when none runs. Without a thread (the
    /// system refused one), commits on the caller's thread.
    func add(_ c: Commit) {
        // Every commit queued has a thread that runs it, which gives its room back.
        Self.room.take()
        state.lock()
        queue.append(c)
        let start = !committing
        committing = true
        state.unlock()
        guard start else { return }
        let me = Unmanaged.passRetained(self)
        var thread = pthread_t()
        let made = pthread_create(&thread, nil, { arg in
            let commits = Unmanaged<DeferredCommits>.fromOpaque(arg!).takeRetainedValue()
            commits.drain()
            return nil
        }, me.toOpaque())
        if made == 0 {
            pthread_detach(thread)
        } else {
            me.release()
            drain()
        }
    }

    /// Runs the queued commits in order until none is left; then no thread commits.
    private func drain() {
        state.lock()
        while head < queue.count {
            let c = queue[head]
            head += 1
            // A queue that never empties (files keep coming) drops what it has run.
            if head >= 64 { queue.removeFirst(head); head = 0 }
            state.unlock()
            let problem = Self.commit(c)
            Self.room.give()
            state.lock()
            if let problem, failure == nil { failure = problem }
        }
        queue.removeAll(keepingCapacity: true)
        head = 0
        committing = false
        state.broadcast()
        state.unlock()
    }

    /// Tests only: called on the committing thread before each commit's sync, with the path it
    /// is for; a result other than nil is taken as the sync's errno (a disk that fails).
    nonisolated(unsafe) static var syncResultForTesting: ((String) -> Int32?)?

    /// On disk before it takes the name: a crash after the rename must not leave an empty or
    /// partial file under it. A sync or close that fails (EIO, ENOSPC or EDQUOT, which some file
    /// systems report only then) means the bytes may not be there: the file does not take the
    /// name, and the failure names the path. EINVAL and ENOSYS only say the file system cannot
    /// sync, which loses nothing.
    static func commit(_ c: Commit) -> FileIO.Failure? {
        defer { TemporaryFiles.unregister(c.slot) }
        if c.fd >= 0 {
            var problem: String?
            if let e = syncResultForTesting?(c.path) {
                problem = "could not be synced to disk: " + String(cString: strerror(e))
            } else if fsync(c.fd) != 0 && errno != EINVAL && errno != ENOSYS {
                problem = "could not be synced to disk: " + FileIO.errnoText()
            }
            if close(c.fd) != 0 && errno != EINTR && problem == nil { problem = "could not be closed: " + FileIO.errnoText() }
            if let problem {
                unlink(c.temporary)
                return FileIO.Failure(path: c.path, reason: problem + "; check the disk's space and health, then run again")
            }
        }
        guard rename(c.temporary, c.path) == 0 else {
            let r = FileIO.errnoText()
            unlink(c.temporary)
            return FileIO.Failure(path: c.path, reason: r)
        }
        return nil
    }
}
