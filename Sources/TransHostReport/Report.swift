/// What `report.html` shows, as plain values: built from a run (TransHostRun) or read back from
/// the data a report embeds (`ReportData`), so `merge-reports` can join shards' reports
/// without the runs that made them. File names are relative to the job's directory (`dir`).
public struct Report: Equatable, Sendable {
    /// The page's heading: "transhost gallery", "fade-scale", "merged report".
    public var title: String
    /// The shards this report holds (one for a `--shard` run, several once merged; empty when
    /// the run was not sharded).
    public var shards: [Shard]
    public var jobs: [ReportJob]

    public init(title: String, shards: [Shard] = [], jobs: [ReportJob]) { self.title = title; self.shards = shards; self.jobs = jobs }

    /// The worst verdict of its jobs (`ok` for none).
    public var verdict: Verdict { jobs.map(\.verdict).max() ?? .ok }
}

/// How a job (one scenario) ended, from best to worst; the run's exit code is its worst job's.
public enum Verdict: String, Sendable, CaseIterable, Comparable {
    case ok
    /// A trace or frame differs from its golden (exit 1).
    case mismatch
    /// An animator broke the transition contract (exit 4).
    case contractBreach = "contract-breach"
    /// A plugin failed to load or while animating (exit 3).
    case pluginFailed = "plugin-failed"
    /// Invalid input or unwritable output (exit 5).
    case inputError = "input-error"

    public static func < (a: Verdict, b: Verdict) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
}

/// One scenario of a run and the directory holding its files.
public struct ReportJob: Equatable, Sendable {
    /// Its output directory's name (a plugin's name in the gallery).
    public var name: String
    /// Its directory relative to the report's: "" when the report is in it, "fade-scale/" in a
    /// gallery's report.
    public var dir: String
    public var scenario: String
    /// "corner-fly/demo.json" or "built-in".
    public var source: String
    /// "iphone-5 320x568 @2x, 60 fps".
    public var screen: String
    public var verdict: Verdict
    /// Why the job wrote nothing (or not everything), when it did not finish.
    public var failure: String?
    /// "plugin.name=value", sorted.
    public var parameters: [String]
    /// Warnings, errors and plugin failures of the run, as sentences.
    public var notes: [String]
    /// "A > B".
    public var finalStack: String
    /// What --expect said about the trace, when it compared one.
    public var comparison: ReportComparison?
    public var transitions: [ReportTransition]

    public init(name: String, dir: String, scenario: String, source: String, screen: String, verdict: Verdict, failure: String? = nil,
                parameters: [String] = [], notes: [String] = [], finalStack: String = "", comparison: ReportComparison? = nil,
                transitions: [ReportTransition] = []) {
        self.name = name; self.dir = dir; self.scenario = scenario; self.source = source; self.screen = screen; self.verdict = verdict
        self.failure = failure; self.parameters = parameters; self.notes = notes; self.finalStack = finalStack
        self.comparison = comparison; self.transitions = transitions
    }
}

/// The trace half of an --expect check.
public struct ReportComparison: Equatable, Sendable {
    public var golden: String
    public var matches: Bool
    public var differences: Int
    /// One line per view and field, then the first differences in detail.
    public var summary: [String]
    public var listed: [String]
    public init(golden: String, matches: Bool, differences: Int, summary: [String], listed: [String]) {
        self.golden = golden; self.matches = matches; self.differences = differences; self.summary = summary; self.listed = listed
    }
}

/// One transition: what the summary says of it, its pictures, curves and failed frames.
public struct ReportTransition: Equatable, Sendable {
    public var index: Int
    public var container: String
    public var operation: String
    public var from: String
    public var to: String
    /// "plugin/animator", nil for the host's default transition.
    public var animator: String?
    public var interactive: Bool
    public var duration: Double
    /// "completed" or "cancelled".
    public var outcome: String
    public var breaches: [String]
    public var repairs: [String]
    /// Set when a plugin failure made the host play the default instead.
    public var pluginFailure: String?
    /// Why the router chose its animator (`route --explain`'s lines).
    public var route: [String]
    /// The animation's file (GIF or WebP), and the contact sheet's.
    public var animation: String?
    public var sheet: String?
    /// Every trace frame's time, seconds from the transition's start.
    public var times: [Double]
    /// The frames rendered as pictures, in frame order: what the scrubber steps through.
    public var pictures: [ReportPicture]
    /// Each animated view's values over `times`.
    public var curves: [ViewCurves]
    /// Golden frames that differ from this run's.
    public var diffs: [FrameDiff]

    public init(index: Int, container: String, operation: String, from: String, to: String, animator: String?, interactive: Bool,
                duration: Double, outcome: String, breaches: [String] = [], repairs: [String] = [], pluginFailure: String? = nil,
                route: [String] = [], animation: String? = nil, sheet: String? = nil, times: [Double] = [], pictures: [ReportPicture] = [],
                curves: [ViewCurves] = [], diffs: [FrameDiff] = []) {
        self.index = index; self.container = container; self.operation = operation; self.from = from; self.to = to
        self.animator = animator; self.interactive = interactive; self.duration = duration; self.outcome = outcome
        self.breaches = breaches; self.repairs = repairs; self.pluginFailure = pluginFailure; self.route = route
        self.animation = animation; self.sheet = sheet; self.times = times; self.pictures = pictures; self.curves = curves; self.diffs = diffs
    }
}

/// A frame as a picture: a PNG of its own, or a cell of the contact sheet (`crop`, in the
/// sheet's pixels, the sheet being `size` large).
public struct ReportPicture: Equatable, Sendable {
    public var frame: Int
    public var t: Double
    public var file: String
    /// x, y, width, height inside `file`; nil: the whole file.
    public var crop: [Int]?
    /// The file's width and height in pixels.
    public var size: [Int]
    public init(frame: Int, t: Double, file: String, crop: [Int]? = nil, size: [Int]) {
        self.frame = frame; self.t = t; self.file = file; self.crop = crop; self.size = size
    }
}

/// One view's animated values, one per trace frame (nil where the view is not in the window).
public struct ViewCurves: Equatable, Sendable {
    public var id: String
    public var name: String
    /// By series name (see `ViewCurves.names`), values in the view's own units: alpha 0...1,
    /// points, scale factors, degrees.
    public var series: [String: [Double?]]
    public init(id: String, name: String, series: [String: [Double?]]) { self.id = id; self.name = name; self.series = series }

    /// The charts, each with its series: alpha; position x and y; scale x and y; rotation about
    /// z, y and x (degrees, from the transform's rows, an Euler decomposition).
    public static let charts: [(title: String, series: [String])] = [
        ("alpha", ["alpha"]), ("position (pt)", ["x", "y"]), ("scale", ["scaleX", "scaleY"]),
        ("rotation (deg)", ["rotationZ", "rotationY", "rotationX"]),
    ]
    public static var names: [String] { charts.flatMap(\.series) }
}

/// A golden frame that differs: the three pictures --expect wrote, and what it said.
public struct FrameDiff: Equatable, Sendable {
    public var frame: Int
    public var text: String
    public var expected: String?
    public var actual: String?
    public var diff: String?
    public init(frame: Int, text: String, expected: String?, actual: String?, diff: String?) {
        self.frame = frame; self.text = text; self.expected = expected; self.actual = actual; self.diff = diff
    }
}
