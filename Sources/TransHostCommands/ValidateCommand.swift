import TransHostDiscovery
import TransHostManifest
import TransHostSupport
import TransHostValidation

enum ValidateCommand {
    static let help = """
    usage: transhost validate [PLUGIN|DIR|MANIFEST]... [--test-filter REGEX] [--only-failed] [--json]
                              [--in-process] [--timeout SECONDS] [--plugins DIR]... [--registry FILE]
           transhost validate --list-tests [--json]

    Checks plugins against the transition contract: their manifest and library, then every route
    and operation in generated scenarios (completion, hierarchy, leftovers, late calls, reverse
    operations, interactive cancels at 0, 0.25, 0.5, 0.75 and 1, re-entrancy, three device
    sizes, determinism, parameters, memory over 200 transitions). Each test runs in its own
    child process, so a crash or a hang fails that test and the others still run. The scenarios
    come from the animators' and delegates' routes (a `*` type becomes a made-up controller
    type; a demo.json beside the manifest lends its controllers' views and presentation styles).

    A PLUGIN is a name on the search path; a DIR is a plugin's directory (it holds
    manifest.json) or a directory of plugins; a MANIFEST is a manifest.json. With none, every
    plugin on the search path is validated.

      --list-tests         print every test's name and a one-line description
      --test-filter REGEX  run only the tests whose name matches REGEX (e.g. 'interactive|reverse')
      --only-failed        show only the tests that failed
      --json               print the results as JSON on stdout (and nothing else there)
      --in-process         run the tests in this process, one after the other (to debug a plugin
                           under gdb; a crash then ends transhost); parameters-range is skipped
      --timeout SECONDS    how long one test may take before its process is killed (default 120)

    exit codes: 0 every test passed (or was skipped), 1 at least one test failed, 2 usage,
                5 a named plugin, directory or manifest was not found
    """

    static func run(_ argv: [String], environment: [String: String], console: Console) throws -> ExitCode {
        let args = try Arguments(argv, valued: PluginOptions.valued.union(["--test-filter", "--timeout"]),
                                 flags: PluginOptions.flags.union(["--json", "--list-tests", "--only-failed", "--in-process"]))
        var tests = ValidationTest.all
        if let pattern = args.value("--test-filter") {
            let regex: Regex<AnyRegexOutput>
            do { regex = try Regex(pattern) } catch { throw UsageError(message: "--test-filter \(pattern.debugDescription) is not a regular expression (\(error))") }
            tests = tests.filter { $0.name.contains(regex) }
            guard !tests.isEmpty else {
                throw UsageError(message: "--test-filter \(pattern.debugDescription) matches no test; `transhost validate --list-tests` shows them")
            }
        }
        if args.flag("--list-tests") { return listTests(tests, json: args.flag("--json"), console: console) }
        var timeout = ValidationRunner.defaultTimeout
        if let t = args.value("--timeout") {
            guard let d = Double(t), d.isFinite, d > 0, d <= 86400 else { throw UsageError(message: "--timeout must be a number of seconds in (0, 86400], got \"\(t)\"") }
            timeout = d
        }
        let options = try PluginOptions(args, environment: environment)
        let targets: [Target]
        do { targets = try resolve(args.positionals, options: options) } catch let e as NotFound {
            console.err("transhost validate: \(e.message)")
            return .inputError
        }
        if targets.isEmpty { console.err("transhost validate: no plugins found on the search path; name one, or pass --plugins DIR"); return .inputError }

        let json = args.flag("--json"), onlyFailed = args.flag("--only-failed"), quiet = args.flag("-q") || args.flag("--quiet")
        var all: [(Target, [ValidationResult])] = []
        for t in targets {
            if !json && !quiet { console.out("\(t.name) (\(t.manifestPath))") }
            var results: [ValidationResult] = []
            for test in tests {
                let r: ValidationResult
                if let m = t.manifest {
                    r = ValidationRunner.run(test, manifest: m, inProcess: args.flag("--in-process"), timeout: timeout)
                } else if test.name == "manifest-schema" {
                    r = ValidationResult(plugin: t.name, manifest: t.manifestPath, test: test.name, status: .failed, reason: t.problem)
                } else {
                    r = ValidationResult(plugin: t.name, manifest: t.manifestPath, test: test.name, status: .skipped, reason: "the manifest cannot be read (see manifest-schema)")
                }
                results.append(r)
                if !json && !quiet && (!onlyFailed || r.status == .failed) { console.out(line(r)) }
            }
            if !json && !quiet {
                console.out("  \(t.name): \(counts(results))\n")
            }
            all.append((t, results))
        }
        let every = all.flatMap(\.1)
        if json {
            console.out(JSONWriter.write(document(all, onlyFailed: onlyFailed)))
        } else {
            console.out("\(all.count) plugin\(all.count == 1 ? "" : "s"), \(every.count) test\(every.count == 1 ? "" : "s"): \(counts(every))")
        }
        return every.contains { $0.status == .failed } ? .mismatch : .ok
    }

    static func line(_ r: ValidationResult) -> String {
        switch r.status {
        case .passed: return "  passed   \(r.test)"
        case .failed: return "  FAILED   \(r.test): \(r.reason ?? "")"
        case .skipped: return "  skipped  \(r.test): \(r.reason ?? "")"
        }
    }

    static func counts(_ rs: [ValidationResult]) -> String {
        let n = { (s: ValidationStatus) in rs.filter { $0.status == s }.count }
        return "\(n(.passed)) passed, \(n(.failed)) failed, \(n(.skipped)) skipped"
    }

    static func listTests(_ tests: [ValidationTest], json: Bool, console: Console) -> ExitCode {
        if json {
            console.out(JSONWriter.write(.object(["tests": .array(tests.map {
                .object(["name": .string($0.name), "group": .string($0.group), "description": .string($0.description)])
            })])))
        } else {
            let width = tests.map(\.name.count).max() ?? 0
            for t in tests { console.out(t.name + String(repeating: " ", count: width - t.name.count + 2) + t.description) }
        }
        return .ok
    }

    static func document(_ all: [(Target, [ValidationResult])], onlyFailed: Bool) -> JSONValue {
        let every = all.flatMap(\.1)
        func count(_ rs: [ValidationResult], _ s: ValidationStatus) -> JSONValue { .number(Double(rs.filter { $0.status == s }.count)) }
        return .object([
            "format": "transhost-validate/1",
            "host_abi": .string(HostABI.text),
            "passed": count(every, .passed), "failed": count(every, .failed), "skipped": count(every, .skipped),
            "plugins": .array(all.map { t, rs in
                .object([
                    "name": .string(t.name), "manifest": .string(t.manifestPath),
                    "passed": count(rs, .passed), "failed": count(rs, .failed), "skipped": count(rs, .skipped),
                    "tests": .array(rs.filter { !onlyFailed || $0.status == .failed }.map { r in
                        .object(["name": .string(r.test), "status": .string(r.status.rawValue),
                                 "reason": r.reason.map(JSONValue.string) ?? .null, "details": .array(r.details.map(JSONValue.string))])
                    }),
                ])
            }),
        ])
    }

    /// A plugin to validate: its manifest, or why it cannot be read.
    struct Target {
        var name: String
        var manifestPath: String
        var manifest: PluginManifest?
        var problem: String
    }

    struct NotFound: Error { let message: String }

    static func target(manifest path: String) -> Target {
        do {
            let m = try PluginManifest.load(file: path)
            return Target(name: m.name, manifestPath: m.file, manifest: m, problem: "")
        } catch {
            return Target(name: PathUtil.basename(PathUtil.dirname(PathUtil.absolute(path))), manifestPath: PathUtil.absolute(path), manifest: nil, problem: "\(error)")
        }
    }

    static func resolve(_ names: [String], options: PluginOptions) throws -> [Target] {
        var scan: PluginScan?
        func scanned() throws -> PluginScan {
            if let scan { return scan }
            let s = try options.scan()
            scan = s
            return s
        }
        guard !names.isEmpty else {
            return try scanned().records.filter { $0.manifestPath != nil && $0.status.word != "duplicate" && $0.status.word != "missing" }
                .map { target(manifest: $0.manifestPath!) }
        }
        var out: [Target] = []
        for n in names {
            if FileIO.isDirectory(n) {
                let own = PathUtil.join(n, "manifest.json")
                if FileIO.exists(own) { out.append(target(manifest: own)); continue }
                let subs = try FileIO.list(n).map { PathUtil.join(PathUtil.join(n, $0), "manifest.json") }.filter(FileIO.exists)
                guard !subs.isEmpty else { throw NotFound(message: "\(n) is neither a plugin's directory (no manifest.json) nor a directory of plugins") }
                out += subs.map(target(manifest:))
            } else if FileIO.exists(n) {
                out.append(target(manifest: n))
            } else if let r = try scanned().records.first(where: { $0.name == n && $0.manifestPath != nil }) {
                out.append(target(manifest: r.manifestPath!))
            } else {
                let known = try scanned().records.map(\.name)
                throw NotFound(message: "no plugin, directory or manifest named \(n)\(Spelling.hint(for: n, among: known)); `transhost list` shows the plugins on the search path")
            }
        }
        return out
    }
}
