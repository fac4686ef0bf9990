import TransHostSupport
import TransHostManifest

/// What `list` and `run` remember between runs, so that an unchanged
/// plugin is neither re-inspected nor re-validated.
///
/// One entry per plugin, keyed on the absolute path of its `manifest.json`. An entry is used only
/// while both the manifest and the library it names have the same size, mtime (ns), inode,
/// ctime (ns) and sampled content hash as when the entry was written, and the cache file was
/// written by a host of the same ABI; any
/// change makes the plugin new again (inspected afresh, validated again before `run` loads it).
/// A failed plugin is remembered with its reason under the same rule.
///
/// The file (`transhost-scan-cache/1`, JSON) is written to a temporary file and renamed, so a
/// crash never leaves half a cache; an unreadable or foreign cache is ignored and rewritten.
/// Location: `TRANSHOST_CACHE` (a file; empty disables the cache), else
/// `$XDG_CACHE_HOME/transhost/scan-cache.json`, else `~/.cache/transhost/scan-cache.json`.
public final class ScanCache: @unchecked Sendable {
    public static let format = "transhost-scan-cache/1"

    /// The result of loading a plugin in a validation child process (or in-process with --no-fork).
    public enum Validation: Equatable, Sendable {
        case passed
        case failed(String)
    }

    public struct Entry: Equatable, Sendable {
        public var name: String
        /// "size:mtime_ns:inode:ctime_ns:hash" of the manifest (see `stamp`).
        public var manifestStamp: String
        /// The library the manifest names, when the manifest could be read.
        public var libraryPath: String?
        /// nil when the library did not exist.
        public var libraryStamp: String?
        /// The scan's verdict: nil for ok, else the reason the plugin is not usable.
        public var failure: String?
        public var validation: Validation?
        /// How the plugin last failed while it animated in a playback worker ("crashed while
        /// animating (SIGSEGV in animate_transition)"); cleared when the library changes.
        public var crash: String? = nil
    }

    /// The cache file, or nil when caching is off.
    public let path: String?
    public private(set) var entries: [String: Entry] = [:]
    /// Set when something changed since the file was read.
    public private(set) var isDirty = false
    /// Why an existing cache file was ignored (unreadable, foreign format, other host ABI).
    public private(set) var loadProblem: String?

    /// The default location, or nil when `TRANSHOST_CACHE` is set to an empty string.
    public static func defaultPath(environment: [String: String]) -> String? {
        if let p = environment["TRANSHOST_CACHE"] { return p.isEmpty ? nil : PathUtil.absolute(p) }
        if let x = environment["XDG_CACHE_HOME"], !x.isEmpty { return PathUtil.join(x, "transhost/scan-cache.json") }
        if let h = environment["HOME"], !h.isEmpty { return PathUtil.join(h, ".cache/transhost/scan-cache.json") }
        return nil
    }

    /// Reads the cache at `path` (a missing file is an empty cache). `fresh` ignores what the file
    /// holds (`--rescan`) but still writes the new results there.
    public init(path: String?, fresh: Bool = false) {
        // A directory can never be replaced by the cache file: caching is off for this run,
        // with one warning instead of a failed write per plugin.
        if let path, FileIO.isDirectory(path) {
            self.path = nil
            loadProblem = "the scan cache \(path) is a directory, so nothing is cached this run; set TRANSHOST_CACHE to a file path, or to an empty value to turn the cache off"
            return
        }
        self.path = path
        guard let path, !fresh, FileIO.exists(path) else { return }
        do {
            let json = try JSONDocument.read(path, sizeLimit: 256 << 20).root
            guard json["format"]?.stringValue == Self.format else {
                loadProblem = "\(path) is not a \(Self.format) file; it will be rewritten"
                return
            }
            guard json["host_abi"]?.stringValue == HostABI.text else { return } // another host ABI: start over
            for (key, v) in json["plugins"]?.objectValue ?? [:] {
                if let e = Self.entry(v) { entries[key] = e }
            }
        } catch {
            loadProblem = "the scan cache \(path) could not be read (\(error)); it will be rewritten"
        }
    }

    /// The entry for this manifest if it is still valid: same manifest stamp, same library stamp.
    public func lookup(manifestPath: String, manifestStamp: String) -> Entry? {
        guard let e = entries[manifestPath], e.manifestStamp == manifestStamp else { return nil }
        if let lib = e.libraryPath, Self.stamp(lib) != e.libraryStamp { return nil }
        return e
    }

    public func store(_ entry: Entry, for manifestPath: String) {
        if entries[manifestPath] != entry { entries[manifestPath] = entry; isDirty = true }
    }

    /// Records a validation result for a plugin already in the cache.
    public func setValidation(_ v: Validation, for manifestPath: String) {
        guard var e = entries[manifestPath], e.validation != v else { return }
        e.validation = v
        entries[manifestPath] = e
        isDirty = true
    }

    /// Records how a plugin already in the cache failed at run time.
    public func setCrash(_ crash: String, for manifestPath: String) {
        guard var e = entries[manifestPath], e.crash != crash else { return }
        e.crash = crash
        entries[manifestPath] = e
        isDirty = true
    }

    /// Drops entries whose manifest no longer exists, except those in `keep`.
    public func prune(keeping keep: Set<String>) {
        for key in entries.keys where !keep.contains(key) && !FileIO.exists(key) {
            entries[key] = nil
            isDirty = true
        }
    }

    /// Writes the cache atomically if it changed.
    public func save() throws {
        guard let path, isDirty else { return }
        var plugins: [String: JSONValue] = [:]
        for (k, e) in entries { plugins[k] = Self.json(e) }
        let doc: JSONValue = .object(["format": .string(Self.format), "host_abi": .string(HostABI.text), "plugins": .object(plugins)])
        try FileIO.writeAtomically(path, JSONWriter.write(doc, pretty: false) + "\n")
        isDirty = false
    }

    /// What the cache keys a file on: "size:mtime_ns:inode:ctime_ns:hash" (hash: FileIO.sampleHash
    /// in hex), or nil when the file does not exist. ctime catches a rewrite in place that keeps
    /// size, mtime and inode; the hash catches a copied or hand-made entry whose stat facts
    /// happen to match. Text, because nanosecond times do not fit a JSON number exactly.
    public static func stamp(_ path: String) -> String? {
        guard let st = FileIO.stamp(path) else { return nil }
        let hash = FileIO.sampleHash(path).map { String($0, radix: 16) } ?? "-"
        return "\(st.size):\(st.mtimeNanoseconds):\(st.inode):\(st.ctimeNanoseconds):\(hash)"
    }

    /// A stored stamp; entries in an older shape (without ctime and hash) read as absent, so
    /// their plugins are inspected and validated again.
    static func stamp(_ v: JSONValue?) -> String? {
        guard let s = v?.stringValue, s.split(separator: ":").count == 5 else { return nil }
        return s
    }

    static func json(_ e: Entry) -> JSONValue {
        var o: [String: JSONValue] = [
            "name": .string(e.name),
            "manifest_stamp": .string(e.manifestStamp),
            "library": e.libraryPath.map(JSONValue.string) ?? .null,
            "library_stamp": e.libraryStamp.map(JSONValue.string) ?? .null,
            "status": .string(e.failure == nil ? "ok" : "failed"),
            "reason": e.failure.map(JSONValue.string) ?? .null,
        ]
        switch e.validation {
        case nil: o["validation"] = .null
        case .passed?: o["validation"] = ["passed": true]
        case .failed(let r)?: o["validation"] = ["passed": false, "reason": .string(r)]
        }
        if let c = e.crash { o["crash"] = .string(c) }
        return .object(o)
    }

    static func entry(_ v: JSONValue) -> Entry? {
        guard let name = v["name"]?.stringValue, let ms = stamp(v["manifest_stamp"]) else { return nil }
        let lib = v["library"]?.stringValue
        let ls = stamp(v["library_stamp"])
        let failure = v["status"]?.stringValue == "ok" ? nil : (v["reason"]?.stringValue ?? "failed (no reason recorded)")
        var validation: Validation?
        if let val = v["validation"], let passed = val["passed"]?.boolValue {
            validation = passed ? .passed : .failed(val["reason"]?.stringValue ?? "failed validation")
        }
        return Entry(name: name, manifestStamp: ms, libraryPath: lib, libraryStamp: ls, failure: failure, validation: validation,
                     crash: v["crash"]?.stringValue)
    }
}
