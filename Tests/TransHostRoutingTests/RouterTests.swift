import XCTest
import TransHostCoordinators
@testable import TransHostRouting

/// Routing outcomes an app team would notice: which animator runs for a transition, and what
/// `route --explain` tells them.
final class RouterTests: XCTestCase {
    /// UIViewController <- BaseList <- ProductList <- FeaturedProductList
    /// UIViewController <- Detail <- ProductDetail
    /// UIViewController <- Home, CompanySearch, Other
    let types = TypeHierarchy(superclasses: [
        "BaseList": "UIViewController",
        "ProductList": "BaseList",
        "FeaturedProductList": "ProductList",
        "Detail": "UIViewController",
        "ProductDetail": "Detail",
        "Home": "UIViewController",
        "CompanySearch": "UIViewController",
        "Other": "UIViewController",
    ])

    /// A rule whose animator id names it, declared at `order`.
    func rule(
        _ animator: String,
        _ container: RouteContainer = .only(.navigation),
        _ operations: [TransitionOperation] = [.push],
        from: String,
        to: String,
        priority: Int = 0,
        reverse: Bool = true,
        order: Int
    ) -> RouteRule {
        RouteRule(plugin: "p", animator: animator, container: container, operations: operations,
                  from: from, to: to, priority: priority, reverse: reverse,
                  source: "m.json animators[\(order)].routes[0]", order: order)
    }

    func resolve(_ rules: [RouteRule], _ container: ContainerKind = .navigation, _ op: TransitionOperation = .push,
                 _ from: String, _ to: String) -> RouteDecision {
        Router(rules: rules, types: types).resolve(RouteQuery(container: container, operation: op, from: from, to: to))
    }

    // MARK: Specificity

    func testSubclassRuleBeatsWildcard() {
        let decision = resolve([
            rule("wild", from: "*", to: "*", order: 0),
            rule("lists", from: "BaseList", to: "Detail", order: 1),
        ], .navigation, .push, "ProductList", "ProductDetail")
        XCTAssertEqual(decision.winner?.rule.animator, "lists")
        XCTAssertEqual(decision.winner?.specificity, RouteSpecificity(fromDistance: 1, toDistance: 1))
        XCTAssertEqual(decision.candidates.map(\.rule.animator), ["lists", "wild"])
        XCTAssertTrue(decision.candidates[1].matched)
        XCTAssertTrue(decision.candidates[1].reason.contains("lost to p/lists"), decision.candidates[1].reason)
        XCTAssertTrue(decision.candidates[1].reason.contains("less specific"), decision.candidates[1].reason)
        XCTAssertTrue(decision.conflicts.isEmpty)
    }

    func testExactPairBeatsSubclassRule() {
        let decision = resolve([
            rule("lists", from: "BaseList", to: "Detail", order: 0),
            rule("exact", from: "ProductList", to: "ProductDetail", order: 1),
        ], .navigation, .push, "ProductList", "ProductDetail")
        XCTAssertEqual(decision.winner?.rule.animator, "exact")
        XCTAssertEqual(decision.winner?.specificity?.isExactPair, true)
        XCTAssertTrue(decision.winner!.reason.contains("won: more specific (exact pair)"), decision.winner!.reason)
    }

    func testNearerSupertypeBeatsFartherOne() {
        let decision = resolve([
            rule("far", from: "UIViewController", to: "ProductDetail", order: 0),
            rule("near", from: "BaseList", to: "ProductDetail", order: 1),
        ], .navigation, .push, "FeaturedProductList", "ProductDetail")
        XCTAssertEqual(decision.winner?.rule.animator, "near")
        XCTAssertEqual(decision.candidates.map(\.specificity?.fromDistance), [2, 3])
    }

    func testNamedSupertypesBeatOneWildcardSideWhichBeatsWildcardPair() {
        let decision = resolve([
            rule("both-wild", from: "*", to: "*", order: 0),
            rule("half", from: "Home", to: "*", order: 1),
            rule("supers", from: "UIViewController", to: "UIViewController", order: 2),
        ], .navigation, .push, "Home", "Other")
        XCTAssertEqual(decision.candidates.map(\.rule.animator), ["supers", "half", "both-wild"])
        XCTAssertEqual(decision.candidates.map { $0.specificity?.description }, ["from supertype +1, to supertype +1", "from exact, to *", "wildcard pair"])
    }

    // MARK: Containers and operations

    func testTabSelectRulesRouteInBothDirections() {
        let rules = [
            rule("tabs", .only(.tab), [.select], from: "Home", to: "Other", order: 0),
            rule("nav", .only(.navigation), [], from: "Home", to: "Other", order: 1),
        ]
        let forward = resolve(rules, .tab, .select, "Home", "Other")
        XCTAssertEqual(forward.winner?.rule.animator, "tabs")
        XCTAssertEqual(forward.winner?.reversed, false)
        XCTAssertEqual(forward.candidates.filter(\.matched).count, 1, "the navigation rule must not serve a tab")

        let back = resolve(rules, .tab, .select, "Other", "Home")
        XCTAssertEqual(back.winner?.rule.animator, "tabs")
        XCTAssertEqual(back.winner?.reversed, true, "select is its own reverse")

        let anyTabOp = resolve([rule("tab-any", .only(.tab), [], from: "*", to: "*", order: 0)], .tab, .select, "Home", "Other")
        XCTAssertEqual(anyTabOp.winner?.rule.animator, "tab-any", "empty operations means every operation of the container")
    }

    func testPushRuleServesPopWithSwappedTypesIncludingSubclasses() {
        let rules = [rule("slide", from: "BaseList", to: "Detail", order: 0)]
        let pop = resolve(rules, .navigation, .pop, "ProductDetail", "FeaturedProductList")
        XCTAssertEqual(pop.winner?.rule.animator, "slide")
        XCTAssertEqual(pop.winner?.reversed, true)
        XCTAssertEqual(pop.winner?.specificity, RouteSpecificity(fromDistance: 1, toDistance: 2))
        XCTAssertTrue(pop.explanation.contains { $0.contains("via the derived reverse operation") }, pop.explanation.joined(separator: "\n"))

        // Not swapped: pop from the list to the detail is not the reverse of this push.
        XCTAssertNil(resolve(rules, .navigation, .pop, "ProductList", "ProductDetail").winner)

        let present = [rule("sheet", .only(.modal), [.present], from: "Home", to: "Detail", order: 0)]
        XCTAssertEqual(resolve(present, .modal, .dismiss, "Detail", "Home").winner?.reversed, true)
    }

    func testReverseFalseDisablesTheDerivedOperation() {
        let rules = [rule("one-way", from: "Home", to: "Detail", reverse: false, order: 0)]
        XCTAssertEqual(resolve(rules, .navigation, .push, "Home", "Detail").winner?.rule.animator, "one-way")
        let pop = resolve(rules, .navigation, .pop, "Detail", "Home")
        XCTAssertNil(pop.winner)
        XCTAssertTrue(pop.candidates[0].reason.contains("reverse: false"), pop.candidates[0].reason)
    }

    func testPopRuleMatchesDirectlyDerivesNothingAndBeatsADerivedReverse() {
        let rules = [
            rule("push-derived", from: "Home", to: "Detail", order: 0),
            rule("pop-stated", .only(.navigation), [.pop], from: "Detail", to: "Home", order: 1),
        ]
        let pop = resolve(rules, .navigation, .pop, "Detail", "Home")
        XCTAssertEqual(pop.winner?.rule.animator, "pop-stated")
        XCTAssertEqual(pop.winner?.reversed, false)
        XCTAssertTrue(pop.conflicts.isEmpty, "direct over derived is a stated rule, not a tie-break")
        XCTAssertTrue(pop.candidates[1].reason.contains("derived reverse match loses to a direct match"), pop.candidates[1].reason)

        // A pop rule does not serve push in either direction.
        let popOnly = [rule("pop-stated", .only(.navigation), [.pop], from: "Detail", to: "Home", order: 0)]
        XCTAssertNil(resolve(popOnly, .navigation, .push, "Home", "Detail").winner)
        XCTAssertNil(resolve(popOnly, .navigation, .push, "Detail", "Home").winner)
    }

    func testAnyContainerServesEveryContainer() {
        let rules = [rule("everywhere", .any, [], from: "Home", to: "Other", order: 0)]
        for (container, op) in [(ContainerKind.navigation, TransitionOperation.push), (.tab, .select), (.modal, .present)] {
            XCTAssertEqual(resolve(rules, container, op, "Home", "Other").winner?.rule.animator, "everywhere", "\(container) \(op)")
        }
        let presentsOnly = [rule("presents", .any, [.present], from: "Home", to: "Other", order: 0)]
        XCTAssertEqual(resolve(presentsOnly, .modal, .dismiss, "Other", "Home").winner?.reversed, true)
        XCTAssertNil(resolve(presentsOnly, .navigation, .push, "Home", "Other").winner)
    }

    // MARK: Precedence

    func testPriorityBeatsSpecificity() {
        let decision = resolve([
            rule("exact", from: "Home", to: "Other", order: 0),
            rule("loud-wildcard", from: "*", to: "*", priority: 5, order: 1),
        ], .navigation, .push, "Home", "Other")
        XCTAssertEqual(decision.winner?.rule.animator, "loud-wildcard")
        XCTAssertTrue(decision.candidates[1].reason.contains("lost to p/loud-wildcard [m.json animators[1].routes[0]]: lower priority 0 < 5"), decision.candidates[1].reason)
        XCTAssertTrue(decision.winner!.reason.contains("higher priority 5 > 0"), decision.winner!.reason)
    }

    func testTiesAreReportedAsConflictsWithTheStableWinner() {
        let decision = resolve([
            rule("seven", from: "Home", to: "*", order: 7),
            rule("three", from: "Home", to: "*", order: 3),
            rule("five", from: "Home", to: "*", order: 5),
            rule("weaker", from: "*", to: "*", order: 1),
        ], .navigation, .push, "Home", "Other")
        XCTAssertEqual(decision.winner?.rule.animator, "three")
        XCTAssertEqual(decision.conflicts.map(\.rule.animator), ["five", "seven"])
        XCTAssertTrue(decision.winner!.reason.contains("stable tie-break"), decision.winner!.reason)
        XCTAssertTrue(decision.conflicts[0].reason.contains("lost the stable tie-break (order 5 after 3)"), decision.conflicts[0].reason)
        XCTAssertTrue(decision.explanation.contains { $0.hasPrefix("conflict: 2 other rule(s)") }, decision.explanation.joined(separator: "\n"))

        // Same stated order: the position in the rules array decides, and it is still a conflict.
        let sameOrder = resolve([rule("first", from: "Home", to: "Other", order: 0), rule("second", from: "Home", to: "Other", order: 0)],
                                .navigation, .push, "Home", "Other")
        XCTAssertEqual(sameOrder.winner?.rule.animator, "first")
        XCTAssertEqual(sameOrder.conflicts.map(\.rule.animator), ["second"])
    }

    func testDistancesOnDifferentSidesWithTheSameSumAreAConflict() {
        let decision = resolve([
            rule("to-exact", from: "BaseList", to: "ProductDetail", order: 1),
            rule("balanced", from: "ProductList", to: "Detail", order: 0),
        ], .navigation, .push, "FeaturedProductList", "ProductDetail")
        XCTAssertEqual(decision.winner?.rule.animator, "balanced")
        XCTAssertEqual(decision.conflicts.map(\.rule.animator), ["to-exact"])
    }

    // MARK: No match

    func testNoMatchingRuleMeansTheHostDefaultTransition() {
        let rules = [rule("search", from: "Home", to: "CompanySearch", order: 0)]
        let decision = resolve(rules, .navigation, .push, "Other", "CompanySearch")
        XCTAssertNil(decision.winner)
        XCTAssertTrue(decision.usesDefaultTransition)
        XCTAssertTrue(decision.conflicts.isEmpty)
        XCTAssertTrue(decision.explanation.contains { $0.contains("the host default transition runs") })
        XCTAssertTrue(decision.candidates[0].reason.contains("from type Other is not a kind of Home"), decision.candidates[0].reason)

        let empty = resolve([], .navigation, .push, "Home", "Other")
        XCTAssertNil(empty.winner)
        XCTAssertTrue(empty.explanation.contains { $0.contains("no routing rules are declared") })
    }

    func testOnlyTheContainerDifferingStillMeansNoMatch() {
        let rules = [rule("nav-anything", .only(.navigation), [], from: "*", to: "*", order: 0)]
        let decision = resolve(rules, .modal, .present, "Home", "Other")
        XCTAssertNil(decision.winner)
        XCTAssertEqual(decision.candidates[0].reason, "no match: container modal is not the rule's container navigation")
    }

    // MARK: Explanation and ordering

    func testExplanationMentionsEveryCandidate() {
        let rules = [
            rule("a", from: "Home", to: "Other", order: 0),
            rule("b", from: "*", to: "*", order: 1),
            rule("c", .only(.tab), [.select], from: "Home", to: "Other", order: 2),
            rule("d", from: "Other", to: "Home", reverse: false, order: 3),
        ]
        let decision = resolve(rules, .navigation, .push, "Home", "Other")
        let text = decision.explanation.joined(separator: "\n")
        XCTAssertEqual(decision.candidates.count, 4)
        for candidate in decision.candidates {
            XCTAssertTrue(text.contains(candidate.rule.label), "missing \(candidate.rule.label) in\n\(text)")
            XCTAssertTrue(text.contains(candidate.reason), "missing reason \(candidate.reason) in\n\(text)")
        }
        XCTAssertTrue(text.contains("[won] p/a"), text)
        XCTAssertTrue(text.contains("[lost] p/b"), text)
        XCTAssertTrue(text.contains("[no match] p/c"), text)
        XCTAssertEqual(decision.explanation.first, "route navigation push Home -> Other")
    }

    func testCandidatesListMatchedInPrecedenceThenUnmatchedInDeclarationOrder() {
        let decision = resolve([
            rule("miss-late", from: "Other", to: "Other", order: 9),
            rule("weak", from: "*", to: "*", order: 4),
            rule("miss-early", from: "Detail", to: "Other", order: 2),
            rule("strong", from: "Home", to: "Other", order: 6),
        ], .navigation, .push, "Home", "Other")
        XCTAssertEqual(decision.candidates.map(\.rule.animator), ["strong", "weak", "miss-early", "miss-late"])
        XCTAssertEqual(decision.candidates.map(\.matched), [true, true, false, false])
        XCTAssertTrue(decision.candidates.allSatisfy { ($0.specificity == nil) == !$0.matched })
    }

    // MARK: Seed 002: MainTransitioningDelegate routes Home <-> CompanySearch, nil otherwise

    func testSeed002HomeToCompanySearchAndBackOnly() {
        let rules = [RouteRule(plugin: "snapshot-search", animator: "home-search", container: .only(.navigation),
                               operations: [.push], from: "Home", to: "CompanySearch",
                               source: "Plugins/snapshot-search/manifest.json animators[0].routes[0]")]
        let push = resolve(rules, .navigation, .push, "Home", "CompanySearch")
        XCTAssertEqual(push.winner?.rule.animator, "home-search")
        XCTAssertEqual(push.winner?.reversed, false)

        let pop = resolve(rules, .navigation, .pop, "CompanySearch", "Home")
        XCTAssertEqual(pop.winner?.rule.animator, "home-search")
        XCTAssertEqual(pop.winner?.reversed, true)
        XCTAssertEqual(pop.winner?.specificity?.isExactPair, true)

        let other = resolve(rules, .navigation, .push, "Home", "Other")
        XCTAssertNil(other.winner, "every other pair gets the default transition, as the delegate returned nil")
        XCTAssertTrue(other.candidates[0].reason.contains("to type Other is not a kind of CompanySearch"), other.candidates[0].reason)
    }

    // MARK: Building blocks

    func testTypeHierarchyAncestryDistanceAndCycles() {
        XCTAssertEqual(types.ancestry(of: "FeaturedProductList"), ["FeaturedProductList", "ProductList", "BaseList", "UIViewController"])
        XCTAssertEqual(types.distance(from: "FeaturedProductList", to: "BaseList"), 2)
        XCTAssertEqual(types.distance(from: "Home", to: "Home"), 0)
        XCTAssertNil(types.distance(from: "BaseList", to: "ProductList"), "a superclass is not a kind of its subclass")
        XCTAssertEqual(types.ancestry(of: "Undeclared"), ["Undeclared"])

        let cyclic = TypeHierarchy(superclasses: ["A": "B", "B": "C", "C": "A"])
        XCTAssertEqual(cyclic.ancestry(of: "A"), ["A", "B", "C"])
        XCTAssertNil(cyclic.distance(from: "A", to: "D"))
    }

    func testRouteContainerManifestNames() {
        XCTAssertEqual(RouteContainer(manifestName: "navigation"), .only(.navigation))
        XCTAssertEqual(RouteContainer(manifestName: "tab"), .only(.tab))
        XCTAssertEqual(RouteContainer(manifestName: "modal"), .only(.modal))
        XCTAssertEqual(RouteContainer(manifestName: "any"), .any)
        XCTAssertNil(RouteContainer(manifestName: "Navigation"))
        XCTAssertNil(RouteContainer(manifestName: "sheet"))
    }

    func testRuleProblemsNameImpossibleOperations() {
        let bad = RouteRule(plugin: "p", animator: "a", container: .only(.tab), operations: [.push], from: "A", to: "B", source: "m.json animators[0].routes[1]")
        XCTAssertEqual(bad.problems, ["m.json animators[0].routes[1]: operation push never happens in a tab container, so it can never match"])
        XCTAssertEqual(rule("ok", from: "A", to: "B", order: 0).problems, [])
    }
}
