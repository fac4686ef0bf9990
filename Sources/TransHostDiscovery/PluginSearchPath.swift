import TransHostSupport
import TransHostManifest

/// Where plugins are looked for, in this order (the first plugin of a name wins; later ones
/// with the same name are reported as duplicates):
/// 1. each `--plugins DIR`, in the order given (must exist);
/// 2. each directory of `TRANSHOST_PLUGIN_PATH` (colon-separated; a missing one is a warning);
/// 3. the user directory `$XDG_DATA_HOME/transhost/plugins` (default `~/.local/share/transhost/plugins`);
/// 4. the system directory `/usr/local/lib/transhost/plugins`;
/// 5. for a binary at `PREFIX/bin/transhost` (scripts/install), `PREFIX/lib/transhost/plugins`;
/// 6. the directory beside the binary: `<dir of transhost>/plugins`.
/// Missing directories of 3-6 are skipped silently. A plugin is a subdirectory holding a
/// `manifest.json`; installing one means copying that directory into any of these.
public struct PluginSearchPath: Equatable, Sendable {
    public struct Entry: Equatable, Sendable {
        public let path: String
        /// Where this entry came from: "--plugins", "TRANSHOST_PLUGIN_PATH", "user", "system", "beside the binary".
        public let origin: String
        public let required: Bool
        public init(path: String, origin: String, required: Bool) { self.path = path; self.origin = origin; self.required = required }
    }

    public var entries: [Entry]

    public init(entries: [Entry]) { self.entries = entries }

    public static let systemDirectory = "/usr/local/lib/transhost/plugins"

    /// PREFIX/lib/transhost/plugins for a binary at PREFIX/bin/transhost, else nil.
    public static func prefixPluginDirectory(executablePath exe: String) -> String? {
        let bin = PathUtil.dirname(exe)
        guard PathUtil.basename(bin) == "bin" else { return nil }
        return PathUtil.join(PathUtil.dirname(bin), "lib/transhost/plugins")
    }

    public static func standard(explicit: [String], environment: [String: String], executablePath: String?) -> PluginSearchPath {
        var e: [Entry] = explicit.map { Entry(path: PathUtil.absolute($0), origin: "--plugins", required: true) }
        if let env = environment["TRANSHOST_PLUGIN_PATH"] {
            for p in env.split(separator: ":") where !p.isEmpty {
                e.append(Entry(path: PathUtil.absolute(String(p)), origin: "TRANSHOST_PLUGIN_PATH", required: false))
            }
        }
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            e.append(Entry(path: "\(xdg)/transhost/plugins", origin: "user", required: false))
        } else if let home = environment["HOME"], !home.isEmpty {
            e.append(Entry(path: "\(home)/.local/share/transhost/plugins", origin: "user", required: false))
        }
        e.append(Entry(path: systemDirectory, origin: "system", required: false))
        if let exe = executablePath {
            // An installed binary (scripts/install PREFIX: PREFIX/bin/transhost) finds the plugins
            // installed with it in PREFIX/lib/transhost/plugins, whatever PREFIX is.
            if let prefixDir = prefixPluginDirectory(executablePath: exe), prefixDir != systemDirectory {
                e.append(Entry(path: prefixDir, origin: "installation prefix", required: false))
            }
            e.append(Entry(path: PathUtil.join(PathUtil.dirname(exe), "plugins"), origin: "beside the binary", required: false))
        }
        // The same directory twice (e.g. --plugins pointing at the default) is scanned once.
        var seen = Set<String>()
        e = e.filter { seen.insert($0.path).inserted }
        return PluginSearchPath(entries: e)
    }
}
