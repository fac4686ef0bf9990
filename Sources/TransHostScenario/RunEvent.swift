import TransHostCoordinators

/// Something that happened while a scenario played and that a user must hear about: each is
/// recorded once in the run's `EventLedger`, printed once by the command line and written once
/// into the trace.
public enum RunEvent: Equatable, Sendable {
    /// A routed plugin could not be loaded, so the host's default transition ran instead. One
    /// event per plugin and scenario, however many transitions it was routed for.
    case loadFailure(plugin: String, message: String)
    /// A host warning: a refused action, a route conflict, an engine warning outside plugin code.
    case warning(String)
    /// A line a plugin wrote with host->log, prefixed with its name and level.
    case log(String)
    /// An animator broke the transition contract; `transition` is nil when no transition had
    /// begun (a breach in a plugin's init, for example).
    case breach(ContractBreach, transition: Int?)
    /// An action UIKit answers with an exception (a controller that would be in two containers);
    /// it was refused. The input is invalid: `run` exits with code 5.
    case error(String)
    /// A plugin crashed, hung or exited while a playback worker ran it (see PluginFailure).
    case pluginFailure(PluginFailure)

    /// The sentence as the command line prints it (without a "warning:" prefix).
    public var message: String {
        switch self {
        case .loadFailure(_, let m), .warning(let m), .log(let m), .error(let m): return m
        case .breach(let b, _): return b.description
        case .pluginFailure(let f): return f.message
        }
    }
}

/// The events of one played scenario, in the order they happened.
public final class EventLedger {
    public private(set) var events: [RunEvent] = []
    private var failedPlugins = Set<String>()

    public init() {}

    /// Records a load failure, once per plugin (later transitions routed to it say nothing new).
    public func loadFailure(plugin: String, message: String) {
        guard failedPlugins.insert(plugin).inserted else { return }
        events.append(.loadFailure(plugin: plugin, message: message))
    }

    public func warn(_ message: String) { events.append(.warning(message)) }
    public func log(_ line: String) { events.append(.log(line)) }
    public func breach(_ b: ContractBreach, transition: Int?) { events.append(.breach(b, transition: transition)) }
    public func error(_ message: String) { events.append(.error(message)) }
}
