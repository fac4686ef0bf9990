#if canImport(Glibc)
import Glibc
#endif

/// Turns a plugin that crashes while it animates (after it passed validation) into a clear
/// report instead of a bare "Segmentation fault": while host code is calling into a plugin, a
/// fatal signal prints which plugin crashed, in which call, and ends the process with exit code
/// 3. Outside plugin calls the signal keeps its default action, so host bugs stay host bugs.
///
/// The handler only calls write(2) and _exit(2) on buffers prepared before the plugin call.
///
/// Its state is global on purpose, and must stay so: a signal handler can reach nothing but
/// globals. It is written only on the main thread (install, and around each plugin call) and
/// read by the handler, which only reads fixed buffers prepared beforehand.
public enum PluginCrashGuard {
    private static let capacity = 1024
    nonisolated(unsafe) private static var head = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
    nonisolated(unsafe) private static var tail = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
    nonisolated(unsafe) private static var headLength = 0
    nonisolated(unsafe) private static var tailLength = 0
    nonisolated(unsafe) private static var depth = 0
    nonisolated(unsafe) private static var installed = false
    /// Signal names as C strings, prepared at install: the handler only walks this fixed buffer
    /// (no dictionary lookups or allocation inside a signal handler).
    nonisolated(unsafe) private static var names = UnsafeMutablePointer<(Int32, UnsafeMutablePointer<CChar>?, Int)>.allocate(capacity: 8)
    nonisolated(unsafe) private static var nameCount = 0

    private static let signals: [(Int32, String)] = [(SIGSEGV, "SIGSEGV"), (SIGBUS, "SIGBUS"), (SIGFPE, "SIGFPE"),
                                                      (SIGILL, "SIGILL"), (SIGABRT, "SIGABRT")]

    /// Installs the handlers (the CLI does, for `run`; tests and embedders choose).
    public static func install() {
        guard !installed else { return }
        installed = true
        for (i, (sig, name)) in signals.enumerated() { names[i] = (sig, strdup(name), name.utf8.count) }
        nameCount = signals.count
        for (sig, _) in signals { signal(sig, handler) }
    }

    private static let handler: @convention(c) (Int32) -> Void = { sig in
        if depth > 0 {
            var i = 0
            while i < nameCount {
                if names[i].0 == sig, let name = names[i].1 {
                    _ = write(2, head, headLength)
                    _ = write(2, name, names[i].2)
                    _ = write(2, tail, tailLength)
                    _exit(3)
                }
                i += 1
            }
        }
        signal(sig, SIG_DFL)
        raise(sig)
    }

    private static func store(_ s: String, _ buffer: UnsafeMutablePointer<CChar>, _ length: inout Int) {
        let bytes = Array(s.utf8.prefix(capacity - 1))
        for (i, b) in bytes.enumerated() { buffer[i] = CChar(bitPattern: b) }
        length = bytes.count
    }

    /// Called before host code calls into `plugin` (`call` names the entry point).
    static func enter(_ plugin: String, _ call: String) {
        guard installed else { return }
        depth += 1
        store("transhost: plugin \(plugin) crashed (", head, &headLength)
        store(") in \(call); the run was stopped (exit 3). The plugin is at fault: fix it, or remove it from the plugins directory.\n",
              tail, &tailLength)
    }

    /// Called after the plugin call returns; `outer` is the call still running, if any.
    static func leave(outer: (plugin: String, call: String)?) {
        guard installed else { return }
        depth -= 1
        if let outer { depth -= 1; enter(outer.plugin, outer.call) }
    }
}
