import TransHostCore
import TransHostCoordinators
import TransHostDiscovery
import TransHostManifest
import TransHostPluginHost
import TransHostRun
import TransHostScenario
import TransHostSupport
#if canImport(Glibc)
import Glibc
#endif

/// The test bodies. Each runs in the process it is given (a test child, or `--in-process`) and
/// returns a verdict; a crash or hang is caught by whoever started the process.
public enum ValidationChecks {
    /// Hidden: one parameter value, run by parameters-range in a fresh process.
    public static let parameterValueTest = "parameter-value"

    /// Runs the named test against the context's plugin.
    public static func run(_ test: String, _ ctx: ValidationContext) -> Verdict {
        do {
            switch test {
            case "manifest-schema": return try manifestSchema(ctx)
            case "manifest-parameters": return manifestParameters(ctx)
            case "binary-entry": return try binaryEntry(ctx)
            case "binary-load": return try binaryLoad(ctx)
            case "binary-load-time": return try binaryLoadTime(ctx)
            case "binary-no-stdout": return try binaryNoStdout(ctx)
            case "binary-init-deinit": return try initDeinit(ctx)
            case "transition-completes-once": return try completesOnce(ctx)
            case "transition-view-hierarchy": return try viewHierarchy(ctx)
            case "transition-no-leftovers": return try noLeftovers(ctx)
            case "transition-no-late-calls": return try noLateCalls(ctx)
            case "reverse-operations": return try reverseOperations(ctx)
            case "interactive-cancel": return try interactiveCancel(ctx)
            case "interactive-finish": return try interactiveFinish(ctx)
            case "reentrancy": return try reentrancy(ctx)
            case "device-independence": return try deviceIndependence(ctx)
            case "determinism": return try determinism(ctx)
            case "parameters-range": return parametersRange(ctx)
            case "parameters-out-of-range": return parametersOutOfRange(ctx)
            case "memory-flat": return try memoryFlat(ctx)
            case parameterValueTest: return try parameterValue(ctx)
            default: return .fail("there is no test named \(test)\(Spelling.hint(for: test, among: ValidationTest.all.map(\.name))); see `transhost validate --list-tests`")
            }
        } catch let f as ValidationContext.Failure {
            return .fail(f.message)
        } catch {
            return .fail("\(error)")
        }
    }

    static func manifestSchema(_ ctx: ValidationContext) throws -> Verdict {
        ctx.step("reading \(ctx.manifest.file)")
        do { _ = try PluginManifest.load(file: ctx.manifest.file) } catch { return .fail("\(error)") }
        ctx.details.append("\(ctx.manifest.animators.count) animator(s), \(ctx.manifest.animators.map(\.routes.count).reduce(0, +)) route(s)")
        return .pass
    }

    static func manifestParameters(_ ctx: ValidationContext) -> Verdict {
        guard let c = ctx.manifest.configure, !c.parameters.isEmpty else { return .skip("the manifest declares no configure parameters") }
        for p in c.parameters {
            guard let d = p.defaultValue else {
                return .fail("parameter \(p.name) of \(ctx.manifest.file) has no default, so every run would need --param \(ctx.manifest.name).\(p.name)=VALUE; give it a \"default\"")
            }
            do { _ = try p.validate(d) } catch {
                return .fail("parameter \(p.name)'s default \(d.shortText) is not valid for it (\(error)); fix \"default\", \"min\" or \"max\" in \(ctx.manifest.file)")
            }
            ctx.details.append("\(p.name): default \(d.shortText) in range")
        }
        return .pass
    }

    static func binaryEntry(_ ctx: ValidationContext) throws -> Verdict {
        let lib = ctx.manifest.libraryPath
        ctx.step("inspecting \(lib)")
        guard let record = ctx.scan.records.first else { return .fail("the plugin was not found") }
        if case .failed(let reason) = record.status { return .fail(reason) }
        do {
            let elf = try ELFInspector.inspect(path: lib)
            guard elf.hasEntrySymbol else { return .fail("library \(lib) does not export transhost_plugin_entry; define it with TH_EXPORT") }
            ctx.details.append("entry symbol exported, ABI \(elf.abiMajor.map(String.init) ?? "?").\(elf.abiMinor.map(String.init) ?? "?") (host \(HostABI.text))")
        } catch { return .fail("library \(lib): \(error)") }
        // struct_size, the in-memory ABI and the identity are read after dlopen, by the loader.
        _ = try load(ctx)
        ctx.details.append("in memory: ABI, struct_size, name and version agree with the manifest")
        return .pass
    }

    static func load(_ ctx: ValidationContext) throws -> LoadedPlugin {
        let engine = AnimationEngine()
        let bridge = HostBridge(engine: engine, breachHandler: { _ in }, logHandler: { _ in })
        bridge.activate()
        do {
            return try PluginLoader.load(ctx.manifest, bridge: bridge) { ctx.step("loading: \($0.rawValue)") }
        } catch let e as PluginHostError {
            if case .loadFailed(_, _, let reason) = e { throw ValidationContext.Failure(message: reason) }
            throw ValidationContext.Failure(message: e.description)
        }
    }

    static func binaryLoad(_ ctx: ValidationContext) throws -> Verdict {
        // First as `run --isolation none` loads a new plugin: in the validation child, which
        // names the step a crash or hang happened in; then here, for the checks after it.
        ctx.step("loading in a validation child process")
        if case .failed(let reason) = PluginValidator.validate(ctx.manifest) { return .fail(reason) }
        let p = try load(ctx)
        ctx.details.append("loaded with RTLD_NOW; init returned 0; \(p.manifest.animators.count) animator(s) complete")
        return .pass
    }

    static func binaryLoadTime(_ ctx: ValidationContext) throws -> Verdict {
        var t0 = monotonic()
        ctx.step("inspecting the library")
        _ = try? ELFInspector.inspect(path: ctx.manifest.libraryPath)
        let scan = monotonic() - t0
        t0 = monotonic()
        _ = try load(ctx)
        let load = monotonic() - t0
        ctx.details.append("inspect \(JSONWriter.format((scan * 1000).rounded() / 1000)) s, dlopen + init \(JSONWriter.format((load * 1000).rounded() / 1000)) s")
        if scan > 0.5 { return .fail("inspecting the library took \(JSONWriter.format(scan)) s (limit 0.5 s); is it very large?") }
        if load > 2 { return .fail("dlopen + init took \(JSONWriter.format(load)) s (limit 2 s); do less in init and in library constructors") }
        return .pass
    }

    /// Loads and plays with stdout pointed at a scratch file, then looks at what reached it.
    static func binaryNoStdout(_ ctx: ValidationContext) throws -> Verdict {
        fflush(nil)
        let saved = dup(1)
        var name = Array("/tmp/transhost-validate-stdout-XXXXXX".utf8CString)
        let fd = mkstemp(&name)
        guard saved >= 0, fd >= 0 else { return .fail("could not redirect stdout to check it (\(String(cString: strerror(errno))))") }
        unlink(String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        dup2(fd, 1)
        var failure: Error?
        do {
            for c in try ctx.cases() { _ = try ctx.play(c.scenario([c.forwardAction()]), what: c.label) }
        } catch { failure = error }
        fflush(nil)
        dup2(saved, 1)
        close(saved)
        let size = lseek(fd, 0, SEEK_END)
        var head = [UInt8](repeating: 0, count: 200)
        let n = pread(fd, &head, head.count, 0)
        close(fd)
        if let failure { throw failure }
        if size > 0 {
            let text = String(decoding: head.prefix(max(0, n)), as: UTF8.self).split(whereSeparator: \.isNewline).joined(separator: " | ")
            return .fail("the plugin wrote \(size) byte(s) on stdout (\(text)); stdout belongs to the host (`run --json`): log with host->log or write to stderr")
        }
        ctx.details.append("nothing on stdout")
        return .pass
    }

    static func initDeinit(_ ctx: ValidationContext) throws -> Verdict {
        let cases = try ctx.cases()
        // Two scenarios in one process: the library is initialized once and reused.
        for c in cases.prefix(1) {
            _ = try ctx.play(c.scenario([c.forwardAction()]), what: c.label)
            _ = try ctx.play(c.scenario([c.forwardAction()]), what: "\(c.label) again")
        }
        ctx.step("deinit")
        PluginLibraries.process.shutdown()
        ctx.step("library destructors (exit)")
        ctx.details.append("init once, two scenarios, deinit once")
        return .pass
    }

    static func values(of p: ParameterSpec) -> [String] {
        func text(_ x: Double) -> String { p.type.isInteger ? String(Int64(x)) : JSONWriter.format(x) }
        var out: [String] = []
        if let lo = p.min { out.append(text(lo)) }
        if let hi = p.max { out.append(text(hi)) }
        if let d = p.defaultValue, !out.contains(d.shortText) { out.append(d.shortText) }
        return out
    }

    static func parametersRange(_ ctx: ValidationContext) -> Verdict {
        guard let c = ctx.manifest.configure, !c.parameters.isEmpty else { return .skip("the manifest declares no configure parameters") }
        guard let spawn = ctx.spawn else {
            return .skip("configure runs once per load, so each value needs a fresh process; run without --in-process")
        }
        for p in c.parameters {
            for v in values(of: p) {
                let item = "\(ctx.manifest.name).\(p.name)=\(v)"
                ctx.step("playing with --param \(item)")
                switch spawn(parameterValueTest, item) {
                case .pass: ctx.details.append("--param \(item): every transition completed")
                case .fail(let why): return .fail("with --param \(item): \(why)")
                case .skip(let why): return .fail("with --param \(item): \(why)")
                }
            }
        }
        return .pass
    }

    static func parameterValue(_ ctx: ValidationContext) throws -> Verdict {
        for c in try ctx.cases() {
            let s = c.scenario([c.forwardAction()])
            let p = try ctx.play(s, what: c.label)
            let t = try ctx.trace(p, c, action: 0, what: c.label)
            if let problem = TransitionChecks.basic(t, p, scenario: s, what: c.label) { return .fail(problem) }
        }
        return .pass
    }

    static func parametersOutOfRange(_ ctx: ValidationContext) -> Verdict {
        guard let c = ctx.manifest.configure, !c.parameters.isEmpty else { return .skip("the manifest declares no configure parameters") }
        var checked = 0
        for p in c.parameters {
            func text(_ x: Double) -> String { p.type.isInteger ? String(Int64(x)) : JSONWriter.format(x) }
            let outside = [p.min.map { text($0 - 1) }, p.max.map { text($0 + 1) }].compactMap { $0 }
            for v in outside {
                let item = "\(ctx.manifest.name).\(p.name)=\(v)"
                do {
                    _ = try ParameterOverrides.parse([item], scan: ctx.scan)
                    return .fail("--param \(item) is outside [\(p.min.map(text) ?? "-inf"), \(p.max.map(text) ?? "inf")] but was accepted")
                } catch {
                    ctx.details.append("--param \(item) rejected: \(error)")
                    checked += 1
                }
            }
        }
        return checked == 0 ? .skip("no parameter declares a minimum or maximum") : .pass
    }

    static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// Resident memory in bytes (/proc/self/statm).
    static func residentBytes() -> Int {
        guard let text = try? FileIO.readString("/proc/self/statm") else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    static func memoryFlat(_ ctx: ValidationContext) throws -> Verdict {
        guard let c = try ctx.cases().first else { return .skip("no route") }
        let perRun = c.reversible ? 20 : 1
        let actions = (0..<perRun).map { i in i % 2 == 0 ? c.forwardAction() : c.reverseAction() }
        let s = c.scenario(actions)
        var start = 0, played = 0
        while played < 200 {
            let p = try ctx.play(s, fps: FrameRate(1)!, what: "\(c.label): transitions \(played + 1)-\(played + perRun) of 200")
            if let bad = p.run.transitions.first(where: { $0.record.animator?.plugin != ctx.manifest.name && $0.index >= c.prefixCount }) {
                return .fail("\(c.label): transition \(played + bad.index) was not animated by the plugin")
            }
            played += perRun
            if played == perRun * max(1, 20 / perRun) && start == 0 { start = residentBytes() }
        }
        let end = residentBytes()
        let grew = end - start
        ctx.details.append("resident \(start >> 20) MiB after 20 transitions, \(end >> 20) MiB after 200")
        if grew > 16 << 20 {
            return .fail("\(c.label): resident memory grew by \(grew >> 20) MiB from transition 20 to 200 (\(start >> 20) -> \(end >> 20) MiB); release what each transition allocates")
        }
        return .pass
    }
}
