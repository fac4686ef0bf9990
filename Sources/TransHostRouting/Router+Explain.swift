import TransHostCoordinators

extension Router {
    /// The `route --explain` text: the query, the outcome, any conflict, then every candidate in
    /// `RouteDecision.candidates` order with its rule and reason. Deterministic for the same input.
    func _explain(
        _ query: RouteQuery,
        winner: RouteCandidate?,
        candidates: [RouteCandidate],
        matchedCount: Int,
        conflicts: [RouteCandidate]
    ) -> [String] {
        var lines = ["route \(query.summary)"]
        if query.operation.container != query.container {
            lines.append("note: \(query.operation.rawValue) normally happens in a \(query.operation.container.rawValue) container, not \(query.container.rawValue)")
        }
        lines.append("\(candidates.count) rule(s), \(matchedCount) matched")
        if let winner {
            let how = winner.reversed ? " via the derived reverse operation" : ""
            var line = "winner: \(winner.rule.label)\(how)"
            if let interaction = winner.rule.interaction { line += ", interaction \(interaction)" }
            if let reason = winner.rule.unusableReason { line += ", but its plugin is not usable, so the host default transition runs: \(reason)" }
            lines.append(line)
        } else if candidates.isEmpty {
            lines.append("winner: none (no routing rules are declared); the host default transition runs")
        } else {
            lines.append("winner: none (no rule matched); the host default transition runs")
        }
        if let winner, !conflicts.isEmpty {
            let names = conflicts.map(\.rule.label).joined(separator: ", ")
            lines.append("conflict: \(conflicts.count) other rule(s) tie with the winner on priority \(winner.rule.priority) and specificity (\(winner.specificity!)); the stable tie-break (lowest order) chose \(winner.rule.label) over \(names)")
        }
        for (number, candidate) in candidates.enumerated() {
            let status: String
            if let reason = candidate.rule.unusableReason {
                status = "not usable: \(reason)"
            } else if !candidate.matched {
                status = "no match"
            } else if number == 0 {
                status = "won"
            } else {
                status = "lost"
            }
            lines.append("  #\(number + 1) [\(status)] \(candidate.rule.label): \(candidate.rule.summary)")
            lines.append("      \(candidate.reason)")
        }
        return lines
    }
}
