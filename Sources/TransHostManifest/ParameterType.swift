// Typed parameters of native entry points that a plugin manifest declares (DESIGN.md section 4,
// libffi bullet), e.g. an animator's `configure(double damping, double velocity)`.
//
// `ParameterType` is the whitelist: only these types can cross into plugin code through libffi.
// There is deliberately no case for structs by value, varargs, long double or callbacks.

/// A whitelisted C parameter (or return) type. The raw values are the names used in manifests.
public enum ParameterType: String, CaseIterable, Sendable {
    case int8, int16, int32, int64
    case uint8, uint16, uint32, uint64
    case float, double
    /// C `_Bool` (one byte on the supported ABIs).
    case bool
    /// UTF-8, NUL-terminated `const char *`; valid only for the duration of the call.
    case string
    /// An opaque pointer (`void *`), carried as its address.
    case handle

    /// Looks up a manifest type name. Anything outside the whitelist is refused with a sentence
    /// that lists what is allowed.
    public init(manifestName: String) throws {
        guard let type = ParameterType(rawValue: manifestName) else {
            let allowed = ParameterType.allCases.map(\.rawValue).joined(separator: ", ")
            throw ParameterError(
                parameter: nil,
                reason: "type \(manifestName.debugDescription) is not supported for native entry points; allowed types are \(allowed) (no structs by value, no varargs)"
            )
        }
        self = type
    }

    public var isSignedInteger: Bool {
        switch self {
        case .int8, .int16, .int32, .int64: return true
        default: return false
        }
    }

    public var isUnsignedInteger: Bool {
        switch self {
        case .uint8, .uint16, .uint32, .uint64: return true
        default: return false
        }
    }

    public var isInteger: Bool { isSignedInteger || isUnsignedInteger }

    public var isFloatingPoint: Bool { self == .float || self == .double }

    /// Integers and floating point: the types that `min`/`max` apply to.
    public var isNumeric: Bool { isInteger || isFloatingPoint }

    /// The representable range of a signed integer type.
    var signedBounds: ClosedRange<Int64>? {
        switch self {
        case .int8: return Int64(Int8.min)...Int64(Int8.max)
        case .int16: return Int64(Int16.min)...Int64(Int16.max)
        case .int32: return Int64(Int32.min)...Int64(Int32.max)
        case .int64: return Int64.min...Int64.max
        default: return nil
        }
    }

    /// The representable range of an unsigned integer type.
    var unsignedBounds: ClosedRange<UInt64>? {
        switch self {
        case .uint8: return 0...UInt64(UInt8.max)
        case .uint16: return 0...UInt64(UInt16.max)
        case .uint32: return 0...UInt64(UInt32.max)
        case .uint64: return 0...UInt64.max
        default: return nil
        }
    }

    /// "[-128, 127]" for integer types, nil otherwise.
    var boundsText: String? {
        if let b = signedBounds { return "[\(b.lowerBound), \(b.upperBound)]" }
        if let b = unsignedBounds { return "[\(b.lowerBound), \(b.upperBound)]" }
        return nil
    }

    /// "an int8", "a double": for sentences.
    var withArticle: String {
        switch self {
        case .int8, .int16, .int32, .int64: return "an \(rawValue)"
        default: return "a \(rawValue)"
        }
    }

    /// Converts a value to this type's canonical `ParameterValue` case when that is lossless
    /// (floating point narrowing to `float` aside), or returns the reason it cannot be.
    ///
    /// Canonical cases: signed integers -> `.int`, unsigned -> `.uint`, `float` -> `.float`,
    /// `double` -> `.double`, `bool` -> `.bool`, `string` -> `.string`, `handle` -> `.handle`.
    /// Integers are checked against the width of the C type, so nothing is ever truncated silently.
    package func coerce(_ value: ParameterValue) -> Result<ParameterValue, Reason> {
        func wrongType() -> Result<ParameterValue, Reason> {
            .failure(Reason("\(value) is \(value.kindWithArticle), not \(withArticle)"))
        }
        func outOfWidth() -> Result<ParameterValue, Reason> {
            .failure(Reason("\(value) is out of range for \(rawValue) \(boundsText ?? "")"))
        }
        switch self {
        case .int8, .int16, .int32, .int64:
            let bounds = signedBounds!
            let wide: Int64
            switch value {
            case .int(let v): wide = v
            case .uint(let u):
                guard let v = Int64(exactly: u) else { return outOfWidth() }
                wide = v
            case .double(let d):
                guard let v = Int64(exactly: d) else {
                    return d.isFinite && d == d.rounded() ? outOfWidth() : wrongType()
                }
                wide = v
            case .float(let f):
                guard let v = Int64(exactly: f) else {
                    return f.isFinite && f == f.rounded() ? outOfWidth() : wrongType()
                }
                wide = v
            default: return wrongType()
            }
            return bounds.contains(wide) ? .success(.int(wide)) : outOfWidth()

        case .uint8, .uint16, .uint32, .uint64:
            let bounds = unsignedBounds!
            let wide: UInt64
            switch value {
            case .uint(let u): wide = u
            case .int(let v):
                guard let u = UInt64(exactly: v) else { return outOfWidth() }
                wide = u
            case .double(let d):
                guard let u = UInt64(exactly: d) else {
                    return d.isFinite && d == d.rounded() ? outOfWidth() : wrongType()
                }
                wide = u
            case .float(let f):
                guard let u = UInt64(exactly: f) else {
                    return f.isFinite && f == f.rounded() ? outOfWidth() : wrongType()
                }
                wide = u
            default: return wrongType()
            }
            return bounds.contains(wide) ? .success(.uint(wide)) : outOfWidth()

        case .float:
            let d: Double
            switch value {
            case .float(let f):
                guard f.isFinite else { return .failure(Reason("\(value) is not a finite number")) }
                return .success(value)
            case .double(let x): d = x
            case .int(let v): d = Double(v)
            case .uint(let u): d = Double(u)
            default: return wrongType()
            }
            guard d.isFinite else { return .failure(Reason("\(value) is not a finite number")) }
            guard abs(d) <= Double(Float.greatestFiniteMagnitude) else {
                return .failure(Reason("\(value) does not fit in a float"))
            }
            return .success(.float(Float(d)))

        case .double:
            let d: Double
            switch value {
            case .double(let x): d = x
            case .float(let f): d = Double(f)
            case .int(let v): d = Double(v)
            case .uint(let u): d = Double(u)
            default: return wrongType()
            }
            guard d.isFinite else { return .failure(Reason("\(value) is not a finite number")) }
            return .success(.double(d))

        case .bool:
            if case .bool = value { return .success(value) }
            return wrongType()

        case .string:
            guard case .string(let s) = value else { return wrongType() }
            if s.utf8.contains(0) {
                return .failure(Reason("\(value) contains a NUL character, which a C string cannot carry"))
            }
            return .success(value)

        case .handle:
            switch value {
            case .handle: return .success(value)
            case .uint(let u):
                guard let h = UInt(exactly: u) else { return outOfWidthHandle(value) }
                return .success(.handle(h))
            case .int(let v):
                guard let h = UInt(exactly: v) else { return outOfWidthHandle(value) }
                return .success(.handle(h))
            default: return wrongType()
            }
        }
    }

    private func outOfWidthHandle(_ value: ParameterValue) -> Result<ParameterValue, Reason> {
        .failure(Reason("\(value) is not a valid address for a handle"))
    }

    /// The part of an error sentence after "parameter "x": ".
    package struct Reason: Error {
        package var text: String
        package init(_ text: String) { self.text = text }
    }
}
