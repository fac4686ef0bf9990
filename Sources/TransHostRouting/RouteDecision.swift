import TransHostCoordinators

/// One rule as the router saw it for one query: whether it matched, how, and how it ranked.
public struct RouteCandidate: Sendable {
    public let rule: RouteRule
    public let matched: Bool
    /// True when the rule matched through its derived reverse operation (from/to swapped).
    public let reversed: Bool
    /// How closely the rule names the query types; nil when not matched.
    public let specificity: RouteSpecificity?
    /// Why it matched or not, and, after ranking, why it won or lost.
    public let reason: String

    public init(rule: RouteRule, matched: Bool, reversed: Bool, specificity: RouteSpecificity?, reason: String) {
        self.rule = rule
        self.matched = matched
        self.reversed = reversed
        self.specificity = specificity
        self.reason = reason
    }
}

/// The router's answer for one query, with everything needed to explain it.
public struct RouteDecision: Sendable {
    public let query: RouteQuery
    /// The rule to use; nil means the host's default transition runs (as UIKit does when the
    /// transitioning delegate returns nil).
    public let winner: RouteCandidate?
    /// Every rule: matched ones first in precedence order (the winner first), then unmatched ones
    /// in declaration order.
    public let candidates: [RouteCandidate]
    /// Matched candidates, other than the winner, that tie with it on priority, specificity and
    /// directness, so that only the stable tie-break (`order`) separated them. Empty when the
    /// winner won on a stated rule.
    public let conflicts: [RouteCandidate]
    /// Lines for `route --explain`: the query, the outcome, any conflict, and every candidate.
    public var explanation: [String]

    public init(query: RouteQuery, winner: RouteCandidate?, candidates: [RouteCandidate], conflicts: [RouteCandidate], explanation: [String]) {
        self.query = query
        self.winner = winner
        self.candidates = candidates
        self.conflicts = conflicts
        self.explanation = explanation
    }

    /// True when no rule matched and the host default transition runs.
    public var usesDefaultTransition: Bool { winner == nil }
}
