#if canImport(Glibc)
import Glibc
#endif

/// A pthread mutex and one condition variable, for threads that wait for a shared state to
/// change (a work queue, a count of free places). Allocated, not stored: a pthread object must
/// not move, and `&property` promises no address.
public final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func lock() { pthread_mutex_lock(mutex) }
    public func unlock() { pthread_mutex_unlock(mutex) }
    /// Releases the lock until another thread signals, then holds it again. Call with it held.
    public func wait() { pthread_cond_wait(condition, mutex) }
    /// Wakes every waiting thread.
    public func broadcast() { pthread_cond_broadcast(condition) }
    /// Wakes one waiting thread.
    public func signal() { pthread_cond_signal(condition) }
}
