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

    /// Reads and validates a manifest; errors name the file and the field.
    public static func load(file: String) throws -> PluginManifest {
        let value = try JSONFile.read(file)
        return try PluginManifest(json: value, file: file)
    }

    public init(json: JSONValue, file: String) throws {
        let r = FieldReader(file: file)
        guard let obj = json.objectValue else { throw r.error("", "the manifest must be a JSON object, found \(json.kindDescription)") }
        self.file = file
        if let f = obj["format"] {
            guard f.stringValue == Self.format else { throw r.error("format", "expected \"\(Self.format)\", found \(JSONWriter.write(f, pretty: false))") }
        }
        name = try r.string(obj, "name")
        guard Self.isValidName(name) else {
            throw r.error("name", "\"\(name)\" is not a valid plugin name: use 1-64 characters from a-z, 0-9, '-', '_' and '.', starting with a letter or digit")
        }
        version = try r.string(obj, "version")
        let abiText = try r.string(obj, "abi")
        guard let (maj, min) = Self.parseABI(abiText) else { throw r.error("abi", "\"\(abiText)\" is not an ABI version; write \"MAJOR.MINOR\", e.g. \"1.0\"") }
        abiMajor = maj; abiMinor = min
        library = try r.string(obj, "library")
        guard PathUtil.staysInside(relative: library) else {
            throw r.error("library", "\"\(library)\" escapes the plugin's directory; give a path inside it (no leading '/', no '..')")
        }
        language = try r.optionalString(obj, "language") ?? "c"
        guard ["c", "swift", "c++"].contains(language) else { throw r.error("language", "\"\(language)\" is not one of c, c++, swift") }
        description = try r.optionalString(obj, "description")
        interactions = try Self.readInteractions(obj, r)
        configure = try Self.readConfigure(obj, r)
        let delegateValues = try Self.optionalArray(obj, "delegates", r)
        guard let anims = try Self.optionalArray(obj, "animators", r) ?? (delegateValues == nil ? nil : []),
              !anims.isEmpty || !(delegateValues ?? []).isEmpty else {
            throw r.error("animators", "a non-empty array of animators is required (or a non-empty \"delegates\")")
        }
        let interactionIDs = interactions.map(\.id)
        animators = try Self.readEntries(anims, "animators", "animator", interactionIDs, r)
        delegates = try Self.readEntries(delegateValues ?? [], "delegates", "delegate", interactionIDs, r)
    }

    static func optionalArray(_ obj: [String: JSONValue], _ key: String, _ r: FieldReader) throws -> [JSONValue]? {
        guard let v = obj[key], v != .null else { return nil }
        guard let a = v.arrayValue else { throw r.error(key, "expected an array, found \(v.kindDescription)") }
        return a
    }

    /// Animators and delegates share one shape: an id, a description and routes.
    static func readEntries(_ anims: [JSONValue], _ key: String, _ noun: String, _ interactionIDs: [String], _ r: FieldReader) throws -> [Animator] {
        var seen = Set<String>()
        return try anims.enumerated().map { (i, a) in
            let path = "\(key)[\(i)]"
            guard let ao = a.objectValue else { throw r.error(path, "expected an object, found \(a.kindDescription)") }
            let id = try r.string(ao, "id", path)
            guard seen.insert(id).inserted else { throw r.error("\(path).id", "duplicate \(noun) id \"\(id)\"") }
            let routes = try (ao["routes"]?.arrayValue ?? []).enumerated().map { (j, rv) -> Route in
                let rp = "\(path).routes[\(j)]"
                guard let ro = rv.objectValue else { throw r.error(rp, "expected an object, found \(rv.kindDescription)") }
                let containerName = try r.string(ro, "container", rp)
                guard let container = RouteContainer(manifestName: containerName) else {
                    throw r.error("\(rp).container", "\"\(containerName)\" is not one of navigation, tab, modal, any")
                }
                var ops: [TransitionOperation] = []
                if let ov = ro["operations"] {
                    guard let arr = ov.arrayValue else { throw r.error("\(rp).operations", "expected an array of strings") }
                    for (k, o) in arr.enumerated() {
                        guard let s = o.stringValue, let op = TransitionOperation(rawValue: s) else {
                            throw r.error("\(rp).operations[\(k)]", "\(JSONWriter.write(o, pretty: false)) is not one of push, pop, select, present, dismiss")
                        }
                        if !container.admits(op.container) {
                            throw r.error("\(rp).operations[\(k)]", "operation \(s) does not happen in a \(containerName) container")
                        }
                        ops.append(op)
                    }
                }
                let priority = try r.optionalInt(ro, "priority", rp) ?? 0
                let reverse = try r.optionalBool(ro, "reverse", rp) ?? true
                let interaction = try r.optionalString(ro, "interaction", rp)
                if let interaction, !interactionIDs.contains(interaction) {
                    let known = interactionIDs.isEmpty ? "the manifest declares no \"interactions\"" : "declared interactions: \(interactionIDs.joined(separator: ", "))"
                    throw r.error("\(rp).interaction", "\"\(interaction)\" names no interaction of this manifest (\(known)); add it to \"interactions\" or fix the id")
                }
                return Route(container: container, operations: ops, from: try r.optionalString(ro, "from", rp) ?? "*",
                             to: try r.optionalString(ro, "to", rp) ?? "*", priority: priority, reverse: reverse,
                             interaction: interaction)
            }
            return Animator(id: id, description: try r.optionalString(ao, "description", path), routes: routes)
        }
    }

    static func readInteractions(_ obj: [String: JSONValue], _ r: FieldReader) throws -> [Interaction] {
        guard let v = obj["interactions"], v != .null else { return [] }
        guard let arr = v.arrayValue else { throw r.error("interactions", "expected an array of interactions, found \(v.kindDescription)") }
        var ids = Set<String>()
        return try arr.enumerated().map { (i, iv) in
            let p = "interactions[\(i)]"
            guard let o = iv.objectValue else { throw r.error(p, "expected an object, found \(iv.kindDescription)") }
            let id = try r.string(o, "id", p)
            guard ids.insert(id).inserted else { throw r.error("\(p).id", "duplicate interaction id \"\(id)\"") }
            let kind = try r.string(o, "kind", p)
            guard Interaction.kinds.contains(kind) else {
                throw r.error("\(p).kind", "\"\(kind)\" is not a supported interaction kind; use one of \(Interaction.kinds.joined(separator: ", "))")
            }
            let axis = try r.optionalString(o, "axis", p) ?? "x"
            guard axis == "x" || axis == "y" else { throw r.error("\(p).axis", "\"\(axis)\" is not x or y") }
            var threshold = 0.5
            if let t = o["finishThreshold"], t != .null {
                guard let d = t.doubleValue, d.isFinite, d > 0, d < 1 else {
                    throw r.error("\(p).finishThreshold", "expected a number between 0 and 1 (exclusive), found \(JSONWriter.write(t, pretty: false))")
                }
                threshold = d
            }
            return Interaction(id: id, kind: kind, axis: axis, finishThreshold: threshold)
        }
    }

    static func readConfigure(_ obj: [String: JSONValue], _ r: FieldReader) throws -> Configure? {
        guard let v = obj["configure"], v != .null else { return nil }
        guard let o = v.objectValue else { throw r.error("configure", "expected an object with \"symbol\" and \"parameters\", found \(v.kindDescription)") }
        let symbol = try r.string(o, "symbol", "configure")
        guard isCIdentifier(symbol) else {
            throw r.error("configure.symbol", "\"\(symbol)\" is not a C function name (letters, digits and '_', not starting with a digit)")
        }
        var specs: [ParameterSpec] = []
        if let pv = o["parameters"], pv != .null {
            guard let arr = pv.arrayValue else { throw r.error("configure.parameters", "expected an array of parameters, found \(pv.kindDescription)") }
            var names = Set<String>()
            for (i, item) in arr.enumerated() {
                let p = "configure.parameters[\(i)]"
                guard let po = item.objectValue else { throw r.error(p, "expected an object, found \(item.kindDescription)") }
                let name = try r.string(po, "name", p)
                guard isCIdentifier(name) else {
                    throw r.error("\(p).name", "\"\(name)\" is not a valid parameter name (letters, digits and '_', not starting with a digit)")
                }
                guard names.insert(name).inserted else { throw r.error("\(p).name", "duplicate parameter name \"\(name)\"") }
                let typeName = try r.string(po, "type", p)
                let type: ParameterType
                do { type = try ParameterType(manifestName: typeName) } catch let e as ParameterError {
                    throw r.error("\(p).type", e.reason)
                }
                var def: ParameterValue?
                if let dv = po["default"], dv != .null {
                    switch dv {
                    case .number(let n):
                        if type.isUnsignedInteger, let u = UInt64(exactly: n) { def = .uint(u) }
                        else if type.isSignedInteger || type == .handle, let i = Int64(exactly: n) { def = .int(i) }
                        else { def = .double(n) }
                    case .bool(let b): def = .bool(b)
                    case .string(let s): def = .string(s)
                    default: throw r.error("\(p).default", "expected a number, a string or true/false, found \(dv.kindDescription)")
                    }
                }
                func bound(_ key: String) throws -> Double? {
                    guard let bv = po[key], bv != .null else { return nil }
                    guard let d = bv.doubleValue else { throw r.error("\(p).\(key)", "expected a number, found \(bv.kindDescription)") }
                    return d
                }
                let spec = ParameterSpec(name: name, type: type, defaultValue: def, min: try bound("min"), max: try bound("max"),
                                         doc: try r.optionalString(po, "doc", p))
                do { try spec.validateDeclaration() } catch let e as ParameterError {
                    let field = e.reason.hasPrefix("default") ? "\(p).default" : e.reason.hasPrefix("min") || e.reason.hasPrefix("max") ? "\(p).\(e.reason.hasPrefix("max") ? "max" : "min")" : p
                    throw r.error(field, e.message)
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

    static func isValidName(_ s: String) -> Bool {
        guard (1...64).contains(s.utf8.count), let f = s.unicodeScalars.first, ("0"..."9").contains(f) || ("a"..."z").contains(f) else { return false }
        return s.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || "-_.".unicodeScalars.contains($0) }
    }

    static func parseABI(_ s: String) -> (Int, Int)? {
        let parts = s.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let a = Int(parts[0]), let b = Int(parts[1]), a >= 0, b >= 0 else { return nil }
        return (a, b)
    }
}

/// Reads typed fields and builds errors that name the file and the field path.
struct FieldReader {
    let file: String

    func error(_ field: String, _ reason: String) -> PluginHostError {
        .invalidField(file: file, field: field.isEmpty ? "(document)" : field, reason: reason)
    }

    private func path(_ parent: String, _ key: String) -> String { parent.isEmpty ? key : "\(parent).\(key)" }

    func string(_ o: [String: JSONValue], _ key: String, _ parent: String = "") throws -> String {
        guard let v = o[key] else { throw error(path(parent, key), "is required") }
        guard let s = v.stringValue, !s.isEmpty else { throw error(path(parent, key), "expected a non-empty string, found \(v.kindDescription)") }
        return s
    }

    func optionalString(_ o: [String: JSONValue], _ key: String, _ parent: String = "") throws -> String? {
        guard let v = o[key], v != .null else { return nil }
        guard let s = v.stringValue else { throw error(path(parent, key), "expected a string, found \(v.kindDescription)") }
        return s
    }

    func optionalInt(_ o: [String: JSONValue], _ key: String, _ parent: String = "") throws -> Int? {
        guard let v = o[key], v != .null else { return nil }
        guard let n = v.intValue else { throw error(path(parent, key), "expected an integer, found \(JSONWriter.write(v, pretty: false))") }
        return n
    }

    func optionalBool(_ o: [String: JSONValue], _ key: String, _ parent: String = "") throws -> Bool? {
        guard let v = o[key], v != .null else { return nil }
        guard let b = v.boolValue else { throw error(path(parent, key), "expected true or false, found \(v.kindDescription)") }
        return b
    }
}

/// Reading JSON files with errors that name the file and the line.
public enum JSONFile {
    public static func read(_ file: String) throws -> JSONValue {
        let bytes: [UInt8]
        do { bytes = try FileIO.readAll(file) } catch let e as FileIO.Failure {
            throw PluginHostError.unreadable(file: file, reason: e.reason)
        }
        do { return try JSONParser.parse(bytes: bytes) } catch let e as JSONSyntaxError {
            throw PluginHostError.syntax(file: file, line: e.line, column: e.column, reason: e.reason)
        }
    }
}
