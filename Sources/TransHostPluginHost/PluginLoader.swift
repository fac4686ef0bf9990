import CTransHost
import TransHostSupport
import TransHostDiscovery
import TransHostFFI
import TransHostManifest
#if canImport(Glibc)
import Glibc
#endif

/// A plugin whose library is loaded and whose init succeeded.
///
/// `@unchecked Sendable` because the process-wide `PluginLibraries` table holds it: every call
/// into the plugin, and every change to its animator cache, happens on the main thread (the
/// header's [main-thread] rule), so no two threads ever use one at once.
public final class LoadedPlugin: @unchecked Sendable {
    public let manifest: PluginManifest
    let handle: UnsafeMutableRawPointer
    let entry: UnsafePointer<th_plugin_entry>
    private var animators: [String: UnsafePointer<th_animator>] = [:]

    init(manifest: PluginManifest, handle: UnsafeMutableRawPointer, entry: UnsafePointer<th_plugin_entry>) {
        self.manifest = manifest; self.handle = handle; self.entry = entry
    }

    public var name: String { manifest.name }

    private var delegates: [String: UnsafePointer<th_delegate>] = [:]

    /// The plugin's delegate with this id (asked of the plugin once, then cached).
    func delegate(_ id: String, bridge: HostBridge) throws -> UnsafePointer<th_delegate> {
        if let d = delegates[id] { return d }
        guard entry.pointee.struct_size >= UInt32(MemoryLayout<th_plugin_entry>.size), let get = entry.pointee.get_delegate else {
            throw PluginHostError.loadFailed(plugin: name, library: manifest.libraryPath, reason: "its entry has no get_delegate function (ABI 1.2)")
        }
        guard let ptr = bridge.calling(name, "get_delegate", { id.withCString { get($0) } }),
              ptr.pointee.struct_size >= HostABI.minimumDelegateSize, ptr.pointee.animator_for != nil else {
            throw PluginHostError.loadFailed(plugin: name, library: manifest.libraryPath,
                                             reason: "get_delegate(\"\(id)\") returned NULL or an incomplete th_delegate, but the manifest declares delegate \"\(id)\"")
        }
        delegates[id] = ptr
        return ptr
    }

    /// The plugin's animator with this id (asked of the plugin once, then cached).
    func animator(_ id: String, bridge: HostBridge) throws -> UnsafePointer<th_animator> {
        if let a = animators[id] { return a }
        guard let get = entry.pointee.get_animator else {
            throw PluginHostError.loadFailed(plugin: name, library: manifest.libraryPath, reason: "its entry has no get_animator function")
        }
        let ptr = bridge.calling(name, "get_animator") { id.withCString { get($0) } }
        guard let ptr else {
            throw PluginHostError.loadFailed(plugin: name, library: manifest.libraryPath,
                                             reason: "get_animator(\"\(id)\") returned NULL, but the manifest declares animator \"\(id)\"; make the two agree")
        }
        try check(ptr, id: id)
        animators[id] = ptr
        return ptr
    }

    func check(_ ptr: UnsafePointer<th_animator>, id: String) throws {
        guard ptr.pointee.struct_size >= HostABI.minimumAnimatorSize, ptr.pointee.transition_duration != nil,
              ptr.pointee.animate_transition != nil else {
            throw PluginHostError.loadFailed(plugin: name, library: manifest.libraryPath,
                                             reason: "animator \"\(id)\" has struct_size \(ptr.pointee.struct_size) or a NULL transition_duration/animate_transition; fill in every field of th_animator")
        }
    }

    /// The configure function prepared for libffi, built once at load.
    var configureFunction: FFIFunction?
}

/// The steps of loading a plugin, in order. A validation child reports the step it reached, so a
/// crash is attributed ("init crashed with SIGSEGV") and its exit code says which step failed.
public enum LoadStage: String, CaseIterable, Sendable {
    case inspect, dlopen, dlsym, abi, identity, `init`, getAnimator = "get_animator", configureSymbol = "configure symbol"

    /// The validation child's exit code when this step fails (0 is success).
    public var exitCode: Int32 {
        switch self {
        case .inspect: return 10
        case .dlopen: return 11
        case .dlsym: return 12
        case .abi: return 13
        case .identity: return 14
        case .`init`: return 15
        case .getAnimator: return 16
        case .configureSymbol: return 17
        }
    }
}

/// Loads plugin libraries: ABI check from the file first (no plugin code has run), then
/// `dlopen(RTLD_NOW | RTLD_LOCAL)` (the Swift toolchain's libraries it links first, lazily: see
/// ToolchainLibraries), the entry's ABI and identity checked again in memory, then
/// `init` with the host callback table, then `get_animator` for every animator the manifest
/// declares and a look-up of its configure symbol. Libraries are never `dlclose`d: Swift
/// runtimes in plugins cannot be unloaded safely, and a run is short.
public enum PluginLoader {
    public static func load(_ manifest: PluginManifest, bridge: HostBridge?, progress: (LoadStage) -> Void = { _ in }) throws -> LoadedPlugin {
        let lib = manifest.libraryPath
        func fail(_ reason: String) -> PluginHostError { .loadFailed(plugin: manifest.name, library: lib, reason: reason) }
        func calling<T>(_ body: () -> T) -> T { bridge.map { $0.calling(manifest.name, "init", body) } ?? body() }
        progress(.inspect)
        let elf: ELFInspection
        do { elf = try ELFInspector.inspect(path: lib) } catch { throw fail("\(error)") }
        guard elf.hasEntrySymbol else {
            throw fail("the library does not export the entry symbol transhost_plugin_entry; define it with TH_EXPORT const th_plugin_entry transhost_plugin_entry = {...}")
        }
        if let maj = elf.abiMajor, let min = elf.abiMinor, !HostABI.isCompatible(major: Int(maj), minor: Int(min)) {
            throw PluginHostError.abiMismatch(plugin: manifest.name, library: lib, pluginABI: "\(maj).\(min)", hostABI: HostABI.text)
        }
        progress(.dlopen)
        ToolchainLibraries.preload(elf.needed, pluginDirectory: PathUtil.dirname(lib))
        guard let handle = dlopen(lib, RTLD_NOW | RTLD_LOCAL) else {
            throw fail("dlopen failed: \(String(cString: dlerror()))")
        }
        OffThreadCalls.register(library: lib, plugin: manifest.name)
        progress(.dlsym)
        guard let sym = dlsym(handle, TH_ENTRY_SYMBOL) else {
            throw fail("dlsym(transhost_plugin_entry) failed: the library does not export the entry symbol")
        }
        progress(.abi)
        let entry = sym.assumingMemoryBound(to: th_plugin_entry.self)
        let maj = Int(entry.pointee.abi_major), min = Int(entry.pointee.abi_minor)
        guard HostABI.isCompatible(major: maj, minor: min) else {
            throw PluginHostError.abiMismatch(plugin: manifest.name, library: lib, pluginABI: "\(maj).\(min)", hostABI: HostABI.text)
        }
        guard entry.pointee.struct_size >= HostABI.minimumEntrySize else {
            throw fail("its entry has struct_size \(entry.pointee.struct_size), smaller than th_plugin_entry of ABI 1.0 (\(HostABI.minimumEntrySize)); rebuild it against transhost.h")
        }
        progress(.identity)
        let entryName = entry.pointee.name.map { String(cString: $0) } ?? "(null)"
        let entryVersion = entry.pointee.version.map { String(cString: $0) } ?? "(null)"
        guard entryName == manifest.name, entryVersion == manifest.version else {
            throw fail("the manifest \(manifest.file) says \(manifest.name) \(manifest.version) but the library's entry says \(entryName) \(entryVersion); make them agree")
        }
        if maj != manifest.abiMajor || min != manifest.abiMinor {
            throw fail("the manifest \(manifest.file) declares ABI \(manifest.abi) but the library's entry was built for ABI \(maj).\(min); make them agree")
        }
        guard let initFn = entry.pointee.`init` else { throw fail("its entry has no init function") }
        guard let get = entry.pointee.get_animator else { throw fail("its entry has no get_animator function") }
        progress(.`init`)
        let rc = calling { initFn(HostBridge.table) }
        guard rc == 0 else { throw fail("init returned \(rc) (not 0), so the plugin refused to start") }
        let plugin = LoadedPlugin(manifest: manifest, handle: handle, entry: UnsafePointer(entry))
        progress(.getAnimator)
        for a in manifest.animators {
            let ptr = calling { a.id.withCString { get($0) } }
            guard let ptr else {
                throw fail("its entry returns NULL from get_animator(\"\(a.id)\"), but the manifest declares animator \"\(a.id)\"; make the two agree")
            }
            try plugin.check(ptr, id: a.id)
        }
        if !manifest.delegates.isEmpty {
            let covers = entry.pointee.struct_size >= UInt32(MemoryLayout<th_plugin_entry>.size)
            guard covers, let getDelegate = entry.pointee.get_delegate else {
                throw fail("the manifest declares delegates but its entry has no get_delegate (ABI 1.2); rebuild it against transhost.h 1.2 and fill in get_delegate")
            }
            for d in manifest.delegates {
                let ptr = calling { d.id.withCString { getDelegate($0) } }
                guard let ptr else {
                    throw fail("its entry returns NULL from get_delegate(\"\(d.id)\"), but the manifest declares delegate \"\(d.id)\"; export it (TransHostExport(delegates:)) or fix the manifest")
                }
                guard ptr.pointee.struct_size >= HostABI.minimumDelegateSize, ptr.pointee.animator_for != nil else {
                    throw fail("delegate \"\(d.id)\" has struct_size \(ptr.pointee.struct_size) or a NULL animator_for; fill in every field of th_delegate")
                }
            }
        }
        if let c = manifest.configure {
            progress(.configureSymbol)
            guard dlsym(handle, c.symbol) != nil else {
                throw fail("the manifest's configure symbol \(c.symbol) is not exported by the library; export it (TH_EXPORT) or fix \"configure.symbol\" in \(manifest.file)")
            }
        }
        return plugin
    }
}
