/// A refused parameter value or declaration. `message` is a complete sentence:
/// `parameter "damping" of plugin fade-scale: 1.7 is out of range [0, 1]`.
/// Callers that know the plugin add it with `inPlugin(_:)`.
public struct ParameterError: Error, Equatable, CustomStringConvertible {
    /// The parameter the error is about, if any.
    public let parameter: String?
    /// The plugin, when the caller has added it.
    public let plugin: String?
    /// What is wrong, without the "parameter ... :" prefix, e.g. `1.7 is out of range [0, 1]`.
    public let reason: String
    /// The whole sentence.
    public let message: String

    public init(parameter: String?, plugin: String? = nil, reason: String) {
        self.parameter = parameter
        self.plugin = plugin
        self.reason = reason
        var prefix = ""
        if let parameter { prefix = "parameter \(parameter.debugDescription)" }
        if let plugin { prefix += prefix.isEmpty ? "plugin \(plugin)" : " of plugin \(plugin)" }
        self.message = prefix.isEmpty ? reason : "\(prefix): \(reason)"
    }

    /// The same error with the plugin named in the message.
    public func inPlugin(_ plugin: String) -> ParameterError {
        ParameterError(parameter: parameter, plugin: plugin, reason: reason)
    }

    public var description: String { message }
}
