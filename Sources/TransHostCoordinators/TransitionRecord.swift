/// How a transition ended.
public enum TransitionOutcome: String, Sendable { case completed, cancelled }

/// What happened in one transition, for traces and summaries.
public struct TransitionRecord: Sendable {
    /// 0, 1, 2, ... in the order transitions began on the host.
    public let index: Int
    public let container: ContainerKind
    public let operation: TransitionOperation
    public let fromType: String
    public let toType: String
    /// The controllers' scenario ids.
    public let fromID: String
    public let toID: String
    public let animator: AnimatorIdentity?
    public let interactive: Bool
    /// The animator's declared transitionDuration (0 for a non-animated change).
    public let duration: Double
    public let start: Double
    /// Virtual time at which the transition ended (completeTransition or the watchdog).
    public let end: Double
    public let outcome: TransitionOutcome
    /// Breaches reported up to the end; later ones go to `TransitionObserver.transition(_:didReportLateBreach:)`.
    public let breaches: [ContractBreach]
    public let appearance: [AppearanceEvent]
    /// After a cancel: the fields the host put back ("from.transform", "to.superview", ...).
    public let restored: [String]
    /// What the host had to fix that a correct animator leaves right (see `HostRepair`).
    public let repairs: [HostRepair]

    public init(index: Int, container: ContainerKind, operation: TransitionOperation, fromType: String, toType: String,
                fromID: String, toID: String, animator: AnimatorIdentity?, interactive: Bool, duration: Double,
                start: Double, end: Double, outcome: TransitionOutcome, breaches: [ContractBreach], appearance: [AppearanceEvent],
                restored: [String], repairs: [HostRepair] = []) {
        self.index = index; self.container = container; self.operation = operation; self.fromType = fromType
        self.toType = toType; self.fromID = fromID; self.toID = toID; self.animator = animator; self.interactive = interactive
        self.duration = duration; self.start = start; self.end = end; self.outcome = outcome; self.breaches = breaches
        self.appearance = appearance; self.restored = restored; self.repairs = repairs
    }
}

/// Something the host fixed after an animator: on a device nobody would have fixed it, so the
/// screen would show it (a view that jumps after a cancel, a blank screen, a missing view).
/// UIKit's own postconditions (the from-view leaving on completion, the to-view leaving on a
/// cancel) are not repairs.
public struct HostRepair: Equatable, Sendable {
    /// `field-restored` (a model value or the hierarchy place of the from- or to-view after a
    /// cancel), `from-view-added`, `to-view-added`, `container-restored`, `completed-by-host`.
    public let kind: String
    /// What was repaired: "from.transform", "to-view", the container's name, ...
    public let subject: String
    /// A sentence: what the animator left, what the host did, and what a device would show.
    public let message: String
    public init(kind: String, subject: String, message: String) { self.kind = kind; self.subject = subject; self.message = message }
}

extension TransitionRecord {
    /// The same record with one more breach.
    public func adding(_ b: ContractBreach) -> TransitionRecord {
        TransitionRecord(index: index, container: container, operation: operation, fromType: fromType, toType: toType,
                         fromID: fromID, toID: toID, animator: animator, interactive: interactive, duration: duration,
                         start: start, end: end, outcome: outcome, breaches: breaches + [b], appearance: appearance,
                         restored: restored, repairs: repairs)
    }
}

/// Receives transitions as they begin and end (the runner records traces through it).
public protocol TransitionObserver: AnyObject {
    func transitionDidBegin(_ transition: ActiveTransition)
    func transitionDidEnd(_ record: TransitionRecord)
    /// A breach reported after the transition's record was delivered (a completeTransition call
    /// after the transition ended). Default: ignored.
    func transition(_ index: Int, didReportLateBreach breach: ContractBreach)
}

extension TransitionObserver {
    public func transition(_ index: Int, didReportLateBreach breach: ContractBreach) {}
}
