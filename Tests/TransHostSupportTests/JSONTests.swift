import XCTest
@testable import TransHostSupport

/// The trace contract's formatting (docs/trace.md) and the reader's error positions.
final class JSONWriterTests: XCTestCase {
    func testNumbersHaveAtMostSixDecimalsAndNoTrailingZeros() {
        XCTAssertEqual(JSONWriter.format(0.25), "0.25")
        XCTAssertEqual(JSONWriter.format(1), "1")
        XCTAssertEqual(JSONWriter.format(-0.0), "0")
        XCTAssertEqual(JSONWriter.format(1.0 / 3.0), "0.333333")
        XCTAssertEqual(JSONWriter.format(2.0 / 3.0), "0.666667")
        XCTAssertEqual(JSONWriter.format(-1e-7), "0", "rounds to zero, printed without a sign")
        XCTAssertEqual(JSONWriter.format(-1.5), "-1.5")
        XCTAssertEqual(JSONWriter.format(320), "320")
        XCTAssertEqual(JSONWriter.format(.nan), "0", "a NaN never reaches a trace")
        XCTAssertEqual(JSONWriter.format(.infinity), "0")
    }

    func testKeysAreSortedSoTheSameValueGivesTheSameBytes() {
        let a: JSONValue = ["b": 1, "a": ["z": true, "y": nil], "c": [0.5, 2]]
        XCTAssertEqual(JSONWriter.write(a, pretty: false), #"{"a":{"y":null,"z":true},"b":1,"c":[0.5,2]}"#)
        XCTAssertEqual(JSONWriter.write(a), JSONWriter.write(a))
    }

    /// An Output grows past its first storage without losing what it holds, and emptied it
    /// starts again.
    func testAnOutputGrowsAndEmpties() {
        var b = JSONWriter.Output(capacity: 4)
        b.string("first")
        for k in 0..<1000 { b.number(Double(k)) }
        XCTAssertTrue(b.string.hasPrefix(#""first"0123456789101112"#))
        XCTAssertTrue(b.string.hasSuffix("997998999"))
        XCTAssertEqual(b.bytes.count, 7 + 10 + 90 * 2 + 900 * 3)
        b.removeAll()
        b.newline()
        XCTAssertEqual(b.bytes, [UInt8(ascii: "\n")])
    }

    func testStringsAreEscaped() {
        XCTAssertEqual(JSONWriter.write(.string("a\"b\\c\n\u{1}é"), pretty: false), #""a\"b\\c\n\u0001é""#)
    }

    func testNumbersKeepTheirLeadingFractionZerosAndLargeValues() {
        XCTAssertEqual(JSONWriter.format(0.05), "0.05")
        XCTAssertEqual(JSONWriter.format(-0.000001), "-0.000001")
        XCTAssertEqual(JSONWriter.format(10.100001), "10.100001")
        XCTAssertEqual(JSONWriter.format(1_234_567.5), "1234567.5")
        XCTAssertEqual(JSONWriter.format(1e20), "1e+20", "past 9e9 the value is printed whole, as Swift prints it")
    }

    /// Written member by member (as traces are), a document has the bytes of its tree.
    func testAnObjectWrittenByMembersHasTheTreesBytes() {
        let frames: [JSONValue] = [["t": 0, "views": [["id": "v1", "z": 0]]], ["t": 0.016667, "views": []]]
        let tree: JSONValue = ["name": "a\tb", "frames": .array(frames), "empty": [], "flat": [1, 2.5], "none": [:]]
        for pretty in [true, false] {
            var out = JSONWriter.Output()
            out.object(["empty", "flat", "frames", "name", "none"], indent: pretty ? 0 : nil) { out, key, indent in
                if key == "frames" {
                    out.array(count: frames.count, indent: indent) { out, k, indent in out.value(frames[k], indent: indent) }
                } else {
                    out.value(tree[key]!, indent: indent)
                }
            }
            if pretty { out.newline() }
            XCTAssertEqual(out.string, JSONWriter.write(tree, pretty: pretty))
            var vector = JSONWriter.Output(), tree = JSONWriter.Output(), empty = JSONWriter.Output()
            vector.numbers([1, 2.5, -0.000001], indent: pretty ? 0 : nil)
            tree.value([1, 2.5, -0.000001], indent: pretty ? 0 : nil)
            empty.numbers([], indent: pretty ? 0 : nil)
            XCTAssertEqual(vector.string, tree.string)
            XCTAssertEqual(vector.string, pretty ? "[1, 2.5, -0.000001]" : "[1,2.5,-0.000001]")
            XCTAssertEqual(empty.string, "[]")
        }
    }

    func testWhatIsWrittenReadsBack() throws {
        let v: JSONValue = ["name": "fade-scale", "frames": [["t": 0, "alpha": 0.549926]], "ok": false]
        XCTAssertEqual(try JSONParser.parse(JSONWriter.write(v)), v)
    }
}

final class JSONParserTests: XCTestCase {
    func position(_ text: String) -> (Int, Int)? {
        do { _ = try JSONParser.parse(text); return nil } catch let e as JSONSyntaxError { return (e.line, e.column) } catch { return nil }
    }

    func testErrorsNameTheLineAndColumn() {
        XCTAssertEqual(position("{\n  \"a\": 1,\n  \"b\" 2\n}").map { [$0.0, $0.1] }, [3, 7])
        XCTAssertEqual(position("[1, 2,]").map { [$0.0, $0.1] }, [1, 7])
        XCTAssertEqual(position("{\"a\": tru}").map { [$0.0, $0.1] }, [1, 7])
    }

    func testStrictness() {
        for bad in ["", "{", "[1 2]", "{\"a\":1,}", "01", "1.", "\"\\x\"", "{\"a\":1, \"a\":2}", "nul", "[1] 2", "\"\u{1}\""] {
            XCTAssertThrowsError(try JSONParser.parse(bad), "accepted \(bad.debugDescription)")
        }
    }

    func testValues() throws {
        XCTAssertEqual(try JSONParser.parse(#"{"a": [1, -2.5e2, true, null, "\u00e9\ud83d\ude00"]}"#),
                       ["a": [1, -250, true, nil, "é😀"]])
    }
}
