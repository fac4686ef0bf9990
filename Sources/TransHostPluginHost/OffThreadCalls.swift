import CTransHostProcess
#if canImport(Glibc)
import Glibc
#endif

/// Host callbacks are [main-thread] only (the header's rule). A call from any other thread is
/// refused before it touches host state, and recorded here under a lock; the main thread turns
/// the records into contract breaches at its next plugin-call boundary.
///
/// The calling plugin is found from the caller's return addresses: the first one inside a
/// plugin library loaded by this process names it.
enum OffThreadCalls {
    nonisolated(unsafe) private static var lock = pthread_mutex_t()
    nonisolated(unsafe) private static var lockReady = false
    /// Library path -> plugin name, for every plugin library loaded here.
    nonisolated(unsafe) private static var libraries: [String: String] = [:]
    /// Refused calls by plugin name, and how many of them are already reported.
    nonisolated(unsafe) private static var refused: [String: Int] = [:]
    nonisolated(unsafe) private static var reported: [String: Int] = [:]
    nonisolated(unsafe) private static var pending = 0
    nonisolated(unsafe) static var mainThread: pthread_t?

    /// Called once on the main thread before any plugin is loaded.
    static func prepare() {
        if !lockReady { pthread_mutex_init(&lock, nil); lockReady = true }
        if mainThread == nil { mainThread = pthread_self() }
    }

    static var isMainThread: Bool {
        guard let m = mainThread else { return true }
        return pthread_equal(pthread_self(), m) != 0
    }

    static func register(library: String, plugin: String) {
        prepare()
        pthread_mutex_lock(&lock); defer { pthread_mutex_unlock(&lock) }
        libraries[library] = plugin
    }

    /// On the foreign thread: records the refusal (no host state is touched).
    static func refuse() {
        guard lockReady else { return }
        var files = [UnsafePointer<CChar>?](repeating: nil, count: 32)
        let n = Int(files.withUnsafeMutableBufferPointer { th_process_caller_libraries($0.baseAddress!, 32) })
        pthread_mutex_lock(&lock); defer { pthread_mutex_unlock(&lock) }
        var plugin = "unknown plugin (a thread it started)"
        for f in files.prefix(n) {
            guard let f else { continue }
            if let p = libraries[String(cString: f)] { plugin = p; break }
        }
        refused[plugin, default: 0] += 1
        pending += 1
    }

    /// On the main thread: one sentence per plugin that made new refused calls since the last
    /// drain (the first refusal of a plugin is a breach; later ones are only counted).
    static func drain() -> [(plugin: String, message: String)] {
        guard lockReady, pending > 0 else { return [] }
        pthread_mutex_lock(&lock); defer { pthread_mutex_unlock(&lock) }
        pending = 0
        var out: [(String, String)] = []
        for (plugin, n) in refused.sorted(by: { $0.key < $1.key }) where (reported[plugin] ?? 0) == 0 {
            reported[plugin] = n
            out.append((plugin, "a host callback was called from a thread other than the main one; host callbacks are [main-thread] only, so the call was refused (NULL or 0 was returned) and later such calls are refused too"))
        }
        return out
    }

    /// Refused calls by plugin over the whole process (for the end-of-run summary).
    static func totals() -> [String: Int] {
        guard lockReady else { return [:] }
        pthread_mutex_lock(&lock); defer { pthread_mutex_unlock(&lock) }
        return refused
    }
}
