/// Why an input file (manifest, registry, scenario, scan cache, trace) could not be used. Every
/// message names the file; syntax and field errors also give line:column, and field errors the
/// field's path (`animators[0].routes[1].container`).
public struct JSONInputError: Error, Equatable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The file could not be read (missing, not a regular file, too large, an I/O error).
        case unreadable
        /// The file is not valid JSON.
        case syntax
        /// A field is missing, unknown, of the wrong type or out of range.
        case field(String)
    }

    public let file: String
    public let kind: Kind
    /// 1-based; nil when the position is unknown (an unreadable file).
    public let line: Int?
    public let column: Int?
    public let reason: String

    public init(file: String, kind: Kind, line: Int? = nil, column: Int? = nil, reason: String) {
        self.file = file; self.kind = kind; self.line = line; self.column = column; self.reason = reason
    }

    /// The field path, for field errors.
    public var field: String? { if case .field(let f) = kind { return f }; return nil }

    public var description: String {
        let place = line.map { l in "\(file):\(l):\(column ?? 1)" } ?? file
        switch kind {
        case .unreadable: return "\(place): cannot read: \(reason)"
        case .syntax: return "\(place): JSON syntax error: \(reason). Fix the file and run the command again."
        case .field(let f): return "\(place): field \"\(f)\": \(reason)"
        }
    }
}
