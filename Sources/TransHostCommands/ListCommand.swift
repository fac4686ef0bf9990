import TransHostPluginHost
import TransHostSupport

enum ListCommand {
    static let help = """
    usage: transhost list [--json] [--failed] [--plugins DIR]... [--registry FILE]

    Shows every plugin of the registry and every plugin found on the search path, with its
    version, ABI, source (first-party or third-party), location, routes and status. A failed
    plugin shows the reason. Reads manifests and inspects libraries as files: no plugin code runs.

      --json     print the same as JSON on stdout
      --failed   show only plugins that are not usable

    Search path, first match wins: --plugins DIRs, TRANSHOST_PLUGIN_PATH (colon-separated),
    $XDG_DATA_HOME/transhost/plugins (~/.local/share/transhost/plugins), \(PluginSearchPath.systemDirectory),
    and the plugins directory beside the transhost binary.
    """

    static func run(_ argv: [String], environment: [String: String], console: Console) throws -> ExitCode {
        let args = try Arguments(argv, valued: PluginOptions.valued, flags: ["--json", "--failed", "-q", "--quiet"])
        if let extra = args.positionals.first { throw UsageError(message: "unexpected argument \"\(extra)\"") }
        let options = try PluginOptions(args, environment: environment)
        let scan = try options.scan()
        var records = scan.records
        if args.flag("--failed") { records = records.filter { $0.status != .ok } }
        for w in scan.warnings { console.err("warning: \(w)") }
        if args.flag("--json") {
            console.out(JSONWriter.write(json(records, scan: scan, options: options)))
            return .ok
        }
        if records.isEmpty { console.out(args.flag("--failed") ? "no failed plugins" : "no plugins found") }
        if !records.isEmpty { console.out(records.map(text).joined(separator: "\n\n") + "\n") }
        let failed = scan.records.filter { $0.status != .ok }.count
        console.out("\(scan.records.count) plugin\(scan.records.count == 1 ? "" : "s"): \(scan.records.count - failed) ok, \(failed) not usable (host ABI \(HostABI.text))")
        return .ok
    }

    static func routeLines(_ m: PluginManifest) -> [String] {
        m.animators.flatMap { a in
            a.routes.map { r in
                var s = "\(r.container) \(r.operations.isEmpty ? "*" : r.operations.map(\.rawValue).joined(separator: ",")) \(r.from) -> \(r.to) => \(a.id)"
                if r.priority != 0 { s += " (priority \(r.priority))" }
                if !r.reverse { s += " (no reverse)" }
                return s
            }
        }
    }

    static func text(_ r: PluginRecord) -> String {
        var lines = ["\(r.name) \(r.version ?? "?")  ABI \(r.abi ?? "?")  \(r.source)  \(r.status.word)"]
        if let l = r.location { lines.append("  found in: \(l)") }
        if let m = r.manifestPath { lines.append("  manifest: \(m)") }
        if let m = r.manifest {
            let routes = routeLines(m)
            lines.append(contentsOf: routes.isEmpty ? ["  routes: none"] : routes.map { "  route: \($0)" })
        }
        if let reason = r.status.reason { lines.append("  reason: \(reason)") }
        return lines.joined(separator: "\n")
    }

    static func json(_ records: [PluginRecord], scan: PluginScan, options: PluginOptions) -> JSONValue {
        .object([
            "host_abi": .string(HostABI.text),
            "registry": options.registry.map { .string($0.file) } ?? .null,
            "search_path": .array(options.searchPath.entries.map { ["path": .string($0.path), "origin": .string($0.origin)] }),
            "warnings": .array(scan.warnings.map(JSONValue.string)),
            "plugins": .array(records.map(recordJSON)),
        ])
    }

    static func recordJSON(_ r: PluginRecord) -> JSONValue {
        var o: [String: JSONValue] = [
            "name": .string(r.name),
            "version": r.version.map(JSONValue.string) ?? .null,
            "abi": r.abi.map(JSONValue.string) ?? .null,
            "language": r.language.map(JSONValue.string) ?? .null,
            "source": .string(r.source),
            "location": r.location.map(JSONValue.string) ?? .null,
            "manifest": r.manifestPath.map(JSONValue.string) ?? .null,
            "library": r.libraryPath.map(JSONValue.string) ?? .null,
            "status": .string(r.status.word),
            "reason": r.status.reason.map(JSONValue.string) ?? .null,
        ]
        o["routes"] = .array((r.manifest?.animators ?? []).flatMap { a in
            a.routes.map { rt in
                .object(["animator": .string(a.id), "container": .string(rt.container),
                         "operations": .array(rt.operations.map { .string($0.rawValue) }),
                         "from": .string(rt.from), "to": .string(rt.to), "priority": .number(Double(rt.priority)),
                         "reverse": .bool(rt.reverse)])
            }
        })
        return .object(o)
    }
}
