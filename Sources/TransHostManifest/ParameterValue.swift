/// A value for a parameter, from a manifest default, a `--param` override, or a return value.
public enum ParameterValue: Equatable, Sendable, CustomStringConvertible {
    case int(Int64)
    case uint(UInt64)
    case float(Float)
    case double(Double)
    case bool(Bool)
    case string(String)
    case handle(UInt)

    public var description: String {
        switch self {
        case .int(let v): return String(v)
        case .uint(let v): return String(v)
        case .float(let v): return v.description
        case .double(let v): return v.description
        case .bool(let v): return v ? "true" : "false"
        case .string(let v): return v.debugDescription
        case .handle(let v): return "0x" + String(v, radix: 16)
        }
    }

    /// The value as a user would write it: numbers in their shortest form (a float parameter's
    /// 0.6 reads "0.6", not the double 0.6000000238418579), strings as they are.
    public var shortText: String {
        switch self {
        case .float(let v): return v.description
        case .double(let v): return v == v.rounded() && abs(v) < 1e15 ? String(Int64(v)) : v.description
        case .string(let v): return v
        default: return description
        }
    }

    /// "an integer", "a string": for sentences about wrong types.
    var kindWithArticle: String {
        switch self {
        case .int: return "an integer"
        case .uint: return "an unsigned integer"
        case .float: return "a float"
        case .double: return "a double"
        case .bool: return "a bool"
        case .string: return "a string"
        case .handle: return "a handle"
        }
    }

    /// The value as a Double, for range checks; nil for non-numeric values.
    var numericValue: Double? {
        switch self {
        case .int(let v): return Double(v)
        case .uint(let v): return Double(v)
        case .float(let v): return Double(v)
        case .double(let v): return v
        default: return nil
        }
    }
}
