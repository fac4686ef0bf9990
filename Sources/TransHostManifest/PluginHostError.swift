/// Errors of the plugin host. Every message is a sentence that names the file, plugin, symbol or
/// version involved and says what to do.
public enum PluginHostError: Error, Equatable, CustomStringConvertible {
    /// A manifest or registry file could not be read or is not valid JSON.
    case unreadable(file: String, reason: String)
    /// A JSON syntax error at a line and column.
    case syntax(file: String, line: Int, column: Int, reason: String)
    /// A field of a manifest or registry is missing or wrong.
    case invalidField(file: String, field: String, reason: String)
    /// A plugins directory given explicitly does not exist or is not a directory.
    case missingPluginDirectory(path: String, origin: String)
    /// The plugin's library could not be inspected or loaded.
    case loadFailed(plugin: String, library: String, reason: String)
    /// ABI version mismatch.
    case abiMismatch(plugin: String, library: String, pluginABI: String, hostABI: String)
    /// No plugin with this name is installed.
    case unknownPlugin(name: String)

    public var description: String {
        switch self {
        case .unreadable(let file, let reason): return "\(file): cannot read: \(reason)"
        case .syntax(let file, let line, let column, let reason):
            return "\(file):\(line):\(column): JSON syntax error: \(reason). Fix the file and run the command again."
        case .invalidField(let file, let field, let reason): return "\(file): field \"\(field)\": \(reason)"
        case .missingPluginDirectory(let path, let origin):
            return "plugins directory \(path) (from \(origin)) does not exist or is not a directory; create it or pass an existing directory"
        case .loadFailed(let plugin, let library, let reason): return "plugin \(plugin) (\(library)): \(reason)"
        case .abiMismatch(let plugin, let library, let p, let h):
            return "plugin \(plugin) (\(library)) was built for transhost ABI \(p), but this host implements ABI \(h) (the major must be equal and the plugin's minor not newer); rebuild the plugin against this host's transhost.h"
        case .unknownPlugin(let name): return "no plugin named \(name) is installed; run `transhost list` to see what is"
        }
    }
}
