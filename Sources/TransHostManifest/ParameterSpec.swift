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
