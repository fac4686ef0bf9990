/// "Did you mean" suggestions for misspelt keys, commands, options and plugin names.
public enum Spelling {
    /// The candidate nearest to `word` by edit distance, when it is near enough to be a likely
    /// typo (at most a third of the word's length, at least 1, and less than the word itself).
    public static func suggestion(for word: String, among candidates: some Sequence<String>) -> String? {
        let w = Array(word.lowercased().unicodeScalars)
        let allowed = max(1, w.count / 3)
        var best: (String, Int)?
        for c in candidates where c != word {
            let d = distance(w, Array(c.lowercased().unicodeScalars))
            if d <= allowed, d < w.count, best.map({ d < $0.1 }) ?? true { best = (c, d) }
        }
        return best?.0
    }

    /// " (did you mean \"x\"?)", or "" when nothing is close.
    public static func hint(for word: String, among candidates: some Sequence<String>) -> String {
        suggestion(for: word, among: candidates).map { "; did you mean \"\($0)\"?" } ?? ""
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
    /// neighbours ("scirpt" -> "script" is one edit).
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var prev2 = [Int](repeating: 0, count: b.count + 1)
        var prev = Array(0...b.count)
        var cur = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            cur[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { cur[j] = min(cur[j], prev2[j - 2] + 1) }
            }
            (prev2, prev, cur) = (prev, cur, prev2)
        }
        return prev[b.count]
    }
}
