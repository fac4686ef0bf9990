import Synchronization

/// A lock that a struct can hold and copies share (a `Mutex` alone cannot be copied), for the
/// few calls rendering threads make one at a time: progress and warnings.
final class RenderLock: Sendable {
    private let mutex = Mutex(())

    func locked<T>(_ body: () throws -> T) rethrows -> T { try mutex.withLock { _ in try body() } }
}
