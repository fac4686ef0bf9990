/// `--shard I/N`: the I-th of N parts of a run, for spreading a gallery or regression run over
/// CI jobs. The jobs are sorted by name (their output directory's name, a plugin's name in the
/// gallery); the k-th of them (from 0) goes to shard k mod N + 1. The split depends only on
/// the names, so every CI job computes the same one, and the shards together hold every job once.
public struct Shard: Equatable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// 1...total.
    public let index: Int
    public let total: Int

    /// More shards than this is a mistake, not a plan.
    public static let maxTotal = 1000

    public init?(index: Int, total: Int) {
        guard (1...Self.maxTotal).contains(total), (1...total).contains(index) else { return nil }
        self.index = index; self.total = total
    }

    /// Parses "I/N"; the error says what is wrong.
    public static func parse(_ text: String) -> Result<Shard, ShardError> {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let i = Int(parts[0]), let n = Int(parts[1]) else { return .failure(ShardError(text: text, reason: "expected I/N, for example 1/3")) }
        guard (1...maxTotal).contains(n) else { return .failure(ShardError(text: text, reason: "N must be from 1 to \(maxTotal)")) }
        guard let s = Shard(index: i, total: n) else { return .failure(ShardError(text: text, reason: "I must be from 1 to \(n)")) }
        return .success(s)
    }

    /// The items of this shard, in their given order; `name` is what the split sorts by.
    public func select<T>(_ items: [T], name: (T) -> String) -> [T] {
        let order = items.indices.sorted { (name(items[$0]), $0) < (name(items[$1]), $1) }
        var mine = Set<Int>()
        for (k, i) in order.enumerated() where k % total == index - 1 { mine.insert(i) }
        return items.indices.filter(mine.contains).map { items[$0] }
    }

    public var description: String { "\(index)/\(total)" }
    public static func < (a: Shard, b: Shard) -> Bool { (a.total, a.index) < (b.total, b.index) }
}

public struct ShardError: Error, Equatable, CustomStringConvertible {
    public let text: String
    public let reason: String
    public var description: String { "--shard \"\(text)\": \(reason)" }
}
