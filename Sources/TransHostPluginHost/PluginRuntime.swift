import CTransHost
import TransHostCore
import TransHostCoordinators
import TransHostSupport
import TransHostDiscovery
import TransHostFFI
import TransHostManifest
import TransHostRouting
#if canImport(Glibc)
import Glibc
#endif

/// How `run` loads plugins.
public struct PluginLoadOptions: Sendable {
    /// Validate a new or changed plugin in a child process before loading it into the host.
    /// Off (`--no-fork`), a plugin that crashes while loading crashes the host.
    public var fork: Bool
    /// Seconds the validation child may take (`TRANSHOST_VALIDATE_TIMEOUT`).
    public var timeout: Double
    /// Parameter values by plugin, then parameter name (`--param PLUGIN.NAME=VALUE`), parsed and
    /// checked against the manifests once, by `ParameterOverrides.parse`.
    public var parameters: ParameterOverrides

    public init(fork: Bool = true, timeout: Double = PluginValidator.defaultTimeout, parameters: ParameterOverrides = ParameterOverrides()) {
        self.fork = fork; self.timeout = timeout; self.parameters = parameters
    }
}

/// The plugins of one run: routes every usable plugin's manifest declares, loads a plugin the
/// first time one of its routes wins, and answers the coordinators' delegate question.
///
/// Loading a plugin: unless it was validated since it last changed (scan cache), it is first
/// loaded in a validation child process (`PluginValidator`); then it is loaded into the host,
/// and its manifest's configure function, if any, is called through libffi with the manifest
/// defaults and the `--param` overrides. Results are remembered in the scan cache.
public final class PluginRuntime: TransitionAnimatorProvider {
    public let bridge: HostBridge
    public let router: Router
    public let options: PluginLoadOptions
    private let manifests: [String: PluginManifest]
    private let records: [String: PluginRecord]
    private let cache: ScanCache?
    private let libraries: PluginLibraries
    private var loaded: [String: LoadedPlugin] = [:]
    private var failed: [String: Error] = [:]
    /// Receives a routed plugin that could not be loaded: its name and a sentence saying why and
    /// which transition got the default instead.
    public var loadFailureHandler: (_ plugin: String, _ message: String) -> Void = { _, _ in }
    /// Receives other host warnings (a scan cache that cannot be written, ...).
    public var warningHandler: (String) -> Void = { _ in }
    /// Receives a scan cache that cannot be written (once per run). Not a load failure: every
    /// plugin may have loaded; only the next run repeats the validation.
    public var cacheWarningHandler: ((String) -> Void)?
    private var reportedCacheProblem = false

    /// Told each step of loading a plugin into this process (a playback worker publishes it, so
    /// a crash in a library constructor or in init is attributed to that plugin and step).
    public var loadProgress: (String, LoadStage) -> Void = { _, _ in }
    /// Told when loading a plugin into this process ended, loaded or not.
    public var loadEnded: (String) -> Void = { _ in }
    /// Told each validation result this runtime records (plugin, result), also when it has no
    /// scan cache: a playback worker reports them to its supervisor, which owns the cache.
    public var validationRecorded: (String, ScanCache.Validation) -> Void = { _, _ in }

    /// Treats `name` as failed to load, with `reason` (the supervisor of a playback worker knows
    /// of failures the scan cache does not hold yet): its routes get the default transition.
    public func exclude(_ name: String, reason: String) {
        guard let m = manifests[name] else { return }
        loaded[name] = nil
        failed[name] = PluginHostError.loadFailed(plugin: name, library: m.libraryPath, reason: reason)
    }

    /// The manifest of a routable plugin.
    public func manifest(named name: String) -> PluginManifest? { manifests[name] }
    /// The interaction (axis, finish threshold) the winning route named, by animator.
    private var interactionRules: [ObjectIdentifier: InteractionRule] = [:]

    /// The running transition's context, for a plugin presentation controller's hooks (set by
    /// whoever owns the app).
    public var runningContext: () -> TransitionContext? = { nil }

    /// The navigation delegate that decided the running transition, to tell it didShow.
    var pendingShow: (plugin: String, delegate: UnsafePointer<th_delegate>, request: TransitionRequest, animated: Bool)?

    func setInteractionRule(_ rule: InteractionRule, for animator: TransitionAnimator) {
        interactionRules[ObjectIdentifier(animator)] = rule
    }

    /// The interaction rule the manifest's route gave this animator, if it named one.
    public func interactionRule(for animator: TransitionAnimator) -> InteractionRule? {
        interactionRules[ObjectIdentifier(animator)]
    }

    /// Receives each route conflict (a tie settled by declaration order) once per query.
    public var conflictHandler: (String) -> Void = { _ in }
    private var reportedConflicts = Set<String>()

    /// Every routing decision made during the run, in order.
    public private(set) var decisions: [RouteDecision] = []

    public init(scan: PluginScan, types: TypeHierarchy, bridge: HostBridge, options: PluginLoadOptions = PluginLoadOptions(),
                libraries: PluginLibraries = .process) {
        self.bridge = bridge
        self.options = options
        self.cache = scan.cache
        self.libraries = libraries
        var manifests: [String: PluginManifest] = [:]
        var records: [String: PluginRecord] = [:]
        var failed: [String: Error] = [:]
        let routable = scan.routable
        for r in routable {
            guard let m = r.manifest else { continue }
            manifests[m.name] = m
            records[m.name] = r
            if case .failed(let reason)? = r.validation {
                failed[m.name] = PluginHostError.loadFailed(plugin: m.name, library: m.libraryPath,
                                                            reason: "\(reason) [remembered from an earlier load; run with --rescan to try again]")
            } else if case .failed(let reason) = r.status {
                failed[m.name] = PluginHostError.loadFailed(plugin: m.name, library: m.libraryPath, reason: reason)
            }
        }
        self.manifests = manifests
        self.records = records
        self.failed = failed
        self.router = Router(rules: Self.rules(from: routable), types: types)
    }

    /// The route rules of these plugins, numbered in declaration order (plugins by search order,
    /// then animators and routes as written). A plugin that is not usable keeps its rules, marked
    /// with the reason, so a transition they win reports it (and `route --explain` shows it).
    public static func rules(from records: [PluginRecord]) -> [RouteRule] {
        rules(from: records.compactMap { r in r.manifest.map { ($0, r.status.reason) } })
    }

    /// The route rules of these manifests, each with the reason its plugin is not usable (or nil).
    public static func rules(from manifests: [(PluginManifest, String?)]) -> [RouteRule] {
        var rules: [RouteRule] = []
        for (m, unusable) in manifests {
            for (i, a) in m.animators.enumerated() {
                for (j, r) in a.routes.enumerated() {
                    rules.append(RouteRule(plugin: m.name, animator: a.id, spec: r,
                                           source: "\(m.file) animators[\(i)].routes[\(j)]", order: rules.count))
                    rules[rules.count - 1].unusableReason = unusable
                }
            }
            for (i, d) in m.delegates.enumerated() {
                for (j, r) in d.routes.enumerated() {
                    var rule = RouteRule(plugin: m.name, animator: d.id, interaction: r.interaction,
                                         container: r.container,
                                         operations: r.operations, from: r.from, to: r.to, priority: r.priority,
                                         reverse: r.reverse, source: "\(m.file) delegates[\(i)].routes[\(j)]", order: rules.count)
                    rule.isDelegate = true
                    rule.unusableReason = unusable
                    rules.append(rule)
                }
            }
        }
        return rules
    }

    /// Loads (once) the named plugin: validation child (if needed), dlopen and init, configure.
    public func plugin(named name: String) throws -> LoadedPlugin {
        if let p = loaded[name] { return p }
        if let e = failed[name] { throw e }
        guard let m = manifests[name] else { throw PluginHostError.unknownPlugin(name: name) }
        do {
            let p = try load(m)
            loaded[name] = p
            return p
        } catch {
            failed[name] = error
            throw error
        }
    }

    private func load(_ m: PluginManifest) throws -> LoadedPlugin {
        defer { loadEnded(m.name) }
        if let p = libraries.alreadyInitialized(m) {
            try configure(p)
            return p
        }
        let validated = records[m.name]?.isValidated == true
        if options.fork && !validated {
            let v = PluginValidator.validate(m, timeout: options.timeout)
            remember(v, m)
            if case .failed(let reason) = v {
                throw PluginHostError.loadFailed(plugin: m.name, library: m.libraryPath, reason: reason)
            }
        }
        let p: LoadedPlugin
        do { p = try PluginLoader.load(m, bridge: bridge) { loadProgress(m.name, $0) } } catch {
            if case .loadFailed(_, _, let reason)? = error as? PluginHostError { remember(.failed(reason), m) }
            else { remember(.failed("\(error)"), m) }
            throw error
        }
        if !options.fork && !validated { remember(.passed, m) }
        libraries.remember(p)
        try configure(p)
        return p
    }

    /// Calls the manifest's configure function through libffi (prepared once per plugin).
    private func configure(_ p: LoadedPlugin) throws {
        guard let c = p.manifest.configure else { return }
        let lib = p.manifest.libraryPath
        guard let address = dlsym(p.handle, c.symbol) else {
            throw PluginHostError.loadFailed(plugin: p.name, library: lib,
                                             reason: "the manifest's configure symbol \(c.symbol) is not exported by the library; export it (TH_EXPORT) or fix \"configure.symbol\" in \(p.manifest.file)")
        }
        do {
            let fn = try p.configureFunction ?? FFIFunction(symbolName: c.symbol, address: address, parameters: c.parameters.map(\.type), returnType: nil)
            p.configureFunction = fn
            let values = options.parameters.values(for: p.name)
            let result: Result<ParameterValue?, Error> = bridge.calling(p.name, "its configure function") { Result { try fn.call(specs: c.parameters, values: values) } }
            _ = try result.get()
        } catch let e as ParameterError {
            throw PluginHostError.loadFailed(plugin: p.name, library: lib, reason: "configure \(c.symbol): \(e.inPlugin(p.name).message)")
        } catch {
            throw PluginHostError.loadFailed(plugin: p.name, library: lib, reason: "configure \(c.symbol): \(error)")
        }
    }

    private func remember(_ v: ScanCache.Validation, _ m: PluginManifest) {
        validationRecorded(m.name, v)
        guard let cache, let key = records[m.name]?.manifestPath else { return }
        cache.setValidation(v, for: key)
        do { try cache.save() } catch {
            guard !reportedCacheProblem else { return }
            reportedCacheProblem = true
            let message = "the scan cache could not be written (\(error)); plugins will be validated again next time (set TRANSHOST_CACHE to a writable file, or to an empty value to turn the cache off)"
            (cacheWarningHandler ?? warningHandler)(message)
        }
    }

    public func animator(for request: TransitionRequest) -> TransitionAnimator? {
        var query = RouteQuery(container: request.container, operation: request.operation,
                               from: request.from.typeName, to: request.to.typeName)
        var decision = router.resolve(query)
        // A present route may name the controller the presentation was asked of (UIKit's
        // source) rather than the presenting container: tried when the presenting one's type
        // finds no route.
        if decision.winner == nil, request.operation == .present, let source = request.source, source.typeName != request.from.typeName {
            let q = RouteQuery(container: request.container, operation: request.operation, from: source.typeName, to: request.to.typeName)
            let d = router.resolve(q)
            if d.winner != nil { query = q; decision = d }
        }
        decisions.append(decision)
        if let winner = decision.winner, !decision.conflicts.isEmpty, reportedConflicts.insert(query.summary).inserted {
            conflictHandler("route conflict for \(query.summary): \(winner.rule.label) won the stable tie-break over "
                + decision.conflicts.map(\.rule.label).joined(separator: ", ")
                + " (same priority and specificity); give one route a higher priority to decide it")
        }
        guard let winner = decision.winner else { return nil }
        if winner.rule.isDelegate { return delegateAnimator(winner.rule, request, query) }
        do {
            let p = try plugin(named: winner.rule.plugin)
            let a = try p.animator(winner.rule.animator, bridge: bridge)
            let animator = PluginAnimator(plugin: p, animatorID: winner.rule.animator, animator: a, bridge: bridge)
            if let id = winner.rule.interaction, let spec = p.manifest.interactions.first(where: { $0.id == id }) {
                interactionRules[ObjectIdentifier(animator)] = InteractionRule(axis: spec.axis == "y" ? .vertical : .horizontal,
                                                                               threshold: spec.finishThreshold)
            }
            return animator
        } catch {
            loadFailureHandler(winner.rule.plugin, "\(error); the host's default transition was used for \(query.summary)")
            return nil
        }
    }
}
