import Foundation
import TransHostSupport

/// A checker for the part of JSON Schema (2020-12) that docs/schemas uses: `type` (one or a
/// list; "integer" is a number without a fraction), `const`, `enum`, `properties`, `required`,
/// `additionalProperties` (false or a schema), `items`, `minItems`, `maxItems`, `minLength`,
/// `pattern`, `minimum`, `maximum`, `exclusiveMinimum`, `exclusiveMaximum`, `anyOf`, `oneOf`
/// and `$ref` to `#/$defs/NAME`. Any other keyword is reported, so a schema cannot quietly rely
/// on one this checker ignores.
struct JSONSchemaChecker {
    let root: JSONValue

    static let known: Set<String> = ["$schema", "$id", "title", "description", "$defs", "type", "const", "enum", "properties",
                                     "required", "additionalProperties", "items", "minItems", "maxItems", "minLength", "pattern",
                                     "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "anyOf", "oneOf", "$ref"]

    init(schemaFile: String) throws {
        root = try JSONParser.parse(String(contentsOfFile: schemaFile, encoding: .utf8))
    }

    /// Every violation, as "PATH: what is wrong"; empty when `value` conforms.
    func check(_ value: JSONValue) -> [String] { check(value, against: root, at: "$") }

    func check(_ v: JSONValue, against schema: JSONValue, at path: String) -> [String] {
        guard case .object(let s) = schema else { return schema == .bool(false) ? ["\(path): nothing is allowed here"] : [] }
        var errors: [String] = []
        for k in s.keys where !Self.known.contains(k) { errors.append("\(path): the schema uses \(k), which this checker does not implement") }
        if case .string(let ref)? = s["$ref"] {
            let name = ref.replacingOccurrences(of: "#/$defs/", with: "")
            guard let target = root["$defs"]?[name] else { return errors + ["\(path): unknown $ref \(ref)"] }
            errors += check(v, against: target, at: path)
        }
        if let t = s["type"] {
            let allowed: [String]
            switch t {
            case .string(let one): allowed = [one]
            case .array(let many): allowed = many.compactMap { if case .string(let x) = $0 { return x }; return nil }
            default: allowed = []
            }
            if !allowed.contains(where: { Self.matches(v, type: $0) }) { errors.append("\(path): expected \(allowed.joined(separator: " or ")), found \(Self.describe(v))") }
        }
        if let c = s["const"], c != v { errors.append("\(path): expected \(JSONWriter.write(c, pretty: false)), found \(JSONWriter.write(v, pretty: false))") }
        if case .array(let options)? = s["enum"], !options.contains(v) {
            errors.append("\(path): \(JSONWriter.write(v, pretty: false)) is not one of \(options.map { JSONWriter.write($0, pretty: false) }.joined(separator: ", "))")
        }
        if case .object(let o) = v {
            let props: [String: JSONValue]
            if case .object(let p)? = s["properties"] { props = p } else { props = [:] }
            if case .array(let req)? = s["required"] {
                for case .string(let k) in req where o[k] == nil { errors.append("\(path): missing required \"\(k)\"") }
            }
            for (k, x) in o.sorted(by: { $0.key < $1.key }) {
                if let p = props[k] { errors += check(x, against: p, at: "\(path).\(k)") }
                else if let extra = s["additionalProperties"] {
                    if extra == .bool(false) { errors.append("\(path): \"\(k)\" is not allowed") }
                    else { errors += check(x, against: extra, at: "\(path).\(k)") }
                }
            }
        }
        if case .array(let a) = v {
            if let items = s["items"] { for (i, x) in a.enumerated() { errors += check(x, against: items, at: "\(path)[\(i)]") } }
            if case .number(let n)? = s["minItems"], Double(a.count) < n { errors.append("\(path): fewer than \(Int(n)) items") }
            if case .number(let n)? = s["maxItems"], Double(a.count) > n { errors.append("\(path): more than \(Int(n)) items") }
        }
        if case .string(let str) = v {
            if case .number(let n)? = s["minLength"], Double(str.count) < n { errors.append("\(path): shorter than \(Int(n))") }
            if case .string(let p)? = s["pattern"], str.range(of: p, options: .regularExpression) == nil {
                errors.append("\(path): \(str.debugDescription) does not match \(p)")
            }
        }
        if case .number(let x) = v {
            if case .number(let m)? = s["minimum"], x < m { errors.append("\(path): \(x) < minimum \(m)") }
            if case .number(let m)? = s["maximum"], x > m { errors.append("\(path): \(x) > maximum \(m)") }
            if case .number(let m)? = s["exclusiveMinimum"], x <= m { errors.append("\(path): \(x) <= exclusive minimum \(m)") }
            if case .number(let m)? = s["exclusiveMaximum"], x >= m { errors.append("\(path): \(x) >= exclusive maximum \(m)") }
        }
        if case .array(let options)? = s["anyOf"], !options.contains(where: { check(v, against: $0, at: path).isEmpty }) {
            errors.append("\(path): matches none of anyOf")
        }
        if case .array(let options)? = s["oneOf"] {
            let n = options.filter { check(v, against: $0, at: path).isEmpty }.count
            if n != 1 { errors.append("\(path): matches \(n) of oneOf, not exactly one") }
        }
        return errors
    }

    static func matches(_ v: JSONValue, type: String) -> Bool {
        switch (type, v) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array), ("object", .object): return true
        case ("integer", .number(let x)): return x == x.rounded()
        default: return false
        }
    }

    static func describe(_ v: JSONValue) -> String {
        switch v {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
