import TransHostPluginHost
import TransHostRender
import TransHostReport
import TransHostScenario

/// What the user asked of one `run`, each value checked once, where it was parsed; the steps of
/// a `RunSession` take them as given.
public struct RunOptions: Sendable {
    /// Frames per second of the traces (`--fps`).
    public var fps: FrameRate = .standard
    /// Another screen to play on (`--device`); it keeps the scenario's scale.
    public var device: Device?
    /// Pixels per point of the pictures, also the trace's `device.scale` (`--scale`); nil uses
    /// each scenario device's own.
    public var scale: PixelScale?
    /// Which pictures to write (`--gif`, `--sheet`, `--frames`, `--at`, `--trace-only`).
    public var pictures = RunExporter.Options()
    /// How plugins are loaded (`--no-fork`, the validation timeout) and configured (`--param`).
    public var loading = PluginLoadOptions()
    /// Compare each trace with a golden one (`--expect`, `--tolerance`).
    public var expect: Expectation?

    /// This run's part of a sharded run (`--shard I/N`); nil plays every job given.
    public var shard: Shard?

    public init() {}

    /// Whether each job's directory gets a report.html: whenever pictures are rendered, and in
    /// a sharded run (merge-reports reads the shards' reports) even without pictures.
    public var writesReport: Bool { pictures.gif || pictures.sheet || pictures.frames || shard != nil }

    /// Why `scenario` with --device and --scale applied is too large to render, or nil.
    public func sizeProblem(for scenario: Scenario) -> String? {
        let d = device ?? scenario.device
        return Device(name: d.name, width: d.width, height: d.height, scale: scale?.value ?? scenario.device.scale).sizeProblem
    }

    /// `--expect PATH [--tolerance X]`.
    public struct Expectation: Sendable {
        /// A trace file, or a directory holding trace.json (or, for several jobs, one directory
        /// per job named like its output directory).
        public var path: String
        /// Numbers within this count as equal (0: exact).
        public var tolerance: Double
        /// What to do about goldens that are absent, present or failing (`--record-mode`).
        public var recordMode: RecordMode = .missing
        /// Whether frames are compared too (no with `--trace-only`, or when `path` is a file).
        public var pictures = true
        /// How different a frame may be from its golden picture.
        public var pixels = PixelComparison.Tolerance()
        public init(path: String, tolerance: Double = 0) { self.path = path; self.tolerance = tolerance }
    }
}

/// Pixels per point of a picture: 1, 2 or 3.
public struct PixelScale: Equatable, Sendable {
    public static let allowed = 1...3
    public let value: Int
    public init?(_ value: Int) {
        guard Self.allowed.contains(value) else { return nil }
        self.value = value
    }
}

/// One scenario to play and the directory its outputs go to.
public struct RunJob: Sendable {
    public var scenario: Scenario
    public var outDir: String
    public init(scenario: Scenario, outDir: String) { self.scenario = scenario; self.outDir = outDir }
}
