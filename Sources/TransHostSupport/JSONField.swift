/// One value of a JSONDocument and its field path, with typed reads that fail with a
/// JSONInputError naming the file, the line:column and the field.
public struct JSONField: Sendable {
    public let document: JSONDocument
    /// "a.b[2].c"; "" for the document itself.
    public let path: String
    public let value: JSONValue

    public func error(_ reason: String) -> JSONInputError { document.error(path, reason) }

    var found: String {
        switch value {
        case .number, .bool, .null: return JSONWriter.write(value, pretty: false)
        case .string(let s): return s.count <= 40 ? "the string \(JSONWriter.write(value, pretty: false))" : "a string"
        default: return value.kindDescription
        }
    }

    /// A non-empty string.
    public func string() throws -> String {
        guard let s = value.stringValue, !s.isEmpty else {
            throw error(value.stringValue == nil ? "expected a non-empty string, found \(found)" : "must not be empty")
        }
        return s
    }

    /// Any string, empty included.
    public func text() throws -> String {
        guard let s = value.stringValue else { throw error("expected a string, found \(found)") }
        return s
    }

    public func bool() throws -> Bool {
        guard let b = value.boolValue else { throw error("expected true or false, found \(found)") }
        return b
    }

    /// A finite number in `range`. Numbers too large for a Double were refused by the parser.
    public func number(in range: ClosedRange<Double> = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude) throws -> Double {
        guard let n = value.doubleValue, n.isFinite else { throw error("expected a number, found \(found)") }
        guard range.contains(n) else { throw error("\(JSONWriter.write(value, pretty: false)) is out of range; use a number from \(Self.bound(range.lowerBound)) to \(Self.bound(range.upperBound))") }
        return n
    }

    /// An integer in `range`, checked before any conversion, so 1e300 is an error, never a trap.
    public func int(in range: ClosedRange<Int>) throws -> Int {
        guard let n = value.doubleValue, n.isFinite else { throw error("expected an integer, found \(found)") }
        guard n.rounded() == n else { throw error("expected an integer, found \(JSONWriter.write(value, pretty: false))") }
        guard n >= Double(range.lowerBound), n <= Double(range.upperBound), let i = Int(exactly: n), range.contains(i) else {
            throw error("\(Self.bound(n)) is out of range; use an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return i
    }

    /// An object whose keys are all in `keys` (nil: any key, for maps such as `types`). An
    /// unknown key is an error that suggests the nearest known one.
    public func object(keys: [String]? = nil) throws -> JSONObject {
        guard let o = value.objectValue else { throw error("expected an object, found \(found)") }
        let object = JSONObject(document: document, path: path, fields: o)
        if let keys {
            for k in o.keys.sorted() where !keys.contains(k) {
                throw object.child(k).error("unknown key \"\(k)\"\(Spelling.hint(for: k, among: keys)) (known keys: \(keys.sorted().joined(separator: ", ")))")
            }
        }
        return object
    }

    /// The elements of an array, at most `maxCount` of them.
    public func array(maxCount: Int = Int.max) throws -> [JSONField] {
        guard let a = value.arrayValue else { throw error("expected an array, found \(found)") }
        guard a.count <= maxCount else { throw error("has \(a.count) elements; at most \(maxCount) are allowed") }
        return a.enumerated().map { JSONField(document: document, path: "\(path)[\($0)]", value: $1) }
    }

    /// An array of `count` finite numbers (vectors, rectangles, samples).
    public func numbers(count: ClosedRange<Int>, expected: String) throws -> [Double] {
        guard let a = value.arrayValue, count.contains(a.count) else { throw error("expected \(expected), found \(found)") }
        return try a.enumerated().map { (i, v) in
            guard let n = v.doubleValue, n.isFinite else {
                throw JSONField(document: document, path: "\(path)[\(i)]", value: v).error("expected a number (\(expected)), found \(v.kindDescription)")
            }
            return n
        }
    }

    static func bound(_ x: Double) -> String {
        if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
        return JSONWriter.format(x) == "0" || abs(x) >= 1e15 ? "\(x)" : JSONWriter.format(x)
    }
}

/// An object of a JSONDocument. Absent keys and `null` read as absent.
public struct JSONObject: Sendable {
    public let document: JSONDocument
    public let path: String
    public let fields: [String: JSONValue]

    func child(_ key: String) -> JSONField {
        JSONField(document: document, path: path.isEmpty ? key : "\(path).\(key)", value: fields[key] ?? .null)
    }

    public var keys: [String] { fields.keys.sorted() }

    /// The field, or nil when it is absent or null.
    public subscript(key: String) -> JSONField? {
        guard let v = fields[key], v != .null else { return nil }
        return child(key)
    }

    /// The field; absent or null is an error.
    public func required(_ key: String) throws -> JSONField {
        guard let f = self[key] else { throw child(key).error("is required") }
        return f
    }

    public func error(_ reason: String) -> JSONInputError { document.error(path, reason) }
    public func error(_ key: String, _ reason: String) -> JSONInputError { child(key).error(reason) }
}
