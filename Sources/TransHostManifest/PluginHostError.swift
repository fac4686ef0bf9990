import TransHostSupport

/// Errors of the plugin host (input files report JSONInputError). Every message is a sentence that names the file, plugin, symbol or
/// version involved and says what to do.
public enum PluginHostError: Error, Equatable, CustomStringConvertible {
    /// A plugins directory given explicitly does not exist or is not a directory.
    case missingPluginDirectory(path: String, origin: String)
    /// The plugin's library could not be inspected or loaded.
    case loadFailed(plugin: String, library: String, reason: String)
    /// ABI version mismatch.
    case abiMismatch(plugin: String, library: String, pluginABI: String, hostABI: String)
    /// No plugin with this name is installed.
    /// `installed`: the names that are, for a "did you mean".
    case unknownPlugin(name: String, installed: [String] = [])

    public var description: String {
        switch self {
        case .missingPluginDirectory(let path, let origin):
            return "plugins directory \(path) (from \(origin)) does not exist or is not a directory; create it or pass an existing directory"
        case .loadFailed(let plugin, let library, let reason): return "plugin \(plugin) (\(library)): \(reason)"
        case .abiMismatch(let plugin, let library, let p, let h):
            return "plugin \(plugin) (\(library)) was built for transhost ABI \(p), but this host implements ABI \(h) (the major must be equal and the plugin's minor not newer); rebuild the plugin against this host's transhost.h"
        case .unknownPlugin(let name, let installed):
            return "no plugin named \(name) is installed\(Spelling.hint(for: name, among: installed)); run `transhost list` to see what is"
        }
    }
}
