import TransHostReport
import XCTest

final class ShardTests: XCTestCase {
    func testShardsSplitJobsByNameAndTogetherHoldEachOnce() throws {
        let names = ["snapshot-search", "corner-fly", "fade-scale", "split-modal", "rotate-spring"]
        var seen: [String] = []
        for i in 1...3 {
            guard case .success(let s) = Shard.parse("\(i)/3") else { return XCTFail("\(i)/3 did not parse") }
            seen += s.select(names) { $0 }
        }
        XCTAssertEqual(seen.sorted(), names.sorted())
        // Sorted by name: corner-fly, fade-scale, rotate-spring, snapshot-search, split-modal.
        guard case .success(let first) = Shard.parse("1/3") else { return XCTFail() }
        XCTAssertEqual(first.select(names) { $0 }, ["snapshot-search", "corner-fly"], "keeps the given order within a shard")
        guard case .success(let second) = Shard.parse("2/3") else { return XCTFail() }
        XCTAssertEqual(second.select(names.reversed()) { $0 }, ["split-modal", "fade-scale"], "the order given does not move a job to another shard")
    }

    func testBadShardsSayWhatIsWrong() {
        for (text, reason) in [("0/3", "I must be from 1 to 3"), ("4/3", "I must be from 1 to 3"), ("1/0", "N must be from 1"), ("a/b", "expected I/N"), ("2", "expected I/N")] {
            guard case .failure(let e) = Shard.parse(text) else { XCTFail("\(text) parsed"); continue }
            XCTAssertTrue(e.description.contains(reason), e.description)
        }
    }
}
