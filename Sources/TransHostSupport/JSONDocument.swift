/// A parsed JSON input file and the one place its fields are read: manifests, the registry,
/// scenarios, the scan cache and traces all go through it, so every input error reads the same
/// way (file:line:column, the field's path, what was expected and what was found).
public struct JSONDocument: Sendable {
    /// Larger inputs are refused before they are read; no manifest or scenario comes near it.
    public static let defaultSizeLimit = FileIO.defaultReadLimit

    public let file: String
    public let root: JSONValue
    private let bytes: [UInt8]

    /// Reads and parses `file`. An unreadable file or a syntax error is a JSONInputError.
    public static func read(_ file: String, sizeLimit: Int = defaultSizeLimit) throws -> JSONDocument {
        let bytes: [UInt8]
        do { bytes = try FileIO.readAll(file, limit: sizeLimit) } catch let e as FileIO.Failure {
            throw JSONInputError(file: file, kind: .unreadable, reason: e.reason)
        }
        return try JSONDocument(file: file, bytes: bytes)
    }

    public init(file: String, bytes: [UInt8]) throws {
        self.file = file
        self.bytes = bytes
        do { root = try JSONParser.parse(bytes: bytes) } catch let e as JSONSyntaxError {
            throw JSONInputError(file: file, kind: .syntax, line: e.line, column: e.column, reason: e.reason)
        }
    }

    public init(file: String, text: String) throws { try self.init(file: file, bytes: Array(text.utf8)) }

    /// The document as a field (path "").
    public var top: JSONField { JSONField(document: self, path: "", value: root) }

    /// A field error at `field`, located at that field's value in the file or, when the field
    /// is absent, at the nearest enclosing value that is there.
    public func error(_ field: String, _ reason: String) -> JSONInputError {
        let offsets = JSONParser.offsets(bytes: bytes)
        var path = field
        while offsets[path] == nil, !path.isEmpty { path = Self.parent(of: path) }
        let (line, column) = JSONParser.lineAndColumn(of: offsets[path] ?? 0, in: bytes)
        return JSONInputError(file: file, kind: .field(field.isEmpty ? "(document)" : field), line: line, column: column, reason: reason)
    }

    static func parent(of path: String) -> String {
        guard let i = path.lastIndex(where: { $0 == "." || $0 == "[" }) else { return "" }
        return String(path[..<i])
    }
}
