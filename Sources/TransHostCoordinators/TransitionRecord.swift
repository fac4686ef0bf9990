/// How a transition ended.
public enum TransitionOutcome: String, Sendable { case completed, cancelled }

/// What happened in one transition, for traces and summaries.
public struct TransitionRecord: Sendable {
    public let container: ContainerKind
    public let operation: TransitionOperation
    public let fromType: String
    public let toType: String
    public let animator: AnimatorIdentity?
    public let interactive: Bool
    /// The animator's declared transitionDuration (0 for a non-animated change).
    public let duration: Double
    public let start: Double
    /// Virtual time at which the transition ended (completeTransition or the watchdog).
    public let end: Double
    public let outcome: TransitionOutcome
    public let breaches: [ContractBreach]
    public let appearance: [AppearanceEvent]
}

/// Receives transitions as they begin and end (the runner records traces through it).
public protocol TransitionObserver: AnyObject {
    func transitionDidBegin(_ transition: ActiveTransition)
    func transitionDidEnd(_ record: TransitionRecord)
}
