import CTransHost
import TransHostSupport

/// The host's ABI version (from transhost.h).
public enum HostABI {
    public static let major = Int(TH_ABI_MAJOR)
    public static let minor = Int(TH_ABI_MINOR)
    public static var text: String { "\(major).\(minor)" }

    /// DESIGN.md section 4: major must be equal, plugin minor <= host minor.
    public static func isCompatible(major m: Int, minor n: Int) -> Bool { m == major && n <= minor }
}

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
}
