import TransHostSupport
import TransHostManifest

/// What a scan of the search path found.
public struct PluginScan: Sendable {
    /// Registry plugins first (in registry order), then third-party plugins by name, then
    /// duplicates and unreadable entries.
    public var records: [PluginRecord]
    /// Problems with the search path itself (a missing TRANSHOST_PLUGIN_PATH entry, ...).
    public var warnings: [String]

    /// The cache the scan used and updated, if any (run records validation results in it).
    public var cache: ScanCache? = nil

    public init(records: [PluginRecord], warnings: [String], cache: ScanCache? = nil) {
        self.records = records; self.warnings = warnings; self.cache = cache
    }

    /// Manifest paths in the order the search path found them (route declaration order).
    public var searchOrder: [String] = []

    /// Usable plugins (status ok), by name.
    public var usable: [PluginRecord] { records.filter { $0.status == .ok } }
    /// Plugins whose routes `run` uses, in search-path order (the router's tie-break order):
    /// usable ones and those that failed only when loaded.
    public var routable: [PluginRecord] {
        let rank = Dictionary(searchOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        return records.filter { $0.isRoutable && !$0.isDuplicate }
            .sorted { (rank[$0.manifestPath ?? ""] ?? Int.max) < (rank[$1.manifestPath ?? ""] ?? Int.max) }
    }
    /// Usable plugins in search-path order.
    public var usableInSearchOrder: [PluginRecord] { routable.filter { $0.status == .ok } }
}

extension PluginRecord {
    var isDuplicate: Bool { if case .duplicate = status { return true }; return false }
}

/// Scans plugin directories. It reads manifests and inspects libraries as files; it never
/// loads or runs plugin code.
public enum PluginScanner {
    /// With a cache, an unchanged plugin (same manifest and library stamps) is taken from it
    /// instead of inspected again; new results are stored and the cache file is rewritten.
    public static func scan(_ searchPath: PluginSearchPath, registry: PluginRegistry?, cache: ScanCache? = nil) throws -> PluginScan {
        var warnings: [String] = []
        if let p = cache?.loadProblem { warnings.append(p) }
        var seenManifests = Set<String>()
        var found: [PluginRecord] = []
        var firstByName: [String: Int] = [:]
        for entry in searchPath.entries {
            guard FileIO.isDirectory(entry.path) else {
                if entry.required { throw PluginHostError.missingPluginDirectory(path: entry.path, origin: entry.origin) }
                if entry.origin == "TRANSHOST_PLUGIN_PATH" {
                    warnings.append("plugins directory \(entry.path) from TRANSHOST_PLUGIN_PATH does not exist; it was skipped")
                }
                continue
            }
            let names: [String]
            do { names = try FileIO.list(entry.path) } catch {
                warnings.append("plugins directory \(entry.path) (from \(entry.origin)) cannot be listed (\(error)); it was skipped")
                continue
            }
            if names.contains("manifest.json") {
                warnings.append("\(entry.path) (from \(entry.origin)) is a plugin's own folder (it holds manifest.json), not a directory of plugins, so it was skipped; give the directory that contains it, \(PathUtil.dirname(PathUtil.absolute(entry.path)))")
                continue
            }
            for sub in names {
                let dir = PathUtil.join(entry.path, sub)
                let manifestPath = PathUtil.join(dir, "manifest.json")
                // Plain files beside the plugins (a README, an archive) are not plugins.
                guard FileIO.isDirectory(dir) else { continue }
                guard FileIO.exists(manifestPath) else {
                    if let target = FileIO.symlinkTarget(manifestPath) {
                        warnings.append("skipped \(dir): its manifest.json is a symlink to \(target), which does not exist")
                    } else {
                        warnings.append("skipped \(dir): it has no manifest.json (a plugin directory holds manifest.json and the library it names)")
                    }
                    continue
                }
                seenManifests.insert(manifestPath)
                var rec = inspect(manifestPath: manifestPath, fallbackName: sub, cache: cache)
                rec.location = "\(entry.origin) \(entry.path)"
                if let first = firstByName[rec.name] {
                    let winner = found[first]
                    rec.status = .duplicate("another plugin named \(rec.name) at \(winner.manifestPath ?? "?") comes first on the search path and is used; remove or rename one of them")
                } else {
                    firstByName[rec.name] = found.count
                }
                found.append(rec)
            }
        }
        let registryNames = Set(registry?.plugins.map(\.name) ?? [])
        for i in found.indices { found[i].source = registryNames.contains(found[i].name) ? "first-party" : "third-party" }
        var records: [PluginRecord] = []
        for entry in registry?.plugins ?? [] {
            if let i = firstByName[entry.name] {
                records.append(found[i])
            } else {
                records.append(PluginRecord(name: entry.name, version: nil, abi: nil, language: entry.language,
                                            description: entry.description, source: "first-party", location: nil,
                                            manifestPath: nil, libraryPath: nil, manifest: nil,
                                            status: .missing("listed in \(registry!.file) but not installed in any plugins directory; build and stage it with scripts/setup")))
            }
        }
        let thirdParty = firstByName.filter { !registryNames.contains($0.key) }.map { found[$0.value] }.sorted { $0.name < $1.name }
        records.append(contentsOf: thirdParty)
        records.append(contentsOf: found.filter { if case .duplicate = $0.status { return true }; return false })
        if let cache {
            cache.prune(keeping: seenManifests)
            do { try cache.save() } catch {
                warnings.append("the scan cache could not be written (\(error)); set TRANSHOST_CACHE to a writable file, or to an empty value to turn the cache off")
            }
        }
        var result = PluginScan(records: records, warnings: warnings, cache: cache)
        result.searchOrder = found.compactMap(\.manifestPath)
        return result
    }

    /// `inspect` through the cache: an entry whose manifest and library stamps still match is
    /// used as is (the manifest is re-read for its routes; the library is not inspected again).
    public static func inspect(manifestPath: String, fallbackName: String, cache: ScanCache?) -> PluginRecord {
        guard let cache, let stamp = ScanCache.stamp(manifestPath) else {
            return inspect(manifestPath: manifestPath, fallbackName: fallbackName)
        }
        if let e = cache.lookup(manifestPath: manifestPath, manifestStamp: stamp) {
            var rec = PluginRecord(name: e.name, source: "third-party", manifestPath: manifestPath, status: .ok)
            if let m = try? PluginManifest.load(file: manifestPath) {
                rec.name = m.name; rec.version = m.version; rec.abi = m.abi; rec.language = m.language
                rec.description = m.description; rec.libraryPath = m.libraryPath; rec.manifest = m
            } else if e.failure == nil {
                // Unreadable now although the stamp matched: inspect afresh.
                return inspectAndStore(manifestPath: manifestPath, fallbackName: fallbackName, stamp: stamp, in: cache)
            }
            rec.validation = e.validation
            rec.crash = e.crash
            if let f = e.failure { rec.status = .failed(f) }
            else if case .failed(let r)? = e.validation { rec.status = .failed(r) }
            return rec
        }
        return inspectAndStore(manifestPath: manifestPath, fallbackName: fallbackName, stamp: stamp, in: cache)
    }

    private static func inspectAndStore(manifestPath: String, fallbackName: String, stamp: String, in cache: ScanCache) -> PluginRecord {
        // Both files are stamped before they are read, so a change during the scan makes the
        // entry miss next time instead of caching a stale verdict.
        let libraryStamp = (try? PluginManifest.load(file: manifestPath)).flatMap { ScanCache.stamp($0.libraryPath) }
        let rec = inspect(manifestPath: manifestPath, fallbackName: fallbackName)
        cache.store(ScanCache.Entry(name: rec.name, manifestStamp: stamp, libraryPath: rec.manifest?.libraryPath, libraryStamp: libraryStamp,
                                    failure: rec.status.reason, validation: nil), for: manifestPath)
        return rec
    }

    /// Reads one plugin's manifest and inspects its library file.
    public static func inspect(manifestPath: String, fallbackName: String) -> PluginRecord {
        var rec = PluginRecord(name: fallbackName, source: "third-party", manifestPath: manifestPath, status: .ok)
        let manifest: PluginManifest
        do { manifest = try PluginManifest.load(file: manifestPath) } catch {
            rec.status = .failed("\(error)")
            return rec
        }
        rec.name = manifest.name
        rec.version = manifest.version
        rec.abi = manifest.abi
        rec.language = manifest.language
        rec.description = manifest.description
        rec.libraryPath = manifest.libraryPath
        rec.manifest = manifest
        guard HostABI.isCompatible(major: manifest.abiMajor, minor: manifest.abiMinor) else {
            rec.status = .failed(PluginHostError.abiMismatch(plugin: manifest.name, library: manifest.libraryPath,
                                                             pluginABI: manifest.abi, hostABI: HostABI.text).description)
            return rec
        }
        guard FileIO.exists(manifest.libraryPath) else {
            rec.status = .failed("library \(manifest.libraryPath) named by \(manifestPath) does not exist; build the plugin or fix the manifest's \"library\"")
            return rec
        }
        if let problem = FileIO.regularFileProblem(manifest.libraryPath) {
            rec.status = .failed("library \(manifest.libraryPath) named by \(manifestPath) \(problem)")
            return rec
        }
        // The lexical check in the manifest reader cannot see symlinks: resolve both.
        if let real = FileIO.realPath(manifest.libraryPath), let dir = FileIO.realPath(manifest.directory),
           !real.hasPrefix(dir.hasSuffix("/") ? dir : dir + "/") {
            rec.status = .failed("library \(manifest.libraryPath) named by \(manifestPath) resolves to \(real), outside the plugin's directory \(dir); put the library itself in the plugin's directory")
            return rec
        }
        do {
            let elf = try ELFInspector.inspect(path: manifest.libraryPath)
            guard elf.hasEntrySymbol else {
                rec.status = .failed("library \(manifest.libraryPath) does not export the entry symbol transhost_plugin_entry; define it with TH_EXPORT const th_plugin_entry transhost_plugin_entry = {...}")
                return rec
            }
            if let maj = elf.abiMajor, let min = elf.abiMinor {
                let entryABI = "\(maj).\(min)"
                guard HostABI.isCompatible(major: Int(maj), minor: Int(min)) else {
                    rec.status = .failed(PluginHostError.abiMismatch(plugin: manifest.name, library: manifest.libraryPath,
                                                                     pluginABI: entryABI, hostABI: HostABI.text).description)
                    return rec
                }
                if Int(maj) != manifest.abiMajor || Int(min) != manifest.abiMinor {
                    rec.status = .failed("manifest \(manifestPath) declares ABI \(manifest.abi) but the library's entry was built for ABI \(entryABI); make them agree")
                    return rec
                }
            }
        } catch {
            rec.status = .failed("library \(manifest.libraryPath): \(error)")
        }
        return rec
    }
}
