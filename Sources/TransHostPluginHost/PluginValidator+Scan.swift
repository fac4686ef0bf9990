import TransHostDiscovery

extension PluginValidator {
    /// Loads every plugin the scan found usable but that has not been loaded since it last
    /// changed, each in its own validation child process, and records the verdict in the records
    /// and the scan cache. Without this a plugin whose `init` fails or whose `get_animator`
    /// returns NULL would look usable until a run tried it. The calling process never runs plugin
    /// code; an unchanged plugin costs nothing (the cache remembers the verdict).
    public static func validatePending(_ scan: inout PluginScan, timeout: Double = defaultTimeout) -> [String] {
        var warnings: [String] = []
        for i in scan.records.indices {
            let r = scan.records[i]
            guard r.status == .ok, r.validation == nil, let m = r.manifest, let path = r.manifestPath else { continue }
            let v = validate(m, timeout: timeout)
            scan.records[i].validation = v
            if case .failed(let reason) = v { scan.records[i].status = .failed(reason) }
            scan.cache?.setValidation(v, for: path)
        }
        if let cache = scan.cache {
            do { try cache.save() } catch {
                warnings.append("the scan cache could not be written (\(error)); plugins will be loaded again next time (set TRANSHOST_CACHE to a writable file, or to an empty value to turn the cache off)")
            }
        }
        return warnings
    }
}
