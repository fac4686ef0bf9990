import TransHostScenario
import TransHostSupport
import XCTest

/// `run --expect` counts every difference, however many it lists.
final class TraceComparisonTests: XCTestCase {
    func trace(_ scenario: String, frames: Int) -> JSONValue {
        let views: JSONValue = .array([["id": "v1", "name": "root", "alpha": 1]])
        return ["format": "transhost-trace/1", "scenario": .string(scenario),
                "transitions": .array([["container": "navigation", "operation": "push", "from": "A", "to": "B",
                                        "frames": .array((0..<frames).map { k in ["t": .number(Double(k)), "views": views] })]])]
    }

    func testTheTotalCountsEveryDifferenceAndTheListStopsAtTheLimit() {
        var expected = trace("s", frames: 80)
        var actual = trace("s", frames: 80)
        func alpha(_ v: Double) -> JSONValue { .array([["id": "v1", "name": "root", "alpha": .number(v)]]) }
        if case .object(var root) = actual, case .array(var ts)? = root["transitions"], case .object(var t0) = ts[0] {
            t0["frames"] = .array((0..<80).map { k in ["t": .number(Double(k)), "views": alpha(0.5)] })
            ts[0] = .object(t0); root["transitions"] = .array(ts); actual = .object(root)
        }
        let r = TraceComparison.report(actual, expected: expected, limit: 50)
        XCTAssertEqual(r.total, 80)
        XCTAssertEqual(r.listed.count, 50)
        XCTAssertEqual(r.unlisted, 30)
        XCTAssertFalse(r.matches)
        expected = actual
        XCTAssertTrue(TraceComparison.report(actual, expected: expected).matches)
    }

    /// Differences are summed up per view and field before the detail: which parts, on which
    /// frames, by how much at most.
    func testDifferencesAreSummarisedPerViewAndField() {
        func transform(_ s: Double) -> JSONValue { .array([.number(s), 0, 0, 0, 0, .number(s), 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]) }
        func make(_ scale: (Int) -> Double, alpha: (Int) -> Double) -> JSONValue {
            ["format": "transhost-trace/1", "scenario": "s",
             "transitions": .array([["container": "navigation", "operation": "push", "from": "A", "to": "B",
                                     "frames": .array((0..<16).map { k in
                                         ["t": .number(Double(k) / 60), "views": .array([
                                             ["id": "v2", "name": "A", "transform": transform(scale(k)), "alpha": 1],
                                             ["id": "v3", "name": "B", "transform": transform(1), "alpha": .number(alpha(k))]])]
                                     })]])]
        }
        let expected = make({ 1 - 0.9 * Double($0) / 15 }, alpha: { Double($0) / 15 })
        let actual = make({ k in k == 0 ? 1 : 1 - 0.5 * Double(k) / 15 }, alpha: { k in [3, 4, 5, 9].contains(k) ? 0.5 : Double(k) / 15 })
        let r = TraceComparison.report(actual, expected: expected, limit: 5)
        XCTAssertEqual(r.summary.map(\.description), [
            "transition 0 (navigation push A -> B), view v2 (A): transform m11/m22 frames 1\u{2013}15, max \u{0394} 0.4",
            "transition 0 (navigation push A -> B), view v3 (B): alpha frames 3\u{2013}5, 9, max \u{0394} 0.3",
        ])
        XCTAssertEqual(r.total, 15 + 4, "the summary covers differences past the listing limit")
        XCTAssertEqual(r.listed.count, 5)
    }
}
