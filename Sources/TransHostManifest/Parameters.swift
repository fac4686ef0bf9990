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

/// A refused parameter value or declaration. `message` is a complete sentence:
/// `parameter "damping" of plugin fade-scale: 1.7 is out of range [0, 1]`.
/// Callers that know the plugin add it with `inPlugin(_:)`.
public struct ParameterError: Error, Equatable, CustomStringConvertible {
    /// The parameter the error is about, if any.
    public let parameter: String?
    /// The plugin, when the caller has added it.
    public let plugin: String?
    /// What is wrong, without the "parameter ... :" prefix, e.g. `1.7 is out of range [0, 1]`.
    public let reason: String
    /// The whole sentence.
    public let message: String

    public init(parameter: String?, plugin: String? = nil, reason: String) {
        self.parameter = parameter
        self.plugin = plugin
        self.reason = reason
        var prefix = ""
        if let parameter { prefix = "parameter \(parameter.debugDescription)" }
        if let plugin { prefix += prefix.isEmpty ? "plugin \(plugin)" : " of plugin \(plugin)" }
        self.message = prefix.isEmpty ? reason : "\(prefix): \(reason)"
    }

    /// The same error with the plugin named in the message.
    public func inPlugin(_ plugin: String) -> ParameterError {
        ParameterError(parameter: parameter, plugin: plugin, reason: reason)
    }

    public var description: String { message }
}

/// One declared parameter of a native entry point.
public struct ParameterSpec: Equatable, Sendable {
    public var name: String
    public var type: ParameterType
    public var defaultValue: ParameterValue?
    /// Inclusive bounds; numeric types only.
    public var min: Double?
    public var max: Double?
    public var doc: String?

    public init(
        name: String, type: ParameterType, defaultValue: ParameterValue? = nil,
        min: Double? = nil, max: Double? = nil, doc: String? = nil
    ) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.min = min
        self.max = max
        self.doc = doc
    }

    private func error(_ reason: String) -> ParameterError {
        ParameterError(parameter: name, reason: reason)
    }

    /// Parses a `--param` override ("0.5", "true", "42", any string) for this spec, checking type
    /// and range.
    ///
    /// Integers: decimal with optional sign, or `0x` hexadecimal. Floating point: decimal or
    /// exponent notation, finite only. Bool: true/false, yes/no, on/off, 1/0 (any case).
    /// Handle: an address, decimal or `0x` hexadecimal. String: taken as is (no NUL).
    public func parse(_ text: String) throws -> ParameterValue {
        let trimmed = type == .string ? text : text.trimmingWhitespace()
        let quoted = text.debugDescription
        let value: ParameterValue
        switch type {
        case .int8, .int16, .int32, .int64:
            if let v = parseSignedInteger(trimmed) {
                value = .int(v)
            } else if parseUnsignedInteger(trimmed) != nil || isWholeNumberText(trimmed) {
                // A whole number too large for any Int64: beyond every signed type's width.
                throw error("\(trimmed) is out of range for \(type.rawValue) \(type.boundsText!)")
            } else {
                throw error("\(quoted) is not \(type.withArticle) (expected a whole number in \(type.boundsText!))")
            }
        case .uint8, .uint16, .uint32, .uint64:
            if let u = parseUnsignedInteger(trimmed) {
                value = .uint(u)
            } else if parseSignedInteger(trimmed) != nil || isWholeNumberText(trimmed) {
                throw error("\(trimmed) is out of range for \(type.rawValue) \(type.boundsText!)")
            } else {
                throw error("\(quoted) is not \(type.withArticle) (expected a whole number in \(type.boundsText!))")
            }
        case .float, .double:
            guard let d = Double(trimmed) else {
                throw error("\(quoted) is not \(type.withArticle) (expected a decimal number such as 0.5)")
            }
            guard d.isFinite else {
                throw error("\(quoted) is not a finite number")
            }
            value = .double(d)
        case .bool:
            switch trimmed.lowercased() {
            case "true", "yes", "on", "1": value = .bool(true)
            case "false", "no", "off", "0": value = .bool(false)
            default: throw error("\(quoted) is not a bool (expected true or false)")
            }
        case .string:
            value = .string(text)
        case .handle:
            guard let u = parseUnsignedInteger(trimmed) else {
                throw error("\(quoted) is not a handle (expected an address such as 0x1000, or 0)")
            }
            value = .uint(u)
        }
        return try check(value, shownAs: trimmed)
    }

    /// Checks a value (e.g. a manifest default) against type and range, and returns it in the
    /// type's canonical case (an integral `.double(3)` for an int32 parameter becomes `.int(3)`,
    /// `.int(1)` for a double becomes `.double(1)`).
    public func validate(_ value: ParameterValue) throws -> ParameterValue {
        try check(value, shownAs: nil)
    }

    /// The value to pass: the override (already parsed, checked again against the type and range)
    /// if given, else the validated default. A parameter with neither is refused.
    public func resolve(value: ParameterValue?) throws -> ParameterValue {
        if let value { return try validate(value) }
        if let defaultValue { return try validate(defaultValue) }
        throw error("no value: the manifest gives no default and no --param \(name)=... was given")
    }

    /// The value to pass: the override parsed if given, else the validated default. A parameter
    /// with neither is refused.
    public func resolve(override: String?) throws -> ParameterValue {
        if let override { return try parse(override) }
        if let defaultValue { return try validate(defaultValue) }
        throw error("no value: the manifest gives no default and no --param \(name)=... was given")
    }

    /// Checks the declaration itself: bounds only on numeric types, min <= max, bounds finite,
    /// and a default (if any) that satisfies the type and range.
    public func validateDeclaration() throws {
        if (min != nil || max != nil) && !type.isNumeric {
            throw error("min/max are only allowed on numeric parameters, not on \(type.withArticle)")
        }
        if let min, !min.isFinite { throw error("min \(min) is not a finite number") }
        if let max, !max.isFinite { throw error("max \(max) is not a finite number") }
        if let min, let max, min > max {
            throw error("min \(formatBound(min)) is greater than max \(formatBound(max))")
        }
        if let defaultValue {
            do {
                _ = try validate(defaultValue)
            } catch let e as ParameterError {
                throw error("default \(e.reason)")
            }
        }
    }

    private func check(_ value: ParameterValue, shownAs text: String?) throws -> ParameterValue {
        let canonical: ParameterValue
        switch type.coerce(value) {
        case .success(let v): canonical = v
        case .failure(let reason): throw error(reason.text)
        }
        guard type.isNumeric, min != nil || max != nil else { return canonical }
        let shown = text ?? value.description
        if !inRange(canonical) {
            switch (min, max) {
            case let (lo?, hi?): throw error("\(shown) is out of range [\(formatBound(lo)), \(formatBound(hi))]")
            case let (lo?, nil): throw error("\(shown) is out of range (minimum \(formatBound(lo)))")
            case let (nil, hi?): throw error("\(shown) is out of range (maximum \(formatBound(hi)))")
            case (nil, nil): break
            }
        }
        return canonical
    }

    /// Inclusive range check. `float` values are compared as floats, so a default of 0.1 with
    /// max 0.1 is accepted although Float(0.1) is slightly above the double 0.1.
    private func inRange(_ value: ParameterValue) -> Bool {
        switch value {
        case .float(let f):
            if let min, f < Float(min) { return false }
            if let max, f > Float(max) { return false }
            return true
        case .int(let v):
            if let min, !(Double(v) >= min) { return false }
            if let max, !(Double(v) <= max) { return false }
            return true
        default:
            guard let d = value.numericValue else { return true }
            if let min, d < min { return false }
            if let max, d > max { return false }
            return true
        }
    }
}

/// 0 -> "0", 1 -> "1", 0.25 -> "0.25", 1e300 -> "1e+300".
func formatBound(_ d: Double) -> String {
    if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
    return d.description
}

private func parseSignedInteger(_ s: String) -> Int64? {
    var body = Substring(s)
    var negative = false
    if body.first == "-" { negative = true; body = body.dropFirst() } else if body.first == "+" { body = body.dropFirst() }
    guard !body.isEmpty, body.first != "+", body.first != "-" else { return nil }
    let magnitude: UInt64?
    if body.hasPrefix("0x") || body.hasPrefix("0X") {
        magnitude = UInt64(body.dropFirst(2), radix: 16)
    } else {
        magnitude = UInt64(body, radix: 10)
    }
    guard let magnitude else { return nil }
    if negative {
        if magnitude == UInt64(Int64.max) + 1 { return Int64.min }
        guard let v = Int64(exactly: magnitude) else { return nil }
        return -v
    }
    return Int64(exactly: magnitude)
}

private func parseUnsignedInteger(_ s: String) -> UInt64? {
    var body = Substring(s)
    if body.first == "+" { body = body.dropFirst() }
    guard !body.isEmpty, body.first != "+", body.first != "-" else { return nil }
    if body.hasPrefix("0x") || body.hasPrefix("0X") {
        return UInt64(body.dropFirst(2), radix: 16)
    }
    return UInt64(body, radix: 10)
}

/// "-99999999999999999999": a whole number, whatever its size.
private func isWholeNumberText(_ s: String) -> Bool {
    var body = Substring(s)
    if body.first == "-" || body.first == "+" { body = body.dropFirst() }
    return !body.isEmpty && body.allSatisfy { $0.isASCII && $0.isNumber }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s = s.dropFirst() }
        while let c = s.last, c.isWhitespace { s = s.dropLast() }
        return String(s)
    }
}
