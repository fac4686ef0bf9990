import XCTest
@testable import TransHostSupport

/// The one field reader every input goes through: where an error points, range-checked
/// integers, unknown keys with a suggestion.
final class JSONFieldTests: XCTestCase {
    let text = """
    {
      "name": "x",
      "count": 1e300,
      "ratio": 0.5,
      "items": [{"id": 1}, {"id": "two"}],
      "scirpt": []
    }
    """

    func doc() throws -> JSONDocument { try JSONDocument(file: "in.json", text: text) }

    func message(_ body: () throws -> Void) -> String {
        do { try body(); return "(no error)" } catch { return "\(error)" }
    }

    func testAHugeNumberWhereAnIntegerGoesIsAnErrorNamingFileLineAndField() throws {
        let o = try doc().top.object()
        XCTAssertEqual(message { _ = try o.required("count").int(in: 0...100) },
                       #"in.json:3:12: field "count": 1e+300 is out of range; use an integer from 0 to 100"#)
        XCTAssertEqual(message { _ = try o.required("ratio").int(in: 0...100) },
                       #"in.json:4:12: field "ratio": expected an integer, found 0.5"#)
        XCTAssertEqual(try o.required("ratio").number(in: 0...1), 0.5)
    }

    func testErrorsInsideArraysPointAtTheElement() throws {
        let items = try doc().top.object().required("items").array()
        XCTAssertEqual(message { _ = try items[1].object(keys: ["id"]).required("id").int(in: 0...9) },
                       #"in.json:5:31: field "items[1].id": expected an integer, found the string "two""#)
    }

    func testAMissingFieldPointsAtItsObject() throws {
        let item = try doc().top.object().required("items").array()[0].object()
        XCTAssertEqual(message { _ = try item.required("kind") }, #"in.json:5:13: field "items[0].kind": is required"#)
    }

    func testUnknownKeysAreErrorsWithASuggestion() throws {
        let m = message { _ = try doc().top.object(keys: ["name", "count", "ratio", "items", "script"]) }
        XCTAssertEqual(m, #"in.json:6:13: field "scirpt": unknown key "scirpt"; did you mean "script"? (known keys: count, items, name, ratio, script)"#)
    }

    func testWrongTypesSayWhatWasFound() throws {
        let d = try JSONDocument(file: "m.json", text: #"{"routes": "string"}"#)
        XCTAssertEqual(message { _ = try d.top.object().required("routes").array() },
                       #"m.json:1:12: field "routes": expected an array, found the string "string""#)
    }

    func testSyntaxErrorsKeepTheirPosition() {
        XCTAssertEqual(message { _ = try JSONDocument(file: "s.json", text: "{\n  \"a\" 1}") },
                       "s.json:2:7: JSON syntax error: expected ':' after key \"a\". Fix the file and run the command again.")
    }

    func testSpellingSuggestsOnlyNearNames() {
        XCTAssertEqual(Spelling.suggestion(for: "rotues", among: ["routes", "animators"]), "routes")
        XCTAssertEqual(Spelling.suggestion(for: "navigaton", among: ["navigation", "tab", "modal"]), "navigation")
        XCTAssertNil(Spelling.suggestion(for: "zzz", among: ["routes", "tab"]))
    }
}
