/// Little-endian bytes for the worker protocol. Doubles travel as their bit patterns, so a
/// result decoded by the supervisor holds exactly the values the worker computed.
struct ByteWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 1 << 16) { bytes.reserveCapacity(capacity) }

    mutating func u8(_ v: UInt8) { bytes.append(v) }
    mutating func bool(_ v: Bool) { bytes.append(v ? 1 : 0) }
    mutating func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func i32(_ v: Int32) { u32(UInt32(bitPattern: v)) }
    mutating func int(_ v: Int) { withUnsafeBytes(of: Int64(v).littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func f64(_ v: Double) { withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { u32(UInt32($0.count)); bytes.append(contentsOf: $0) }
    }
    mutating func strings(_ a: [String]) { u32(UInt32(a.count)); for s in a { string(s) } }
    mutating func optionalString(_ s: String?) { bool(s != nil); if let s { string(s) } }
}

/// Reads what ByteWriter wrote; every read is bounds-checked (a truncated or damaged message
/// is an error, never a crash).
struct ByteReader {
    struct Damaged: Error, CustomStringConvertible {
        let description: String
    }

    let bytes: [UInt8]
    private(set) var offset = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { offset == bytes.count }

    private mutating func take<T: FixedWidthInteger>(_: T.Type) throws -> T {
        let n = MemoryLayout<T>.size
        guard offset + n <= bytes.count else { throw Damaged(description: "the worker's result ends early (at byte \(offset) of \(bytes.count))") }
        let v = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
        offset += n
        return T(littleEndian: v)
    }

    mutating func u8() throws -> UInt8 { try take(UInt8.self) }
    mutating func bool() throws -> Bool { try u8() != 0 }
    mutating func u32() throws -> UInt32 { try take(UInt32.self) }
    mutating func i32() throws -> Int32 { Int32(bitPattern: try u32()) }
    mutating func int() throws -> Int { Int(try take(Int64.self)) }
    mutating func f64() throws -> Double { Double(bitPattern: try take(UInt64.self)) }
    /// A count of things that take at least one byte each.
    mutating func count() throws -> Int {
        let n = Int(try u32())
        guard n <= bytes.count - offset else {
            throw Damaged(description: "the worker's result has an impossible count \(n) at byte \(offset)")
        }
        return n
    }
    mutating func string() throws -> String {
        let n = Int(try u32())
        guard offset + n <= bytes.count else { throw Damaged(description: "the worker's result ends inside a string (at byte \(offset))") }
        let s = String(decoding: bytes[offset..<offset + n], as: UTF8.self)
        offset += n
        return s
    }
    mutating func strings() throws -> [String] {
        let n = try count()
        var out: [String] = []
        out.reserveCapacity(min(n, 4096))
        for _ in 0..<n { out.append(try string()) }
        return out
    }
    mutating func optionalString() throws -> String? { try bool() ? try string() : nil }
}
