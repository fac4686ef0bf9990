import TransHostCore
import TransHostCoordinators
import TransHostDiscovery
import TransHostManifest
import TransHostPluginHost
import TransHostRun
import TransHostScenario
import TransHostSupport

/// What one test needs while it runs in its process: the plugin (alone on its search path), a
/// way to say which step it is in (so a crash or a hang names it), and playback through the
/// same runner `transhost run` uses.
public final class ValidationContext {
    public let manifest: PluginManifest
    public let scan: PluginScan
    /// Told each step before it is taken ("playing navigation push A -> B").
    public var step: (String) -> Void
    /// `--param` values for this process (the parameters-range test's children get one each).
    public var parameters = ParameterOverrides()
    /// Runs one hidden test in a fresh process (nil: in-process, where a value cannot be
    /// applied afresh because configure runs once per load).
    public var spawn: ((_ test: String, _ parameter: String?) -> Verdict)?
    /// What was checked, one line per case (reported with the result).
    public var details: [String] = []
    /// Frames per second of the validator's scenarios: enough to compare motion, cheap to play.
    public var fps = FrameRate(20)!

    public init(manifest: PluginManifest, step: @escaping (String) -> Void = { _ in }) {
        self.manifest = manifest
        self.step = step
        var record = PluginScanner.inspect(manifestPath: manifest.file, fallbackName: manifest.name)
        // Only the file checks ran; loading is what the tests do.
        record.validation = nil
        var scan = PluginScan(records: [record], warnings: [])
        scan.searchOrder = [manifest.file]
        self.scan = scan
    }

    /// A failure of the plugin that ends the test with its message.
    struct Failure: Error { let message: String }

    /// The transitions the manifest asks for; a plugin with none fails the transition tests.
    func cases() throws -> [TransitionCase] {
        // The demo scenario beside the manifest lends its controllers' views, when it has them.
        let demoFile = PathUtil.join(manifest.directory, "demo.json")
        let demo = FileIO.exists(demoFile) ? try? Scenario.load(file: demoFile) : nil
        let all = TransitionCase.cases(of: manifest, demo: demo)
        guard !all.isEmpty else {
            throw Failure(message: "the manifest declares no animator or delegate routes, so no transition can be checked; add a route to an animator")
        }
        return all
    }

    /// Plays `scenario` in this process (plugin loaded here, as `run --isolation none --no-fork`
    /// would). A plugin that fails to load ends the test with the loader's reason.
    func play(_ scenario: Scenario, fps: FrameRate? = nil, what: String) throws -> Playback {
        step("playing \(what)")
        let p = Playback.play(scenario, scan: scan, fps: fps ?? self.fps, loading: PluginLoadOptions(fork: false, parameters: parameters))
        if let failure = p.run.loadFailures.first { throw Failure(message: failure) }
        if let error = p.run.errors.first { throw Failure(message: "\(what): the host refused an action: \(error)") }
        return p
    }

    /// The transition a case's action made (the set-up's own transitions come first).
    func trace(_ p: Playback, _ c: TransitionCase, action: Int, what: String) throws -> TransitionTrace {
        let i = c.prefixCount + action
        guard i < p.run.transitions.count else {
            throw Failure(message: "\(what): the transition did not take place (\(p.run.transitions.count) transition(s) were played)")
        }
        let t = p.run.transitions[i]
        guard let a = t.record.animator, a.plugin == manifest.name else {
            throw Failure(message: "\(what) was animated by \(t.record.animator.map { "\($0.plugin)/\($0.id)" } ?? "the host's default transition"), not by \(manifest.name); check the route in \(manifest.file)")
        }
        return t
    }

    /// The window as the set-up leaves it: the state the transition under test starts from.
    func stateBefore(_ c: TransitionCase, device: Device = .standard) throws -> [PresentationNode] {
        let p = try play(c.setUpScenario(device: device), what: "the set-up of \(c.label)")
        return p.app.engine.sampleTree(p.app.window)
    }

    /// The ids of the views the scenario itself builds (window, containers, controllers' views).
    static func scenarioViewIDs(_ scenario: Scenario) -> Set<String> {
        let app = App(scenario: scenario)
        func ids(_ v: View) -> [String] { [v.id] + v.subviews.flatMap(ids) }
        var out = Set(ids(app.window))
        for c in app.controllers.values { out.formUnion(ids(c.view)) }
        if let n = app.navigation { out.formUnion(ids(n.view)) }
        if let t = app.tabs { out.formUnion(ids(t.view)) }
        return out
    }
}

/// Field-by-field comparison of two samples of the window.
enum WindowDiff {
    static let tolerance = 1e-6

    static func text(_ values: [Double]) -> String {
        values.count == 1 ? JSONWriter.format(values[0]) : "[" + values.map(JSONWriter.format).joined(separator: ", ") + "]"
    }

    /// The fields in which `after` differs from `before`, one sentence each ("view To title
    /// (v7): alpha 1 -> 0.5"); views that appeared or disappeared are named too.
    static func differences(before: [PresentationNode], after: [PresentationNode]) -> [String] {
        let byID = Dictionary(after.map { ($0.view.id, $0) }, uniquingKeysWith: { a, _ in a })
        let beforeIDs = Set(before.map(\.view.id))
        var out: [String] = []
        for b in before {
            let who = "view \(b.view.name.isEmpty ? "(unnamed)" : b.view.name) (\(b.view.id))"
            guard let a = byID[b.view.id] else { out.append("\(who) is no longer in the window"); continue }
            for p in AnimatableProperty.allCases {
                let x = b.state[p], y = a.state[p]
                if x.count != y.count || zip(x, y).contains(where: { abs($0 - $1) > tolerance }) {
                    out.append("\(who): \(p.rawValue) \(text(x)) -> \(text(y))")
                }
            }
            if a.isHidden != b.isHidden { out.append("\(who): isHidden \(b.isHidden) -> \(a.isHidden)") }
            if a.parentID != b.parentID { out.append("\(who): superview \(b.parentID ?? "none") -> \(a.parentID ?? "none")") }
            if a.z != b.z { out.append("\(who): index in its superview \(b.z) -> \(a.z)") }
        }
        for a in after where !beforeIDs.contains(a.view.id) {
            out.append("view \(a.view.name.isEmpty ? "(unnamed)" : a.view.name) (\(a.view.id))\(a.view.isSnapshot ? ", a snapshot," : "") was added")
        }
        return out
    }

    /// Differences between two samples compared in painting order, by name rather than id: the
    /// snapshots of a repeated transition are new views, so their ids differ.
    static func positionalDifferences(_ a: [PresentationNode], _ b: [PresentationNode]) -> [String] {
        guard a.count == b.count else { return ["\(b.count) views in the window instead of \(a.count)"] }
        var out: [String] = []
        for (x, y) in zip(a, b) {
            let who = "view \(x.view.name.isEmpty ? "(unnamed)" : x.view.name)"
            if x.view.name != y.view.name || x.view.isSnapshot != y.view.isSnapshot { out.append("\(who) is \(y.view.name) instead"); continue }
            for p in AnimatableProperty.allCases {
                let u = x.state[p], v = y.state[p]
                if u.count != v.count || zip(u, v).contains(where: { abs($0 - $1) > tolerance }) { out.append("\(who): \(p.rawValue) \(text(u)) -> \(text(v))") }
            }
            if x.isHidden != y.isHidden { out.append("\(who): isHidden \(x.isHidden) -> \(y.isHidden)") }
            if x.z != y.z || x.depth != y.depth { out.append("\(who): place in the hierarchy changed") }
        }
        return out
    }
}
