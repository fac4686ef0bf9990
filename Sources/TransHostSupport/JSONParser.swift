/// A JSON syntax error, with the 1-based line and column where it was found.
public struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
    public let line: Int
    public let column: Int
    public let reason: String
    public var description: String { "line \(line), column \(column): \(reason)" }
}

/// A strict RFC 8259 parser that reports where a document goes wrong.
///
/// Hand-written rather than Foundation's JSONSerialization, on purpose:
/// - a duplicate key is an error (JSONSerialization keeps one of the two silently, so a manifest
///   could declare two `library` values and get either);
/// - errors give line and column, and `positions` maps every value's field path to where it
///   starts, so a field error can point into the file (JSONDocument);
/// - numbers stay Doubles and objects plain dictionaries; JSONWriter then gives byte-stable
///   output, which the trace contract needs and NSNumber's bridging does not promise;
/// - the plugin validation child runs between fork and exit; it must not pull Foundation (its
///   locks and lazy initialisers) into that window, and this module imports only Glibc.
public struct JSONParser {
    private let bytes: [UInt8]
    private var i = 0
    /// Byte offset of each value, keyed by field path ("a.b[2].c"; "" is the root), when asked.
    private var offsets: [String: Int]?

    public static func parse(_ text: String) throws -> JSONValue {
        try parse(bytes: Array(text.utf8))
    }

    public static func parse(bytes: [UInt8]) throws -> JSONValue {
        var p = JSONParser(bytes: bytes)
        return try p.document()
    }

    /// Where each value starts, by field path, as byte offsets. Parsing again only to find
    /// positions keeps the common path (a valid file) free of that bookkeeping.
    public static func offsets(bytes: [UInt8]) -> [String: Int] {
        var p = JSONParser(bytes: bytes)
        p.offsets = [:]
        _ = try? p.document()
        return p.offsets ?? [:]
    }

    /// The 1-based line and column (in characters) of a byte offset.
    public static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1, column = 1
        for b in bytes[0..<max(0, min(offset, bytes.count))] {
            if b == 0x0A { line += 1; column = 1 } else if b & 0xC0 != 0x80 { column += 1 }
        }
        return (line, column)
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func document() throws -> JSONValue {
        skipWhitespace()
        let v = try value(depth: 0, path: "")
        skipWhitespace()
        if i < bytes.count { throw error("unexpected text after the end of the document") }
        return v
    }

    private func error(_ reason: String) -> JSONSyntaxError {
        let (line, column) = Self.lineAndColumn(of: i, in: bytes)
        return JSONSyntaxError(line: line, column: column, reason: reason)
    }

    private mutating func skipWhitespace() {
        while i < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[i]) { i += 1 }
    }

    private static let maxDepth = 256

    private mutating func value(depth: Int, path: String) throws -> JSONValue {
        if offsets != nil { offsets![path] = i }
        guard depth < Self.maxDepth else { throw error("nesting deeper than \(Self.maxDepth) levels") }
        guard i < bytes.count else { throw error("unexpected end of the document; a value was expected") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object(depth: depth, path: path)
        case UInt8(ascii: "["): return try array(depth: depth, path: path)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        default:
            throw error("unexpected character '\(Character(Unicode.Scalar(bytes[i])))'; a value was expected")
        }
    }

    private mutating func literal(_ word: String) throws {
        let w = Array(word.utf8)
        guard i + w.count <= bytes.count, Array(bytes[i..<i + w.count]) == w else { throw error("invalid literal; expected '\(word)'") }
        i += w.count
    }

    private mutating func object(depth: Int, path: String) throws -> JSONValue {
        i += 1
        var out: [String: JSONValue] = [:]
        skipWhitespace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(out) }
        while true {
            skipWhitespace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
                throw error(i < bytes.count && bytes[i] == UInt8(ascii: "}") ? "trailing comma before '}'" : "expected a quoted key")
            }
            let key = try string()
            if out[key] != nil { throw error("duplicate key \"\(key)\"") }
            skipWhitespace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(key)\"") }
            i += 1
            skipWhitespace()
            out[key] = try value(depth: depth + 1, path: offsets == nil ? "" : path.isEmpty ? key : "\(path).\(key)")
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of the document inside an object; expected ',' or '}'") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(out) }
            throw error("expected ',' or '}' after the value of \"\(key)\"")
        }
    }

    private mutating func array(depth: Int, path: String) throws -> JSONValue {
        i += 1
        var out: [JSONValue] = []
        skipWhitespace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(out) }
        while true {
            skipWhitespace()
            if i < bytes.count, bytes[i] == UInt8(ascii: "]") { throw error("trailing comma before ']'") }
            out.append(try value(depth: depth + 1, path: offsets == nil ? "" : "\(path)[\(out.count)]"))
            skipWhitespace()
            guard i < bytes.count else { throw error("unexpected end of the document inside an array; expected ',' or ']'") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(out) }
            throw error("expected ',' or ']' in an array")
        }
    }

    private mutating func hex4() throws -> UInt32 {
        guard i + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            guard let d = Character(Unicode.Scalar(bytes[i])).hexDigitValue else { throw error("invalid hex digit in \\u escape") }
            v = v * 16 + UInt32(d); i += 1
        }
        return v
    }

    private mutating func string() throws -> String {
        i += 1
        var out = [UInt8]()
        while true {
            guard i < bytes.count else { throw error("unterminated string") }
            let b = bytes[i]
            if b == UInt8(ascii: "\"") { i += 1; break }
            if b < 0x20 { throw error("control character in a string (escape it)") }
            if b != UInt8(ascii: "\\") { out.append(b); i += 1; continue }
            i += 1
            guard i < bytes.count else { throw error("unterminated escape") }
            let e = bytes[i]; i += 1
            switch e {
            case UInt8(ascii: "\""): out.append(0x22)
            case UInt8(ascii: "\\"): out.append(0x5C)
            case UInt8(ascii: "/"): out.append(0x2F)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if (0xD800..<0xDC00).contains(code) {
                    guard i + 2 <= bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                        throw error("unpaired surrogate in \\u escape")
                    }
                    i += 2
                    let low = try hex4()
                    guard (0xDC00..<0xE000).contains(low) else { throw error("invalid low surrogate in \\u escape") }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw error("invalid code point in \\u escape") }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            default: throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'")
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private mutating func number() throws -> Double {
        let start = i
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        func digits() -> Int { let s = i; while i < bytes.count, (0x30...0x39).contains(bytes[i]) { i += 1 }; return i - s }
        guard i < bytes.count else { throw error("incomplete number") }
        if bytes[i] == UInt8(ascii: "0") { i += 1 } else if digits() == 0 { throw error("invalid number") }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") { i += 1; if digits() == 0 { throw error("digits expected after '.'") } }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            if digits() == 0 { throw error("digits expected in exponent") }
        }
        guard let v = Double(String(decoding: bytes[start..<i], as: UTF8.self)), v.isFinite else { throw error("number out of range") }
        return v
    }
}
