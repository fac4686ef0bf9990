import TransHostSupport
import TransHostManifest

/// Where a plugin's status stands, as `list` reports it.
public enum PluginStatus: Equatable, Sendable {
    /// Manifest valid; the library is an ELF shared object exporting a compatible entry.
    case ok
    /// Something is wrong; the reason says what and what to do.
    case failed(String)
    /// Another plugin of the same name earlier on the search path wins.
    case duplicate(String)
    /// Listed in the registry but not installed in any plugin directory.
    case missing(String)

    public var word: String {
        switch self {
        case .ok: return "ok"
        case .failed: return "failed"
        case .duplicate: return "duplicate"
        case .missing: return "missing"
        }
    }

    public var reason: String? {
        switch self {
        case .ok: return nil
        case .failed(let r), .duplicate(let r), .missing(let r): return r
        }
    }
}

/// One plugin as `list` shows it.
public struct PluginRecord: Equatable, Sendable {
    public var name: String
    public var version: String?
    public var abi: String?
    public var language: String?
    public var description: String?
    /// "first-party" (in the registry) or "third-party".
    public var source: String
    /// The search-path entry it was found in ("--plugins /x", "beside the binary /y", ...).
    public var location: String?
    public var manifestPath: String?
    public var libraryPath: String?
    public var manifest: PluginManifest?
    public var status: PluginStatus
    /// The result of loading the plugin (validation child process, or in-process with --no-fork)
    /// as remembered in the scan cache; nil when it has not been loaded since it last changed.
    public var validation: ScanCache.Validation? = nil
    /// How it last failed while animating in a playback worker (from the scan cache), if it did
    /// since its library last changed.
    public var crash: String? = nil

    public init(name: String, version: String? = nil, abi: String? = nil, language: String? = nil, description: String? = nil,
                source: String, location: String? = nil, manifestPath: String? = nil, libraryPath: String? = nil,
                manifest: PluginManifest? = nil, status: PluginStatus, validation: ScanCache.Validation? = nil) {
        self.name = name; self.version = version; self.abi = abi; self.language = language; self.description = description
        self.source = source; self.location = location; self.manifestPath = manifestPath; self.libraryPath = libraryPath
        self.manifest = manifest; self.status = status; self.validation = validation
    }

    /// True once the plugin has been loaded successfully (and it has not changed since).
    public var isValidated: Bool { validation == .passed }

    /// Whether `run` routes by its manifest: every plugin whose manifest could be read, usable or
    /// not, so that a transition a broken plugin's route wins reports why it failed instead of
    /// quietly getting the default transition.
    public var isRoutable: Bool {
        guard manifest != nil else { return false }
        switch status {
        case .ok, .failed: return true
        case .duplicate, .missing: return false
        }
    }

    /// "ok (validated)", "ok", "failed", ...: the status as `list` prints it.
    public var statusText: String { status == .ok && isValidated ? "ok (validated)" : status.word }
}
