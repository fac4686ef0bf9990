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
/// nothing half-written ever takes a name. A commit waits for no other, so a sync that finds
/// its data already written by an earlier one (the journal writes the files' data together)
/// returns at once.
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

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let changed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var queue: [Commit] = []
    private var head = 0
    private var committing = false
    private var failure: FileIO.Failure?

    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(changed, nil)
    }

    deinit {
        pthread_cond_destroy(changed)
        pthread_mutex_destroy(mutex)
        changed.deallocate()
        mutex.deallocate()
    }

    /// Runs `body` with the current thread's atomic writes committed here (see the type).
    public func deferring<T>(_ body: () throws -> T) rethrows -> T {
        try Self.$current.withValue(self, operation: body)
    }

    /// Waits until every commit so far has run; throws the first that failed (its temporary
    /// file is removed and its path untouched, as a failed FileIO.writeAtomically leaves them).
    public func finish() throws {
        pthread_mutex_lock(mutex)
        while committing || head < queue.count { pthread_cond_wait(changed, mutex) }
        let f = failure
        failure = nil
        pthread_mutex_unlock(mutex)
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
        private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        private let freed = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
        private var free: Int
        init(_ count: Int) {
            free = count
            pthread_mutex_init(mutex, nil)
            pthread_cond_init(freed, nil)
        }
        func take() {
            pthread_mutex_lock(mutex)
            while free == 0 { pthread_cond_wait(freed, mutex) }
            free -= 1
            pthread_mutex_unlock(mutex)
        }
        func give() {
            pthread_mutex_lock(mutex)
            free += 1
            pthread_cond_signal(freed)
            pthread_mutex_unlock(mutex)
        }
    }

    /// Queues a commit; starts the committing thread when none runs. Without a thread (the
    /// system refused one), commits on the caller's thread.
    func add(_ c: Commit) {
        // Every commit queued has a thread that runs it, which gives its room back.
        Self.room.take()
        pthread_mutex_lock(mutex)
        queue.append(c)
        let start = !committing
        committing = true
        pthread_mutex_unlock(mutex)
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
        pthread_mutex_lock(mutex)
        while head < queue.count {
            let c = queue[head]
            head += 1
            // A queue that never empties (files keep coming) drops what it has run.
            if head >= 64 { queue.removeFirst(head); head = 0 }
            pthread_mutex_unlock(mutex)
            let problem = Self.commit(c)
            Self.room.give()
            pthread_mutex_lock(mutex)
            if let problem, failure == nil { failure = problem }
        }
        queue.removeAll(keepingCapacity: true)
        head = 0
        committing = false
        pthread_cond_broadcast(changed)
        pthread_mutex_unlock(mutex)
    }

    /// On disk before it takes the name: a crash after the rename must not leave an empty or
    /// partial file under it.
    static func commit(_ c: Commit) -> FileIO.Failure? {
        defer { TemporaryFiles.unregister(c.slot) }
        if c.fd >= 0 { fsync(c.fd); close(c.fd) }
        guard rename(c.temporary, c.path) == 0 else {
            let r = FileIO.errnoText()
            unlink(c.temporary)
            return FileIO.Failure(path: c.path, reason: r)
        }
        return nil
    }
}
