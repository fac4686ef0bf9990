import CTransHost
#if canImport(Glibc)
import Glibc
#endif
import TransHostCore
import TransHostCoordinators

/// The host side of the C ABI: the callback table handed to plugins, and the bookkeeping that
/// lets a C callback find the engine, the objects behind handles and the plugin to blame.
///
/// All plugin calls happen on the host's main thread (the header's [main-thread] rule), one
/// run at a time; the bridge of the running session is `HostBridge.current`, which refuses
/// callbacks made on any other thread.
public final class HostBridge {
    /// The bridge the C callbacks reach. Global on purpose: C callbacks have no closures and the
    /// ABI passes them no context, so this is the only way back to the session. It is written by
    /// `activate()` before a scenario plays, on the main thread; a callback made on any other
    /// thread gets nil (the call is refused and recorded as a breach, see OffThreadCalls).
    nonisolated(unsafe) private static var active: HostBridge?
    static var current: HostBridge? {
        guard let b = active else { return nil }
        guard OffThreadCalls.isMainThread else { OffThreadCalls.refuse(); return nil }
        return b
    }

    /// The active bridge, to call plugins' deinit at the end of a process.
    public static var currentForShutdown: HostBridge? { active }

    /// Told before and after every call into plugin code (a playback worker publishes where it
    /// is, so that its supervisor can name the call a crash or hang happened in). Set once, on
    /// the main thread, before any plugin loads.
    nonisolated(unsafe) public static var callObserver: PluginCallObserver?

    let engine: AnimationEngine
    let handles = HandleTable()
    /// Receives contract breaches (invalid values, stale handles), naming the plugin and call.
    var breachHandler: (ContractBreach) -> Void
    /// Receives plugin log lines.
    var logHandler: (String) -> Void
    private var pluginStack: [String] = []
    /// The app plugins read and act on (ABI 1.2), set by whoever owns it.
    public weak var app: PluginAppServices?
    /// Interaction controllers made for plugins' interactive transitions, newest last.
    var pluginInteractions: [InteractionController] = []
    /// Values handed back by layer_value (ABI 1.3), valid until the next call.
    let layerScratch = LayerScratch()

    public init(engine: AnimationEngine, breachHandler: @escaping (ContractBreach) -> Void, logHandler: @escaping (String) -> Void) {
        self.engine = engine
        self.breachHandler = breachHandler
        self.logHandler = logHandler
    }

    /// Makes this bridge the one C callbacks reach (call it on the main thread).
    public func activate() {
        OffThreadCalls.prepare()
        HostBridge.active = self
    }

    /// Refused calls from other threads, by plugin, so far in this process.
    public static var offThreadCallCounts: [String: Int] { OffThreadCalls.totals() }

    var currentPlugin: String { pluginStack.last ?? "unknown plugin" }

    /// Runs a call into `plugin`'s code, so that callbacks made during it are attributed to it.
    func calling<T>(_ plugin: String, _ call: String = "a callback", _ body: () -> T) -> T {
        pluginStack.append(plugin)
        callStack.append(call)
        PluginCrashGuard.enter(plugin, call)
        HostBridge.callObserver?.willCall(plugin: plugin, call: call)
        defer {
            pluginStack.removeLast()
            callStack.removeLast()
            let outer = pluginStack.last.map { ($0, callStack.last ?? "a callback") }
            PluginCrashGuard.leave(outer: outer)
            HostBridge.callObserver?.didReturn(to: outer)
            reportOffThreadCalls()
        }
        return body()
    }

    /// Turns calls refused on other threads into breaches of the plugins that made them.
    public func reportOffThreadCalls() {
        for r in OffThreadCalls.drain() { breachHandler(ContractBreach(plugin: r.plugin, kind: "off-thread-call", message: r.message)) }
    }
    private var callStack: [String] = []

    /// Whether plugin code is running (a host callback is being served).
    public var isCallingPlugin: Bool { !pluginStack.isEmpty }

    /// Reports an engine warning raised during a plugin call as that plugin's breach.
    public func breachFromEngine(_ message: String) { breach("invalid-call", message) }

    func breach(_ kind: String, _ message: String) {
        breachHandler(ContractBreach(plugin: currentPlugin, kind: kind, message: message))
    }

    func view(_ h: OpaquePointer?, _ call: String) -> View? {
        if let v = handles.object(h, as: View.self) { return v }
        breach("invalid-handle", "\(call): \(h.map { "\($0)" } ?? "NULL") is not a view handle; the call was ignored")
        return nil
    }

    func controller(_ h: OpaquePointer?, _ call: String) -> ViewController? {
        if let v = handles.object(h, as: ViewController.self) { return v }
        breach("invalid-handle", "\(call): \(h.map { "\($0)" } ?? "NULL") is not a controller handle; the call was ignored")
        return nil
    }

    func context(_ h: OpaquePointer?, _ call: String) -> TransitionContext? {
        if let v = handles.object(h, as: TransitionContext.self) { return v }
        breach("invalid-handle", "\(call): \(h.map { "\($0)" } ?? "NULL") is not a transition context handle; the call was ignored")
        return nil
    }

    func validKey(_ key: th_context_key, _ call: String) -> Bool {
        if key == TH_KEY_FROM || key == TH_KEY_TO { return true }
        breach("invalid-value", "\(call): \(key.rawValue) is not TH_KEY_FROM (0) or TH_KEY_TO (1); NULL was returned")
        return false
    }

    func finite(_ values: [Double], _ call: String) -> Bool {
        if values.allSatisfy({ $0.isFinite }) { return true }
        breach("invalid-value", "\(call) got a non-finite value \(values); the call was ignored")
        return false
    }

    /// Type names handed to plugins as C strings, owned by the bridge for the whole run.
    private var typeNames: [String: UnsafeMutablePointer<CChar>] = [:]
    func typeName(_ name: String) -> UnsafePointer<CChar> {
        if let p = typeNames[name] { return UnsafePointer(p) }
        let p = strdup(name)!
        typeNames[name] = p
        return UnsafePointer(p)
    }

    /// The callback table. Allocated once per process and never freed (plugins may keep it).
    /// Unsafe only in name: it is filled in once, by Swift's thread-safe lazy initialisation of
    /// statics, and never written again.
    nonisolated(unsafe) static let table: UnsafeMutablePointer<th_host_api> = {
        let t = UnsafeMutablePointer<th_host_api>.allocate(capacity: 1)
        t.initialize(to: makeTable())
        return t
    }()

    /// The extension tables by id; none yet in ABI 1.0.
    static func extensionTable(_ id: String) -> UnsafeRawPointer? { nil }
}

/// Watches calls into plugin code (see `HostBridge.callObserver`).
public protocol PluginCallObserver: AnyObject {
    func willCall(plugin: String, call: String)
    /// The call returned; `outer` is the plugin call still running around it, if any.
    func didReturn(to outer: (plugin: String, call: String)?)
}
