import TransHostCoordinators
import TransHostRouting
import TransHostSupport
#if canImport(Glibc)
import Glibc
#endif

/// A plugin's manifest (`manifest.json` in the plugin's directory). Schema: docs/manifest.md.
public struct PluginManifest: Equatable, Sendable {
    public static let format = "transhost-manifest/1"

    /// One route as written (container, operations, types, priority, reverse, interaction).
    public typealias Route = RouteSpec

    public struct Animator: Equatable, Sendable {
        public var id: String
        public var description: String?
        public var routes: [Route]
    }

    /// An interaction controller a route may name (data only: the host reads it, plugins get
    /// its values through the interactive extension when that exists).
    public struct Interaction: Equatable, Sendable {
        public static let kinds = ["pan"]
        public var id: String
        /// "pan".
        public var kind: String
        /// "x" or "y".
        public var axis: String
        /// The fraction of the gesture (0...1) past which a release finishes the transition.
        public var finishThreshold: Double
    }

    /// A typed native entry point the host calls through libffi right after the plugin loads,
    /// with the manifest defaults overridden by `transhost run --param PLUGIN.NAME=VALUE`.
    public struct Configure: Equatable, Sendable {
        /// The exported C function, e.g. `fade_scale_configure`; it returns void.
        public var symbol: String
        public var parameters: [ParameterSpec]

        public func parameter(named name: String) -> ParameterSpec? { parameters.first { $0.name == name } }
    }

    public var file: String
    public var name: String
    public var version: String
    public var abiMajor: Int
    public var abiMinor: Int
    /// The library path as written (relative to the manifest's directory).
    public var library: String
    public var language: String
    public var description: String?
    public var animators: [Animator]
    public var interactions: [Interaction] = []
    /// Delegates (ABI 1.2): routes that ask one of the plugin's delegate objects for the
    /// animator, as UIKit asks a transitioning, navigation or tab bar delegate.
    public var delegates: [Animator] = []
    public var configure: Configure?

    /// The plugin's directory (the manifest's).
    public var directory: String { PathUtil.dirname(file) }
    /// The library's resolved path.
    public var libraryPath: String { PathUtil.join(directory, library) }
    public var abi: String { "\(abiMajor).\(abiMinor)" }

    static let keys = ["format", "name", "version", "abi", "library", "language", "description", "animators", "delegates", "interactions", "configure"]
    static let animatorKeys = ["id", "description", "routes"]
    static let routeKeys = ["container", "operations", "from", "to", "priority", "reverse", "interaction"]
    static let interactionKeys = ["id", "kind", "axis", "finishThreshold"]
    static let configureKeys = ["symbol", "parameters"]
    static let parameterKeys = ["name", "type", "default", "min", "max", "doc"]
    /// More parameters than this cannot be passed through one libffi call safely (the arguments
    /// live on the stack); no real configure function comes near it.
    public static let maxParameters = 64

    /// Reads and validates a manifest; errors name the file, line:column and the field.
    public static func load(file: String) throws -> PluginManifest {
        try PluginManifest(document: try JSONDocument.read(file))
    }

    public init(document: JSONDocument) throws {
        let o = try document.top.object(keys: Self.keys)
        file = document.file
        if let f = o["format"] {
            guard f.value.stringValue == Self.format else { throw f.error("expected \"\(Self.format)\", found \(JSONWriter.write(f.value, pretty: false))") }
        }
        let nameField = try o.required("name")
        name = try nameField.string()
        guard Self.isValidName(name) else {
            throw nameField.error("\"\(name)\" is not a valid plugin name: use 1-64 characters from a-z, 0-9, '-', '_' and '.', starting with a letter or digit")
        }
        version = try o.required("version").string()
        let abiField = try o.required("abi")
        let abiText = try abiField.string()
        guard let (maj, min) = Self.parseABI(abiText) else { throw abiField.error("\"\(abiText)\" is not an ABI version; write \"MAJOR.MINOR\", e.g. \"1.0\"") }
        abiMajor = maj; abiMinor = min
        let libraryField = try o.required("library")
        library = try libraryField.string()
        guard PathUtil.staysInside(relative: library) else {
            throw libraryField.error("\"\(library)\" escapes the plugin's directory; give a path inside it (no leading '/', no '..')")
        }
        language = try o["language"]?.text() ?? "c"
        guard ["c", "swift", "c++"].contains(language) else { throw o.error("language", "\"\(language)\" is not one of c, c++, swift") }
        description = try o["description"]?.text()
        interactions = try Self.readInteractions(o)
        configure = try Self.readConfigure(o)
        let delegateFields = try o["delegates"]?.array()
        let anims = try o["animators"]?.array() ?? []
        guard !anims.isEmpty || !(delegateFields ?? []).isEmpty else {
            throw o.error("animators", "a non-empty array of animators is required (or a non-empty \"delegates\")")
        }
        let interactionIDs = interactions.map(\.id)
        animators = try Self.readEntries(anims, noun: "animator", interactionIDs)
        delegates = try Self.readEntries(delegateFields ?? [], noun: "delegate", interactionIDs)
    }

    /// Animators and delegates share one shape: an id, a description and routes.
    static func readEntries(_ entries: [JSONField], noun: String, _ interactionIDs: [String]) throws -> [Animator] {
        var seen = Set<String>()
        return try entries.map { a in
            let ao = try a.object(keys: Self.animatorKeys)
            let idField = try ao.required("id")
            let id = try idField.string()
            guard seen.insert(id).inserted else { throw idField.error("duplicate \(noun) id \"\(id)\"") }
            let routes = try (ao["routes"]?.array() ?? []).map { rv -> Route in
                let ro = try rv.object(keys: Self.routeKeys)
                let containerField = try ro.required("container")
                let containerName = try containerField.string()
                let containers = ["navigation", "tab", "modal", "any"]
                guard let container = RouteContainer(manifestName: containerName) else {
                    throw containerField.error("\"\(containerName)\" is not one of navigation, tab, modal, any\(Spelling.hint(for: containerName, among: containers))")
                }
                var ops: [TransitionOperation] = []
                for of in try ro["operations"]?.array() ?? [] {
                    let names = TransitionOperation.allCases.map(\.rawValue)
                    guard let s = of.value.stringValue, let op = TransitionOperation(rawValue: s) else {
                        throw of.error("\(JSONWriter.write(of.value, pretty: false)) is not one of push, pop, select, present, dismiss\(Spelling.hint(for: of.value.stringValue ?? "", among: names))")
                    }
                    if !container.admits(op.container) {
                        throw of.error("operation \(s) does not happen in a \(containerName) container")
                    }
                    ops.append(op)
                }
                let priority = try ro["priority"]?.int(in: -1_000_000...1_000_000) ?? 0
                let reverse = try ro["reverse"]?.bool() ?? true
                let interaction = try ro["interaction"]?.text()
                if let interaction, !interactionIDs.contains(interaction) {
                    let known = interactionIDs.isEmpty ? "the manifest declares no \"interactions\"" : "declared interactions: \(interactionIDs.joined(separator: ", "))"
                    throw ro.error("interaction", "\"\(interaction)\" names no interaction of this manifest (\(known)); add it to \"interactions\" or fix the id")
                }
                return Route(container: container, operations: ops, from: try ro["from"]?.text() ?? "*",
                             to: try ro["to"]?.text() ?? "*", priority: priority, reverse: reverse,
                             interaction: interaction)
            }
            return Animator(id: id, description: try ao["description"]?.text(), routes: routes)
        }
    }

    static func readInteractions(_ obj: JSONObject) throws -> [Interaction] {
        guard let v = obj["interactions"] else { return [] }
        var ids = Set<String>()
        return try v.array().map { iv in
            let o = try iv.object(keys: interactionKeys)
            let idField = try o.required("id")
            let id = try idField.string()
            guard ids.insert(id).inserted else { throw idField.error("duplicate interaction id \"\(id)\"") }
            let kind = try o.required("kind").string()
            guard Interaction.kinds.contains(kind) else {
                throw o.error("kind", "\"\(kind)\" is not a supported interaction kind; use one of \(Interaction.kinds.joined(separator: ", "))")
            }
            let axis = try o["axis"]?.text() ?? "x"
            guard axis == "x" || axis == "y" else { throw o.error("axis", "\"\(axis)\" is not x or y") }
            var threshold = 0.5
            if let t = o["finishThreshold"] {
                guard let d = t.value.doubleValue, d.isFinite, d > 0, d < 1 else {
                    throw t.error("expected a number between 0 and 1 (exclusive), found \(JSONWriter.write(t.value, pretty: false))")
                }
                threshold = d
            }
            return Interaction(id: id, kind: kind, axis: axis, finishThreshold: threshold)
        }
    }

    static func readConfigure(_ obj: JSONObject) throws -> Configure? {
        guard let v = obj["configure"] else { return nil }
        guard v.value.objectValue != nil else { throw v.error("expected an object with \"symbol\" and \"parameters\", found \(v.value.kindDescription)") }
        let o = try v.object(keys: configureKeys)
        let symbolField = try o.required("symbol")
        let symbol = try symbolField.string()
        guard isCIdentifier(symbol) else {
            throw symbolField.error("\"\(symbol)\" is not a C function name (letters, digits and '_', not starting with a digit)")
        }
        var specs: [ParameterSpec] = []
        if let pv = o["parameters"] {
            var names = Set<String>()
            for item in try pv.array(maxCount: maxParameters) {
                let po = try item.object(keys: parameterKeys)
                let p = item.path
                let nameField = try po.required("name")
                let name = try nameField.string()
                guard isCIdentifier(name) else {
                    throw nameField.error("\"\(name)\" is not a valid parameter name (letters, digits and '_', not starting with a digit)")
                }
                guard names.insert(name).inserted else { throw nameField.error("duplicate parameter name \"\(name)\"") }
                let typeField = try po.required("type")
                let typeName = try typeField.string()
                let type: ParameterType
                do { type = try ParameterType(manifestName: typeName) } catch let e as ParameterError {
                    throw typeField.error(e.reason)
                }
                var def: ParameterValue?
                if let df = po["default"] {
                    switch df.value {
                    case .number(let n):
                        if type.isUnsignedInteger, let u = UInt64(exactly: n) { def = .uint(u) }
                        else if type.isSignedInteger || type == .handle, let i = Int64(exactly: n) { def = .int(i) }
                        else { def = .double(n) }
                    case .bool(let b): def = .bool(b)
                    case .string(let s): def = .string(s)
                    default: throw df.error("expected a number, a string or true/false, found \(df.value.kindDescription)")
                    }
                }
                let spec = ParameterSpec(name: name, type: type, defaultValue: def, min: try po["min"]?.number(), max: try po["max"]?.number(),
                                         doc: try po["doc"]?.text())
                do { try spec.validateDeclaration() } catch let e as ParameterError {
                    let field = e.reason.hasPrefix("default") ? "\(p).default" : e.reason.hasPrefix("min") || e.reason.hasPrefix("max") ? "\(p).\(e.reason.hasPrefix("max") ? "max" : "min")" : p
                    throw v.document.error(field, e.message)
                }
                specs.append(spec)
            }
        }
        return Configure(symbol: symbol, parameters: specs)
    }

    static func isCIdentifier(_ s: String) -> Bool {
        guard let f = s.unicodeScalars.first, !("0"..."9").contains(f), s.utf8.count <= 128 else { return false }
        return s.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    public static func isValidName(_ s: String) -> Bool {
        guard (1...64).contains(s.utf8.count), let f = s.unicodeScalars.first, ("0"..."9").contains(f) || ("a"..."z").contains(f) else { return false }
        return s.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0) }
    }

    static func parseABI(_ s: String) -> (Int, Int)? {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, b >= 0 else { return nil }
        return (a, b)
    }
}
