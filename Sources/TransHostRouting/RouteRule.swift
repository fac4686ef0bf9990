import TransHostCoordinators

/// What one route of a manifest states: which transitions it is for, how strongly, and whether
/// it also serves the reverse. The manifest reads it (`PluginManifest.Route`); a `RouteRule` adds
/// who declared it.
public struct RouteSpec: Equatable, Sendable {
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
    /// Optional interaction controller id within the plugin.
    public var interaction: String?

    public init(container: RouteContainer, operations: [TransitionOperation], from: String = RouteRule.wildcard,
                to: String = RouteRule.wildcard, priority: Int = 0, reverse: Bool = true, interaction: String? = nil) {
        self.container = container; self.operations = operations; self.from = from; self.to = to
        self.priority = priority; self.reverse = reverse; self.interaction = interaction
    }
}

/// One routing rule from a plugin manifest: "animate these transitions with this animator".
/// `rule.container`, `rule.from` and the rest read its `spec`.
@dynamicMemberLookup
public struct RouteRule: Equatable, Sendable {
    /// The wildcard type name: matches any controller type.
    public static let wildcard = "*"

    /// Plugin name.
    public var plugin: String
    /// Animator id within the plugin.
    public var animator: String
    /// What the route states.
    public var spec: RouteSpec
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

    public init(plugin: String, animator: String, spec: RouteSpec, source: String = "", order: Int = 0) {
        self.plugin = plugin; self.animator = animator; self.spec = spec; self.source = source; self.order = order
    }

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
        self.init(plugin: plugin, animator: animator,
                  spec: RouteSpec(container: container, operations: operations, from: from, to: to, priority: priority,
                                  reverse: reverse, interaction: interaction),
                  source: source, order: order)
    }

    public subscript<T>(dynamicMember keyPath: WritableKeyPath<RouteSpec, T>) -> T {
        get { spec[keyPath: keyPath] }
        set { spec[keyPath: keyPath] = newValue }
    }

    /// The operations the rule serves directly: `operations`, or every operation valid for the
    /// container when `operations` is empty.
    public var statedOperations: [TransitionOperation] {
        spec.operations.isEmpty ? spec.container.validOperations : spec.operations
    }

    /// The operations the rule serves through reverse derivation (with from/to swapped); empty
    /// when `reverse` is false. Only forward operations (push, present, select) derive a reverse.
    public var derivedOperations: [TransitionOperation] {
        guard spec.reverse else { return [] }
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
        let ops = spec.operations.isEmpty ? "[any]" : "[\(spec.operations.map(\.rawValue).joined(separator: ", "))]"
        var text = "\(spec.container.manifestName) \(ops) \(spec.from) -> \(spec.to)"
        text += " priority \(spec.priority)"
        if !spec.reverse { text += ", reverse: false" }
        if let interaction = spec.interaction { text += ", interaction \(interaction)" }
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
        if spec.from.isEmpty { found.append("\(at)route has an empty from type (use \"*\" for any)") }
        if spec.to.isEmpty { found.append("\(at)route has an empty to type (use \"*\" for any)") }
        if case .only(let kind) = spec.container {
            for op in spec.operations where op.container != kind {
                found.append("\(at)operation \(op.rawValue) never happens in a \(kind.rawValue) container, so it can never match")
            }
        }
        var seen: Set<TransitionOperation> = []
        for op in spec.operations where !seen.insert(op).inserted {
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
