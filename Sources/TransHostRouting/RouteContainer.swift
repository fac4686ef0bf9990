import TransHostCoordinators

/// Which container a route applies to: one specific container, or any of them.
public enum RouteContainer: Equatable, Hashable, Sendable {
    case any
    case only(ContainerKind)

    /// Parses the manifest spelling: `"navigation"`, `"tab"`, `"modal"` or `"any"`; nil for anything else.
    public init?(manifestName: String) {
        if manifestName == "any" {
            self = .any
        } else if let kind = ContainerKind(rawValue: manifestName) {
            self = .only(kind)
        } else {
            return nil
        }
    }

    /// The manifest spelling, the inverse of `init?(manifestName:)`.
    public var manifestName: String {
        switch self {
        case .any: return "any"
        case .only(let kind): return kind.rawValue
        }
    }

    /// True when a transition in `kind` falls under this route container.
    public func admits(_ kind: ContainerKind) -> Bool {
        switch self {
        case .any: return true
        case .only(let own): return own == kind
        }
    }

    /// The operations that can happen in this container, in `TransitionOperation.allCases` order.
    /// This is what an empty `operations` list in a rule stands for.
    public var validOperations: [TransitionOperation] {
        switch self {
        case .any: return TransitionOperation.allCases
        case .only(let kind): return TransitionOperation.allCases.filter { $0.container == kind }
        }
    }
}
