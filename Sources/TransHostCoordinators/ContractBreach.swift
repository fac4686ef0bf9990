/// A breach of the transition contract by an animator (the rules: TransitionHost).
public struct ContractBreach: Equatable, Sendable, CustomStringConvertible {
    /// The plugin that broke the contract ("host" for the built-in defaults).
    public let plugin: String
    /// A stable kind: never-completed, completed-twice, to-view-missing, invalid-value, ...
    public let kind: String
    public let message: String
    public init(plugin: String, kind: String, message: String) { self.plugin = plugin; self.kind = kind; self.message = message }
    public var description: String { "\(plugin): \(kind): \(message)" }
}
