import TransHostCoordinators

/// One transition about to happen: the router's input.
public struct RouteQuery: Equatable, Sendable {
    public var container: ContainerKind
    public var operation: TransitionOperation
    /// Type name of the controller being left.
    public var from: String
    /// Type name of the controller being shown.
    public var to: String

    public init(container: ContainerKind, operation: TransitionOperation, from: String, to: String) {
        self.container = container
        self.operation = operation
        self.from = from
        self.to = to
    }

    /// `navigation pop CompanySearch -> Home`.
    public var summary: String {
        "\(container.rawValue) \(operation.rawValue) \(from) -> \(to)"
    }
}
