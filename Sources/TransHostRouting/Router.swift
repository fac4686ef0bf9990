import TransHostCoordinators

/// Chooses the animator rule for a transition, the way an app's transitioning delegate would,
/// but from declared rules and with an explanation.
///
/// Matching (see `RouteRule`):
/// - the rule's container is the query's, or `any`;
/// - directly: the query operation is one of the rule's stated operations (empty = every
///   operation valid for the container) and the query's from/to types are kinds of the rule's
///   from/to types (`*` matches anything; subclasses match through `TypeHierarchy`);
/// - or, when `reverse` is true, through the derived reverse: the query operation is the reverse
///   of a stated forward operation (push -> pop, present -> dismiss, select -> select) and the
///   query's from/to are kinds of the rule's to/from (swapped). Pop and dismiss rules derive nothing.
///
/// Precedence among matched rules, first difference wins:
/// 1. higher `priority`;
/// 2. greater `RouteSpecificity` (fewer wildcard sides, then nearer supertypes; exact pair best);
/// 3. a direct match beats a derived reverse match;
/// 4. the stable tie-break: lowest `order`, then earliest position in the rules array.
/// When step 4 decides, the tied rules are reported in `RouteDecision.conflicts`.
/// No match: the winner is nil and the host default transition runs.
public struct Router: Sendable {
    public let rules: [RouteRule]
    public let types: TypeHierarchy

    public init(rules: [RouteRule], types: TypeHierarchy) {
        self.rules = rules
        self.types = types
    }

    /// - Complexity: O(r log r + r + d) for r rules and hierarchy depth d.
    public func resolve(_ query: RouteQuery) -> RouteDecision {
        let context = _QueryTypes(query: query, types: types)
        var matched: [_Evaluation] = []
        var unmatched: [_Evaluation] = []
        for (index, rule) in rules.enumerated() {
            let evaluation = _evaluate(rule, index: index, context: context)
            if evaluation.match != nil { matched.append(evaluation) } else { unmatched.append(evaluation) }
        }
        matched.sort(by: _precedes)
        unmatched.sort { ($0.rule.order, $0.index) < ($1.rule.order, $1.index) }

        var candidates: [RouteCandidate] = []
        var conflicts: [RouteCandidate] = []
        let best = matched.first
        for (rank, evaluation) in matched.enumerated() {
            let ranking: String
            if rank == 0 {
                ranking = "won: " + _whyWon(evaluation, over: matched.dropFirst())
            } else {
                ranking = "lost to \(best!.rule.label): " + _whyLost(evaluation, to: best!)
            }
            let candidate = evaluation.candidate(reason: "\(evaluation.sentence); \(ranking)")
            candidates.append(candidate)
            if rank > 0, _ties(evaluation, best!) { conflicts.append(candidate) }
        }
        for evaluation in unmatched {
            candidates.append(evaluation.candidate(reason: "no match: \(evaluation.sentence)"))
        }
        let winner = best == nil ? nil : candidates[0]
        return RouteDecision(
            query: query,
            winner: winner,
            candidates: candidates,
            conflicts: conflicts,
            explanation: _explain(query, winner: winner, candidates: candidates, matchedCount: matched.count, conflicts: conflicts)
        )
    }

    // MARK: Matching

    /// How one rule fared against the query, before ranking.
    struct _Evaluation {
        let rule: RouteRule
        let index: Int
        /// nil when the rule did not match.
        let match: (reversed: Bool, specificity: RouteSpecificity)?
        /// Why it matched, or every reason it did not.
        let sentence: String

        func candidate(reason: String) -> RouteCandidate {
            RouteCandidate(rule: rule, matched: match != nil, reversed: match?.reversed ?? false, specificity: match?.specificity, reason: reason)
        }
    }

    /// The query types' ancestries, computed once per query rather than once per rule.
    struct _QueryTypes {
        let query: RouteQuery
        let fromDistances: [String: Int]
        let toDistances: [String: Int]

        init(query: RouteQuery, types: TypeHierarchy) {
            self.query = query
            func distances(_ type: String) -> [String: Int] {
                Dictionary(types.ancestry(of: type).enumerated().map { ($1, $0) }, uniquingKeysWith: min)
            }
            fromDistances = distances(query.from)
            toDistances = distances(query.to)
        }
    }

    /// Matches one side: `.success(nil)` for a wildcard, `.success(distance)` for a kind-of match.
    private func _side(_ role: String, queryType: String, ruleType: String, distances: [String: Int]) -> Result<Int?, _Mismatch> {
        if ruleType == RouteRule.wildcard { return .success(nil) }
        if let distance = distances[ruleType] { return .success(distance) }
        return .failure(_Mismatch(text: "\(role) type \(queryType) is not a kind of \(ruleType)"))
    }

    struct _Mismatch: Error { let text: String }

    private func _pair(_ context: _QueryTypes, ruleFrom: String, ruleTo: String) -> Result<RouteSpecificity, _Mismatch> {
        let query = context.query
        let from = _side("from", queryType: query.from, ruleType: ruleFrom, distances: context.fromDistances)
        let to = _side("to", queryType: query.to, ruleType: ruleTo, distances: context.toDistances)
        switch (from, to) {
        case let (.success(f), .success(t)): return .success(RouteSpecificity(fromDistance: f, toDistance: t))
        case let (.failure(f), .failure(t)): return .failure(_Mismatch(text: "\(f.text) and \(t.text)"))
        case let (.failure(f), _), let (_, .failure(f)): return .failure(f)
        }
    }

    func _evaluate(_ rule: RouteRule, index: Int, context: _QueryTypes) -> _Evaluation {
        let query = context.query
        let op = query.operation.rawValue
        guard rule.container.admits(query.container) else {
            return _Evaluation(rule: rule, index: index, match: nil,
                               sentence: "container \(query.container.rawValue) is not the rule's container \(rule.container.manifestName)")
        }

        var failures: [String] = []
        var direct: RouteSpecificity?
        if rule.statedOperations.contains(query.operation) {
            switch _pair(context, ruleFrom: rule.from, ruleTo: rule.to) {
            case .success(let specificity): direct = specificity
            case .failure(let mismatch): failures.append(mismatch.text)
            }
        } else {
            let list = rule.statedOperations.map(\.rawValue).joined(separator: ", ")
            let note = rule.operations.isEmpty ? " (every operation of a \(rule.container.manifestName) container)" : ""
            failures.append("operation \(op) not in [\(list)]\(note)")
        }

        // The derived reverse: the rule's types swapped, for the reverse of a stated forward op.
        var derived: RouteSpecificity?
        var derivedFrom: TransitionOperation?
        if rule.derivedOperations.contains(query.operation) {
            let forward = rule.statedOperations.first { $0.isForward && $0.reverse == query.operation }!
            derivedFrom = forward
            switch _pair(context, ruleFrom: rule.to, ruleTo: rule.from) {
            case .success(let specificity): derived = specificity
            case .failure(let mismatch):
                failures.append("as the reverse of its \(forward.rawValue) \(rule.from) -> \(rule.to) (\(op) \(rule.to) -> \(rule.from)): \(mismatch.text)")
            }
        } else if !rule.reverse, rule.statedOperations.contains(where: { $0.isForward && $0.reverse == query.operation }) {
            failures.append("\(op) is not derived as a reverse because the rule sets reverse: false")
        }

        // Prefer the direct match unless the derived one is strictly more specific.
        if let direct, derived.map({ !(direct < $0) }) ?? true {
            return _Evaluation(rule: rule, index: index, match: (false, direct),
                               sentence: "matches \(op) directly (\(direct))")
        }
        if let derived, let forward = derivedFrom {
            return _Evaluation(rule: rule, index: index, match: (true, derived),
                               sentence: "matches \(op) as the derived reverse of its \(forward.rawValue) \(rule.from) -> \(rule.to) (\(derived))")
        }
        return _Evaluation(rule: rule, index: index, match: nil, sentence: failures.joined(separator: "; "))
    }

    // MARK: Ranking

    /// The precedence order: true when `a` ranks before `b`.
    func _precedes(_ a: _Evaluation, _ b: _Evaluation) -> Bool {
        let (sa, sb) = (a.match!.specificity, b.match!.specificity)
        if a.rule.priority != b.rule.priority { return a.rule.priority > b.rule.priority }
        if sa != sb { return sa > sb }
        if a.match!.reversed != b.match!.reversed { return !a.match!.reversed }
        return (a.rule.order, a.index) < (b.rule.order, b.index)
    }

    /// True when only the stable tie-break separates the two matched evaluations.
    func _ties(_ a: _Evaluation, _ b: _Evaluation) -> Bool {
        a.rule.priority == b.rule.priority && a.match!.specificity == b.match!.specificity && a.match!.reversed == b.match!.reversed
    }

    private func _whyWon(_ winner: _Evaluation, over rest: ArraySlice<_Evaluation>) -> String {
        guard let next = rest.first else { return "the only matching rule" }
        let spec = winner.match!.specificity
        if winner.rule.priority != next.rule.priority {
            return "higher priority \(winner.rule.priority) > \(next.rule.priority) of the next best, \(next.rule.label)"
        }
        if spec != next.match!.specificity {
            return "more specific (\(spec)) than the next best, \(next.rule.label) (\(next.match!.specificity)), at equal priority \(winner.rule.priority)"
        }
        if winner.match!.reversed != next.match!.reversed {
            return "a direct match beats the derived reverse match of \(next.rule.label) at equal priority \(winner.rule.priority) and specificity (\(spec))"
        }
        let tied = rest.filter { _ties($0, winner) }.count
        return "tied with \(tied) other rule(s) on priority \(winner.rule.priority) and specificity (\(spec)); chosen by the stable tie-break: lowest declaration order \(winner.rule.order)"
    }

    private func _whyLost(_ loser: _Evaluation, to winner: _Evaluation) -> String {
        let (ls, ws) = (loser.match!.specificity, winner.match!.specificity)
        if loser.rule.priority != winner.rule.priority {
            return "lower priority \(loser.rule.priority) < \(winner.rule.priority)"
        }
        if ls != ws {
            return "less specific (\(ls)) than (\(ws)) at equal priority \(loser.rule.priority)"
        }
        if loser.match!.reversed != winner.match!.reversed {
            return "a derived reverse match loses to a direct match at equal priority \(loser.rule.priority) and specificity (\(ls))"
        }
        let order = loser.rule.order == winner.rule.order
            ? "same order \(loser.rule.order), declared later in the rule list"
            : "order \(loser.rule.order) after \(winner.rule.order)"
        return "conflict: same priority \(loser.rule.priority) and specificity (\(ls)); lost the stable tie-break (\(order))"
    }
}
