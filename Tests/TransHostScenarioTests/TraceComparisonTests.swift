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
}
