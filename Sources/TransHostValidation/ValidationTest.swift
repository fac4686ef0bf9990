/// One test `transhost validate` runs against a plugin: a kebab-case name, the group it belongs
/// to and a one-line description (`transhost validate --list-tests`).
public struct ValidationTest: Equatable, Sendable {
    public let name: String
    public let group: String
    public let description: String

    /// Every test, in the order they run.
    public static let all: [ValidationTest] = [
        .init(name: "manifest-schema", group: "manifest",
              description: "the manifest reads as transhost-manifest/1: known keys only (with a \"did you mean\"), routes naming declared animators and interactions"),
        .init(name: "manifest-parameters", group: "manifest",
              description: "every declared configure parameter has a default, of its type and inside its min/max range"),
        .init(name: "binary-entry", group: "binary",
              description: "the library exports transhost_plugin_entry with a compatible ABI that equals the manifest's, and a struct_size the ABI allows"),
        .init(name: "binary-load", group: "binary",
              description: "dlopen with RTLD_NOW resolves every symbol, init returns 0, get_animator gives a complete animator for each declared id, the configure symbol exists"),
        .init(name: "binary-load-time", group: "binary",
              description: "inspecting the library takes under 0.5 s and dlopen + init under 2 s"),
        .init(name: "binary-no-stdout", group: "binary",
              description: "loading the plugin and playing its transitions writes nothing on stdout"),
        .init(name: "binary-init-deinit", group: "binary",
              description: "init runs once on load and deinit once at the end, and the process then exits cleanly (no crash in deinit or library destructors)"),
        .init(name: "transition-completes-once", group: "transition",
              description: "for every route and operation, completeTransition is called exactly once, within the duration plus 0.5 s"),
        .init(name: "transition-view-hierarchy", group: "transition",
              description: "after each transition the to-view is in the container and the from-view has left it"),
        .init(name: "transition-no-leftovers", group: "transition",
              description: "no snapshot or view the animator added is left in the window after a transition (a custom presentation's presented view and chrome stay while it presents)"),
        .init(name: "transition-no-late-calls", group: "transition",
              description: "nothing changes after completeTransition: no late calls, breaches or animations in the second that follows"),
        .init(name: "reverse-operations", group: "transition",
              description: "the reverse a route serves (the pop of a push, the dismiss of a present, the select back) completes once and leaves the hierarchy right"),
        .init(name: "interactive-cancel", group: "interactive",
              description: "a pan released at progress 0, 0.25, 0.5, 0.75 and 1 and cancelled leaves every view as it was before, field by field, with no host repair"),
        .init(name: "interactive-finish", group: "interactive",
              description: "a pan released past its threshold finishes: the transition completes, with the to-view in place"),
        .init(name: "reentrancy", group: "state",
              description: "the animator plays a route twice in a row (and, in a navigation controller, the reverse requested while it runs); each completes and the repeat looks exactly like the first"),
        .init(name: "device-independence", group: "state",
              description: "on iphone-4, iphone-8 and iphone-12 each transition ends with the shown view at the container's bounds, or a presented one at its final frame (nothing hard-coded to 320 x 568)"),
        .init(name: "determinism", group: "state",
              description: "two runs of the same scenario give identical traces"),
        .init(name: "parameters-range", group: "parameters",
              description: "with each declared parameter at its minimum, maximum and default (a fresh process each), every transition still completes once"),
        .init(name: "parameters-out-of-range", group: "parameters",
              description: "a value below a parameter's minimum or above its maximum is rejected before the plugin runs"),
        .init(name: "memory-flat", group: "resources",
              description: "resident memory stays flat (under 16 MiB of growth) over 200 transitions"),
    ]

    public static func named(_ name: String) -> ValidationTest? { all.first { $0.name == name } }
}

/// How one test ended for one plugin.
public enum ValidationStatus: String, Sendable {
    case passed, failed, skipped
}

/// The outcome of one test on one plugin.
public struct ValidationResult: Equatable, Sendable {
    public var plugin: String
    public var manifest: String
    public var test: String
    public var status: ValidationStatus
    /// Why it failed or was skipped; nil when it passed.
    public var reason: String?
    /// What was checked (one line per case), for `--json` and failures.
    public var details: [String]

    public init(plugin: String, manifest: String, test: String, status: ValidationStatus, reason: String? = nil, details: [String] = []) {
        self.plugin = plugin; self.manifest = manifest; self.test = test; self.status = status; self.reason = reason; self.details = details
    }
}

/// What a check says, before the runner attaches the plugin and test names.
public enum Verdict: Equatable, Sendable {
    case pass
    case fail(String)
    case skip(String)
}
