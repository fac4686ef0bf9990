import TransHostPluginHost
import TransHostSupport
import TransHostDiscovery
import TransHostManifest
import TransHostRouting

enum ListCommand {
    static let help = """
    usage: transhost list [--json] [--failed] [--rescan] [--no-fork] [--plugins DIR]... [--registry FILE]

    Shows every plugin of the registry and every plugin found on the search path, with its
    version, ABI, source (first-party or third-party), location, routes and status. A failed
    plugin shows the reason. Reads manifests and inspects libraries as files; a plugin that is new
    or changed since it was last loaded is then loaded once in a validation child process (never
    in list's own process), so one whose init fails, whose get_animator returns NULL or that
    crashes or hangs while loading shows as failed with the reason. "ok (validated)" means it
    loaded; the verdict is remembered in the scan cache until the plugin changes. One that crashed,
    hung or exited while it animated shows "last run: crashed while animating (SIGSEGV in
    animate_transition)" (JSON: "crash") until its library changes.

      --json     print the same as JSON on stdout (status: ok, failed, duplicate or missing;
                 validated: true once the plugin has been loaded successfully)
      --failed   show only plugins that are not usable; exits 3 when there is one, 0 when none
      --rescan   ignore the scan cache and inspect every plugin afresh
      --no-fork  do not load new or changed plugins in a validation child: only the files are
                 checked, so such a plugin shows "ok" (not "ok (validated)") until it is loaded

    Scan cache: results are kept in TRANSHOST_CACHE, else $XDG_CACHE_HOME/transhost/scan-cache.json
    (~/.cache/transhost/scan-cache.json), and reused while the manifest and library keep their
    size, mtime, inode, ctime and content hash. TRANSHOST_CACHE= (empty) turns the cache off.

    Search path, first match wins: --plugins DIRs, TRANSHOST_PLUGIN_PATH (colon-separated),
    $XDG_DATA_HOME/transhost/plugins (~/.local/share/transhost/plugins), \(PluginSearchPath.systemDirectory),
    and the plugins directory beside the transhost binary.
    """

    static func run(_ argv: [String], environment: [String: String], console: Console) throws -> ExitCode {
        let args = try Arguments(argv, valued: PluginOptions.valued, flags: PluginOptions.flags.union(["--json", "--failed", "-q", "--quiet"]))
        if let extra = args.positionals.first { throw UsageError(message: "unexpected argument \"\(extra)\"") }
        let options = try PluginOptions(args, environment: environment)
        var scan = try options.scan()
        // A plugin new or changed since it was last loaded is loaded once in a validation child
        // process, so one whose init fails or whose get_animator returns NULL is not shown as ok.
        if options.fork { scan.warnings += PluginValidator.validatePending(&scan, timeout: options.timeout) }
        var records = scan.records
        if args.flag("--failed") { records = records.filter { $0.status != .ok } }
        for w in scan.warnings { console.err("warning: \(w)") }
        // With --failed the exit code answers "is anything broken?", for scripts and CI.
        let verdict: ExitCode = args.flag("--failed") && !records.isEmpty ? .pluginFailed : .ok
        if args.flag("--json") {
            console.out(JSONWriter.write(json(records, scan: scan, options: options)))
            return verdict
        }
        if records.isEmpty { console.out(args.flag("--failed") ? "no failed plugins" : "no plugins found") }
        if !records.isEmpty { console.out(records.map(text).joined(separator: "\n\n") + "\n") }
        let failed = scan.records.filter { $0.status != .ok }.count
        console.out("\(scan.records.count) plugin\(scan.records.count == 1 ? "" : "s"): \(scan.records.count - failed) ok, \(failed) not usable (host ABI \(HostABI.text))")
        return verdict
    }

    static func routeLines(_ m: PluginManifest) -> [String] {
        (m.animators.map { ($0, "") } + m.delegates.map { ($0, "delegate ") }).flatMap { a, kind in
            a.routes.map { r in
                var s = "\(r.container.manifestName) \(r.operations.isEmpty ? "*" : r.operations.map(\.rawValue).joined(separator: ",")) \(r.from) -> \(r.to) => \(kind)\(a.id)"
                if r.priority != 0 { s += " (priority \(r.priority))" }
                if !r.reverse { s += " (no reverse)" }
                return s
            }
        }
    }

    static func text(_ r: PluginRecord) -> String {
        var lines = ["\(r.name) \(r.version ?? "?")  ABI \(r.abi ?? "?")  \(r.source)  \(r.statusText)"]
        if let l = r.location { lines.append("  found in: \(l)") }
        if let m = r.manifestPath { lines.append("  manifest: \(m)") }
        if let m = r.manifest {
            let routes = routeLines(m)
            lines.append(contentsOf: routes.isEmpty ? ["  routes: none"] : routes.map { "  route: \($0)" })
        }
        if let reason = r.status.reason { lines.append("  reason: \(reason)") }
        if let crash = r.crash { lines.append("  last run: \(crash) (remembered until its library changes)") }
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
            "validated": .bool(r.isValidated),
            "reason": r.status.reason.map(JSONValue.string) ?? .null,
        ]
        if let crash = r.crash { o["crash"] = .string(crash) }
        // A delegate's routes carry "delegate" where an animator's carry "animator" (added field).
        let entries = (r.manifest?.animators ?? []).map { ($0, "animator") } + (r.manifest?.delegates ?? []).map { ($0, "delegate") }
        o["routes"] = .array(entries.flatMap { a, key in
            a.routes.map { rt in
                .object([key: .string(a.id), "container": .string(rt.container.manifestName),
                         "operations": .array(rt.operations.map { .string($0.rawValue) }),
                         "from": .string(rt.from), "to": .string(rt.to), "priority": .number(Double(rt.priority)),
                         "reverse": .bool(rt.reverse), "interaction": rt.interaction.map(JSONValue.string) ?? .null])
            }
        })
        o["interactions"] = .array((r.manifest?.interactions ?? []).map { i in
            .object(["id": .string(i.id), "kind": .string(i.kind), "axis": .string(i.axis), "finishThreshold": .number(i.finishThreshold)])
        })
        if let c = r.manifest?.configure {
            o["configure"] = .object(["symbol": .string(c.symbol), "parameters": .array(c.parameters.map(parameterJSON))])
        }
        return .object(o)
    }

    static func parameterJSON(_ p: ParameterSpec) -> JSONValue {
        func value(_ v: ParameterValue?) -> JSONValue {
            switch v {
            case nil: return .null
            case .int(let i)?: return .number(Double(i))
            case .uint(let u)?: return .number(Double(u))
            case .float(let f)?: return .number(Double(f))
            case .double(let d)?: return .number(d)
            case .bool(let b)?: return .bool(b)
            case .string(let s)?: return .string(s)
            case .handle(let h)?: return .number(Double(h))
            }
        }
        return .object(["name": .string(p.name), "type": .string(p.type.rawValue), "default": value(p.defaultValue),
                        "min": p.min.map(JSONValue.number) ?? .null, "max": p.max.map(JSONValue.number) ?? .null,
                        "doc": p.doc.map(JSONValue.string) ?? .null])
    }

    /// "duration: double = 0.25, range [0.05, 2] — seconds the transition takes".
    static func parameterLine(_ p: ParameterSpec) -> String {
        var s = "\(p.name): \(p.type.rawValue)"
        if let d = p.defaultValue { s += " = \((try? p.validate(d)) ?? d)" } else { s += " (no default: --param required)" }
        switch (p.min, p.max) {
        case let (lo?, hi?): s += ", range [\(JSONWriter.format(lo)), \(JSONWriter.format(hi))]"
        case let (lo?, nil): s += ", minimum \(JSONWriter.format(lo))"
        case let (nil, hi?): s += ", maximum \(JSONWriter.format(hi))"
        default: break
        }
        if let doc = p.doc { s += " — \(doc)" }
        return s
    }
}
