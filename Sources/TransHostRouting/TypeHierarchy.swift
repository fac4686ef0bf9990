/// The controller class tree as declared by a scenario: each type names its superclass.
///
/// Routing matches like `isKindOfClass`: a query type matches a rule type when the rule type is the
/// query type itself or one of its ancestors. Types that were never declared have no superclass,
/// so they are only kind-of themselves.
public struct TypeHierarchy: Sendable {
    private let superclasses: [String: String]

    /// - Parameter superclasses: type name -> its direct superclass name.
    public init(superclasses: [String: String]) {
        self.superclasses = superclasses
    }

    /// The direct superclass of `type`, if declared.
    public func superclass(of type: String) -> String? {
        superclasses[type]
    }

    /// `[type, superclass, superclass's superclass, ...]`.
    ///
    /// A declared cycle (A -> B -> A) cannot loop: the walk stops before the first repeated name.
    /// - Complexity: O(depth).
    public func ancestry(of type: String) -> [String] {
        var chain = [type]
        var seen: Set<String> = [type]
        var current = type
        while let parent = superclasses[current], !seen.contains(parent) {
            chain.append(parent)
            seen.insert(parent)
            current = parent
        }
        return chain
    }

    /// How many superclass steps separate `type` from `ancestor`: 0 when they are the same type,
    /// 1 when `ancestor` is the direct superclass, and so on; nil when `type` is not a kind of `ancestor`.
    public func distance(from type: String, to ancestor: String) -> Int? {
        ancestry(of: type).firstIndex(of: ancestor)
    }
}
