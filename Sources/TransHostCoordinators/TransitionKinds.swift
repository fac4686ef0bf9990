/// The three containers that own transitions.
public enum ContainerKind: String, CaseIterable, Sendable, Codable {
    case navigation, tab, modal
}

/// What a transition does (UINavigationControllerOperation, tab selection, presentation).
public enum TransitionOperation: String, CaseIterable, Sendable, Codable {
    case push, pop, select, present, dismiss

    /// The operation that undoes this one (push/pop, present/dismiss); select is its own reverse.
    public var reverse: TransitionOperation {
        switch self {
        case .push: return .pop
        case .pop: return .push
        case .present: return .dismiss
        case .dismiss: return .present
        case .select: return .select
        }
    }

    /// The containers this operation happens in.
    public var container: ContainerKind {
        switch self {
        case .push, .pop: return .navigation
        case .select: return .tab
        case .present, .dismiss: return .modal
        }
    }
}
