import TransHostSupport

/// `registry.json`: the catalogue of first-party plugins (schema: docs/manifest.md). `list`
/// shows each registry plugin, found or not, beside the plugins discovered on the search path.
public struct PluginRegistry: Equatable, Sendable {
    public static let format = "transhost-registry/1"

    public struct Entry: Equatable, Sendable {
        public var name: String
        /// The plugin's source directory, relative to the registry file.
        public var path: String
        public var language: String
        public var description: String?
        public var seeds: [String]
    }

    public var file: String
    public var plugins: [Entry]

    public static func load(file: String) throws -> PluginRegistry {
        let json = try JSONFile.read(file)
        let r = FieldReader(file: file)
        guard let o = json.objectValue else { throw r.error("", "the registry must be a JSON object") }
        guard o["format"]?.stringValue == format else { throw r.error("format", "expected \"\(format)\"") }
        guard let arr = o["plugins"]?.arrayValue else { throw r.error("plugins", "an array of plugins is required") }
        var names = Set<String>()
        let plugins = try arr.enumerated().map { (i, v) -> Entry in
            let p = "plugins[\(i)]"
            guard let e = v.objectValue else { throw r.error(p, "expected an object, found \(v.kindDescription)") }
            let name = try r.string(e, "name", p)
            guard names.insert(name).inserted else { throw r.error("\(p).name", "duplicate plugin name \"\(name)\"") }
            let seeds = (e["seeds"]?.arrayValue ?? []).compactMap(\.stringValue)
            return Entry(name: name, path: try r.string(e, "path", p), language: try r.optionalString(e, "language", p) ?? "c",
                         description: try r.optionalString(e, "description", p), seeds: seeds)
        }
        return PluginRegistry(file: file, plugins: plugins)
    }
}
