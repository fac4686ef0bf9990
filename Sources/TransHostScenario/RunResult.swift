import TransHostCore
import TransHostCoordinators
import TransHostSupport

/// One sampled instant of a transition: every view of the window, as the screen shows it.
public struct TraceFrame {
    /// Seconds from the transition's start.
    public let t: Double
    public let nodes: [PresentationNode]
    public init(t: Double, nodes: [PresentationNode]) { self.t = t; self.nodes = nodes }
}

/// A transition as played: its record and its frames.
public struct TransitionTrace {
    public let index: Int
    /// The coordinators' record; its breaches are those reported while the transition ran (the
    /// run's `events` also hold the late ones).
    public let record: TransitionRecord
    public let frames: [TraceFrame]
    /// The window right after the host applied completeTransition (its postconditions and any
    /// repair), at the instant the transition ended: what cleanup left behind.
    public let after: TraceFrame
    /// Set when a plugin failure made the host play this transition with the default animator.
    public var pluginFailure: TransitionFailureNote? = nil

    public init(index: Int, record: TransitionRecord, frames: [TraceFrame], after: TraceFrame, pluginFailure: TransitionFailureNote? = nil) {
        self.index = index; self.record = record; self.frames = frames; self.after = after; self.pluginFailure = pluginFailure
    }
}

/// The outcome of playing a scenario, as a value: frames hold sampled views, not live ones, so a
/// result can be kept, compared or sent from another process.
public struct RunResult {
    public let scenario: Scenario
    public let fps: Int
    public var transitions: [TransitionTrace]
    public let finalStack: [String]
    public let finalSelected: Int?
    public let finalPresented: [String]
    /// The controller tree after the script (the trace's `final.tree`), for scenarios that have
    /// one (`Scenario.hasControllerTree`); nil otherwise.
    public var finalTree: JSONValue?
    /// Everything to report (load failures, warnings, plugin logs, breaches), each once, in order.
    public var events: [RunEvent]

    public init(scenario: Scenario, fps: Int, transitions: [TransitionTrace], finalStack: [String], finalSelected: Int?,
                finalPresented: [String], events: [RunEvent]) {
        self.scenario = scenario; self.fps = fps; self.transitions = transitions; self.finalStack = finalStack
        self.finalSelected = finalSelected; self.finalPresented = finalPresented; self.events = events
    }

    /// Routed plugins that could not be loaded (the default transition ran for them).
    public var loadFailures: [String] { events.compactMap { if case .loadFailure(_, let m) = $0 { return m }; return nil } }
    /// The sentences of the trace's "warnings": load failures and host warnings, in order.
    public var warnings: [String] {
        events.compactMap {
            switch $0 {
            case .loadFailure(_, let m), .warning(let m): return m
            default: return nil
            }
        }
    }
    /// Actions refused because UIKit would raise (invalid input, exit 5), in order.
    public var errors: [String] { events.compactMap { if case .error(let m) = $0 { return m }; return nil } }
    /// Plugins that crashed, hung or exited in a playback worker, in the order they did.
    public var pluginFailures: [PluginFailure] { events.compactMap { if case .pluginFailure(let f) = $0 { return f }; return nil } }
    /// What plugins wrote with host->log, prefixed with their names.
    public var logs: [String] { events.compactMap { if case .log(let l) = $0 { return l }; return nil } }
    /// Every breach, in the order reported.
    public var breaches: [ContractBreach] { events.compactMap { if case .breach(let b, _) = $0 { return b }; return nil } }
    /// Breaches reported before any transition ran (for example in a plugin's init).
    public var unattributedBreaches: [ContractBreach] {
        events.compactMap { if case .breach(let b, nil) = $0 { return b }; return nil }
    }
    /// The breaches of one transition, late ones included.
    public func breaches(ofTransition index: Int) -> [ContractBreach] {
        events.compactMap { if case .breach(let b, index?) = $0 { return b }; return nil }
    }
}
