import CTransHostProcess
import TransHostSupport
#if canImport(Glibc)
import Glibc
#endif

/// The Swift toolchain's own libraries that a plugin links and the host has not loaded yet:
/// Foundation and ICU, which every Swift plugin links through the kit.
///
/// A plugin is loaded with `RTLD_NOW`, so that a symbol it uses but nothing defines fails its
/// load instead of a later call. That binds the symbols of every library loaded with it too,
/// and Foundation with ICU has tens of thousands: 16-26 ms for each worker that loads a Swift
/// plugin. The toolchain's libraries are not plugin code, so `preload` loads them first with
/// lazy binding, as a program linked against them would; the plugin's own symbols are still
/// all bound when it loads, and a missing one still fails the load with its name.
public enum ToolchainLibraries {
    /// The directory of the Swift runtime this process runs on (libswiftCore.so's).
    public static let directory: String? = {
        guard let file = th_process_library_of("swift_retain") else { return nil }
        return PathUtil.dirname(String(cString: file))
    }()

    /// Those of `needed` (a library's DT_NEEDED names) that are in the runtime's directory, not
    /// loaded yet, and not shipped in `pluginDirectory` (a plugin's own copy is left to the
    /// loader to find).
    public static func unloaded(_ needed: [String], pluginDirectory: String) -> [String] {
        guard let dir = directory else { return [] }
        return needed.filter { name in
            !name.contains("/") && FileIO.exists(PathUtil.join(dir, name)) && !FileIO.exists(PathUtil.join(pluginDirectory, name))
                && dlopen(PathUtil.join(dir, name), RTLD_LAZY | RTLD_NOLOAD) == nil
        }
    }

    /// Loads `unloaded(needed, pluginDirectory:)` with lazy binding, each local to the plugin
    /// that will link it. A library that fails to load here is left to the plugin's own load,
    /// which reports it.
    public static func preload(_ needed: [String], pluginDirectory: String) {
        guard let dir = directory else { return }
        for name in unloaded(needed, pluginDirectory: pluginDirectory) { _ = dlopen(PathUtil.join(dir, name), RTLD_LAZY | RTLD_LOCAL) }
    }
}
