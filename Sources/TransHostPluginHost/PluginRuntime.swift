import TransHostCore
import TransHostCoordinators
import TransHostSupport

/// The plugins of one run: routes every usable plugin's manifest declares, loads a plugin the
/// first time one of its routes wins, and answers the coordinators' delegate question.
public final class PluginRuntime: TransitionAnimatorProvider {
    public let bridge: HostBridge
    public let router: Router
    private let manifests: [String: PluginManifest]
    private var loaded: [String: LoadedPlugin] = [:]
    private var failed: [String: String] = [:]
    /// Receives load failures and other host warnings (each a sentence naming the plugin).
    public var warningHandler: (String) -> Void = { _ in }
    /// Every routing decision made during the run, in order.
    public private(set) var decisions: [RouteDecision] = []

    public init(scan: PluginScan, types: TypeHierarchy, bridge: HostBridge) {
        self.bridge = bridge
        var manifests: [String: PluginManifest] = [:]
        for r in scan.usable { if let m = r.manifest { manifests[m.name] = m } }
        self.manifests = manifests
        self.router = Router(rules: Self.rules(from: scan.usable.compactMap(\.manifest)), types: types)
    }

    /// The route rules of these manifests, numbered in declaration order (plugins by search
    /// order, then animators and routes as written).
    public static func rules(from manifests: [PluginManifest]) -> [RouteRule] {
        var rules: [RouteRule] = []
        for m in manifests {
            for (i, a) in m.animators.enumerated() {
                for (j, r) in a.routes.enumerated() {
                    rules.append(RouteRule(plugin: m.name, animator: a.id, interaction: r.interaction,
                                           container: RouteContainer(manifestName: r.container) ?? .any,
                                           operations: r.operations, from: r.from, to: r.to, priority: r.priority,
                                           reverse: r.reverse, source: "\(m.file) animators[\(i)].routes[\(j)]", order: rules.count))
                }
            }
        }
        return rules
    }

    /// Loads (once) the named plugin.
    public func plugin(named name: String) throws -> LoadedPlugin {
        if let p = loaded[name] { return p }
        if let reason = failed[name] { throw PluginHostError.loadFailed(plugin: name, library: manifests[name]?.libraryPath ?? "?", reason: reason) }
        guard let m = manifests[name] else { throw PluginHostError.unknownPlugin(name: name) }
        do {
            let p = try PluginLoader.load(m, bridge: bridge)
            loaded[name] = p
            return p
        } catch {
            failed[name] = "\(error)"
            throw error
        }
    }

    public func animator(for request: TransitionRequest) -> TransitionAnimator? {
        let query = RouteQuery(container: request.container, operation: request.operation,
                               from: request.from.typeName, to: request.to.typeName)
        let decision = router.resolve(query)
        decisions.append(decision)
        guard let winner = decision.winner else { return nil }
        do {
            let p = try plugin(named: winner.rule.plugin)
            let a = try p.animator(winner.rule.animator, bridge: bridge)
            return PluginAnimator(plugin: p, animatorID: winner.rule.animator, animator: a, bridge: bridge)
        } catch {
            warningHandler("\(error); the host's default transition was used for \(query.summary)")
            return nil
        }
    }
}
