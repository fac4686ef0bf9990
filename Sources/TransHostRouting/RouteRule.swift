import TransHostCoordinators

/// One routing rule from a plugin manifest: "animate these transitions with this animator".
public struct RouteRule: Equatable, Sendable {
    /// The wildcard type name: matches any controller type.
    public static let wildcard = "*"

    /// Plugin name.
    public var plugin: String
    /// Animator id within the plugin.
    public var animator: String
    /// Optional interaction controller id within the plugin.
    public var interaction: String?
    public var container: RouteContainer
    /// The operations this rule is stated for; empty means every operation valid for `container`.
    public var operations: [TransitionOperation]
    /// Type name of the controller being left, or `"*"`.
    public var from: String
    /// Type name of the controller being shown, or `"*"`.
    public var to: String
    /// Higher wins; default 0.
    public var priority: Int
    /// When true (the default), a rule stated for a forward operation also serves its reverse with
    /// the types swapped: push A->B serves pop B->A, present A->B serves dismiss B->A, and
    /// select A->B serves select B->A. Rules stated for pop or dismiss derive nothing.
    public var reverse: Bool
    /// Where it was declared (manifest path + `animators[i].routes[j]`), for messages.
    public var source: String
    /// Global declaration order, the stable tie-break (lowest wins).
    public var order: Int
    /// When true, `animator` names one of the plugin's delegates (ABI 1.2): the delegate is
    /// asked for the animator, and nil means the default transition.
    public var isDelegate = false
    /// Why the rule's plugin cannot be used (it failed to load or its library is broken), or nil.
    /// Such a rule still matches, so a transition it wins reports the failure instead of quietly
    /// getting the default transition.
    public var unusableReason: String? = nil

    public init(
        plugin: String,
        animator: String,
        interaction: String? = nil,
        container: RouteContainer,
        operations: [TransitionOperation],
        from: String,
        to: String,
        priority: Int = 0,
        reverse: Bool = true,
        source: String = "",
        order: Int = 0
    ) {
        self.plugin = plugin
        self.animator = animator
        self.interaction = interaction
        self.container = container
        self.operations = operations
        self.from = from
        self.to = to
        self.priority = priority
        self.reverse = reverse
        self.source = source
        self.order = order
    }

    /// The operations the rule serves directly: `operations`, or every operation valid for the
    /// container when `operations` is empty.
    public var statedOperations: [TransitionOperation] {
        operations.isEmpty ? container.validOperations : operations
    }

    /// The operations the rule serves through reverse derivation (with from/to swapped); empty
    /// when `reverse` is false. Only forward operations (push, present, select) derive a reverse.
    public var derivedOperations: [TransitionOperation] {
        guard reverse else { return [] }
        var derived: [TransitionOperation] = []
        for op in statedOperations where op.isForward && !derived.contains(op.reverse) {
            derived.append(op.reverse)
        }
        return derived
    }

    /// `plugin/animator`, plus the source when known: how messages name the rule.
    public var label: String {
        let name = isDelegate ? "\(plugin)/delegate \(animator)" : "\(plugin)/\(animator)"
        return source.isEmpty ? name : "\(name) [\(source)]"
    }

    /// `navigation [push] Home -> CompanySearch`, with priority and flags when not default.
    public var summary: String {
        let ops = operations.isEmpty ? "[any]" : "[\(operations.map(\.rawValue).joined(separator: ", "))]"
        var text = "\(container.manifestName) \(ops) \(from) -> \(to)"
        text += " priority \(priority)"
        if !reverse { text += ", reverse: false" }
        if let interaction { text += ", interaction \(interaction)" }
        return text
    }

    /// Statements that make the rule useless or suspicious, as sentences naming the source;
    /// empty for a sound rule. The router still evaluates such rules (they simply never match);
    /// manifest loaders can report these.
    public var problems: [String] {
        let at = source.isEmpty ? "" : "\(source): "
        var found: [String] = []
        if plugin.isEmpty { found.append("\(at)route has an empty plugin name") }
        if animator.isEmpty { found.append("\(at)route has an empty animator id") }
        if from.isEmpty { found.append("\(at)route has an empty from type (use \"*\" for any)") }
        if to.isEmpty { found.append("\(at)route has an empty to type (use \"*\" for any)") }
        if case .only(let kind) = container {
            for op in operations where op.container != kind {
                found.append("\(at)operation \(op.rawValue) never happens in a \(kind.rawValue) container, so it can never match")
            }
        }
        var seen: Set<TransitionOperation> = []
        for op in operations where !seen.insert(op).inserted {
            found.append("\(at)operation \(op.rawValue) is listed twice")
        }
        return found
    }
}

extension TransitionOperation {
    /// Push, present and select: the operations a rule is normally stated for.
    var isForward: Bool {
        switch self {
        case .push, .present, .select: return true
        case .pop, .dismiss: return false
        }
    }
}
