/// How closely a matched rule names the query's types; greater is more specific.
///
/// Each side (from, to) is either a wildcard (`*`) or a type at some distance from the query
/// type: 0 when the rule names the query type exactly, 1 when it names the direct superclass,
/// and so on. Sides are compared as a whole, in this order:
///
/// 1. fewer wildcard sides is more specific (0, then 1, then 2): a rule that names both types,
///    even distant supertypes, beats one exact side plus a wildcard, which beats `* -> *`;
/// 2. then a smaller sum of distances over the named sides is more specific: the exact pair
///    (sum 0) is best, then nearer supertypes.
///
/// Two specificities with the same wildcard count and distance sum are equal, even when the
/// distances sit on different sides (from +2/to exact equals from +1/to +1): neither rule is
/// more specific, so the router reports them as a conflict rather than inventing a preference.
/// `==` follows this ranking, not the individual fields.
public struct RouteSpecificity: Comparable, Sendable, CustomStringConvertible {
    /// Superclass steps from the query's from-type to the rule's from-type; nil for a wildcard.
    public let fromDistance: Int?
    /// Superclass steps from the query's to-type to the rule's to-type; nil for a wildcard.
    public let toDistance: Int?

    public init(fromDistance: Int?, toDistance: Int?) {
        self.fromDistance = fromDistance
        self.toDistance = toDistance
    }

    /// How many sides are `*` (0...2).
    public var wildcardCount: Int {
        (fromDistance == nil ? 1 : 0) + (toDistance == nil ? 1 : 0)
    }

    /// Sum of the distances of the named (non-wildcard) sides.
    public var distanceSum: Int {
        (fromDistance ?? 0) + (toDistance ?? 0)
    }

    /// True when both sides name the query types exactly.
    public var isExactPair: Bool {
        fromDistance == 0 && toDistance == 0
    }

    public static func < (lhs: RouteSpecificity, rhs: RouteSpecificity) -> Bool {
        // Less specific: more wildcards, or as many wildcards and farther supertypes.
        if lhs.wildcardCount != rhs.wildcardCount { return lhs.wildcardCount > rhs.wildcardCount }
        return lhs.distanceSum > rhs.distanceSum
    }

    public static func == (lhs: RouteSpecificity, rhs: RouteSpecificity) -> Bool {
        lhs.wildcardCount == rhs.wildcardCount && lhs.distanceSum == rhs.distanceSum
    }

    /// `exact pair`, `from exact, to supertype +2`, `from *, to exact`, `wildcard pair`.
    public var description: String {
        if isExactPair { return "exact pair" }
        if wildcardCount == 2 { return "wildcard pair" }
        return "from \(Self.side(fromDistance)), to \(Self.side(toDistance))"
    }

    private static func side(_ distance: Int?) -> String {
        switch distance {
        case nil: return "*"
        case 0?: return "exact"
        case let steps?: return "supertype +\(steps)"
        }
    }
}
