import TransHostDiscovery
import TransHostManifest

/// `--param PLUGIN.NAME=VALUE` overrides, parsed once into typed values and checked against the
/// manifests before anything runs; the configure call then passes these values as they are.
public struct ParameterOverrides: Equatable, Sendable {
    /// Values by plugin, then parameter name (the last `--param` for a name wins).
    public private(set) var values: [String: [String: ParameterValue]] = [:]

    public init() {}

    public var isEmpty: Bool { values.isEmpty }

    /// The overrides for one plugin's parameters.
    public func values(for plugin: String) -> [String: ParameterValue] { values[plugin] ?? [:] }

    /// The values as the trace and the summary show them, in their shortest form.
    public var texts: [String: [String: String]] { values.mapValues { $0.mapValues(\.shortText) } }

    /// Parses and checks each override: the plugin must be installed and usable, with a manifest
    /// that declares `configure`, the parameter must be one of its parameters, and the value must
    /// have the parameter's type and lie in its range. Errors are sentences naming plugin,
    /// parameter and value.
    public static func parse(_ items: [String], scan: PluginScan) throws -> ParameterOverrides {
        var out = ParameterOverrides()
        for item in items {
            guard let eq = item.firstIndex(of: "="), let dot = item[..<eq].lastIndex(of: ".") else {
                throw ParameterError(parameter: nil, reason: "--param \(item.debugDescription) is not of the form PLUGIN.NAME=VALUE (e.g. fade-scale.duration=0.5)")
            }
            let plugin = String(item[..<dot]), name = String(item[item.index(after: dot)..<eq]), value = String(item[item.index(after: eq)...])
            guard let record = scan.records.first(where: { $0.name == plugin && $0.manifest != nil }), let m = record.manifest else {
                throw ParameterError(parameter: nil, plugin: plugin, reason: "--param \(item.debugDescription): no plugin named \(plugin) is installed; run `transhost list` to see what is")
            }
            if case .failed(let reason) = record.status {
                throw ParameterError(parameter: nil, plugin: plugin, reason: "--param \(item.debugDescription): plugin \(plugin) cannot be loaded, so it cannot be configured: \(reason)")
            }
            guard let c = m.configure, !c.parameters.isEmpty else {
                throw ParameterError(parameter: nil, plugin: plugin, reason: "--param \(item.debugDescription): plugin \(plugin) declares no parameters (its manifest \(m.file) has no \"configure\")")
            }
            guard let spec = c.parameter(named: name) else {
                throw ParameterError(parameter: name, plugin: plugin,
                                     reason: "no such parameter (the parameters of \(plugin) are \(c.parameters.map(\.name).joined(separator: ", ")); see `transhost inspect \(plugin)`)")
            }
            do { out.values[plugin, default: [:]][name] = try spec.parse(value) } catch let e as ParameterError { throw e.inPlugin(plugin) }
        }
        return out
    }
}
