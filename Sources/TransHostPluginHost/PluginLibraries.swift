import Synchronization
import TransHostManifest

/// The plugin libraries initialized in this process, by library path. A library is initialized
/// once per process (the header's promise), however many scenarios a command plays, and its
/// deinit is called once, by `shutdown`.
///
/// This is process-wide state on purpose: `dlopen` maps a library once per process, so there is
/// exactly one set of initialized libraries, `PluginLibraries.process`. The lock keeps it
/// consistent; plugin calls themselves happen on the main thread only.
public final class PluginLibraries: Sendable {
    public static let process = PluginLibraries()

    private struct State {
        var initialized: [String: LoadedPlugin] = [:]
        var order: [String] = []
    }
    private let state = Mutex(State())

    init() {}

    /// The plugin already initialized in this process from this library, if any.
    func alreadyInitialized(_ manifest: PluginManifest) -> LoadedPlugin? {
        state.withLock { $0.initialized[manifest.libraryPath] }
    }

    func remember(_ p: LoadedPlugin) {
        state.withLock { s in
            if s.initialized[p.manifest.libraryPath] == nil { s.order.append(p.manifest.libraryPath) }
            s.initialized[p.manifest.libraryPath] = p
        }
    }

    /// Calls every initialized plugin's deinit once, in the reverse order of their inits (the
    /// header: "called once before the host exits"), attributing each call to its plugin through
    /// the last active bridge. The libraries stay mapped; a later load initializes them again.
    public func shutdown() {
        let bridge = HostBridge.current
        let plugins = state.withLock { s -> [LoadedPlugin] in
            let list = s.order.reversed().compactMap { s.initialized[$0] }
            s = State()
            return list
        }
        for p in plugins {
            guard let fn = p.entry.pointee.deinit else { continue }
            if let bridge { bridge.calling(p.name, "deinit") { fn() } } else { fn() }
        }
    }
}
