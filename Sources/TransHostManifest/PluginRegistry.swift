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
        let doc = try JSONDocument.read(file)
        let o = try doc.top.object(keys: ["format", "plugins"])
        guard o["format"]?.value.stringValue == format else { throw o.error("format", "expected \"\(format)\"") }
        var names = Set<String>()
        let plugins = try o.required("plugins").array().map { v -> Entry in
            let e = try v.object(keys: ["name", "path", "language", "description", "seeds"])
            let nameField = try e.required("name")
            let name = try nameField.string()
            guard PluginManifest.isValidName(name) else {
                throw nameField.error("\"\(name)\" is not a valid plugin name: use 1-64 characters from a-z, 0-9, '-', '_' and '.', starting with a letter or digit")
            }
            guard names.insert(name).inserted else { throw nameField.error("duplicate plugin name \"\(name)\"") }
            let seeds = try (e["seeds"]?.array() ?? []).map { try $0.string() }
            return Entry(name: name, path: try e.required("path").string(), language: try e["language"]?.text() ?? "c",
                         description: try e["description"]?.text(), seeds: seeds)
        }
        return PluginRegistry(file: file, plugins: plugins)
    }
}
