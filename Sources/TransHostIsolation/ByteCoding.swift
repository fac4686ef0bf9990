/// Little-endian bytes for the worker protocol. Doubles travel as their bit patterns, so a
/// result decoded by the supervisor holds exactly the values the worker computed.
///
/// The bytes are stored straight into memory it owns (a result is millions of small fields,
/// which appends to an array paid for one by one); `bytes` copies them out once. A writer
/// cannot be copied (it is written in place, through `inout`), as JSONWriter.Output.
struct ByteWriter: ~Copyable {
    private final class Storage {
        var base: UnsafeMutableRawPointer
        var capacity: Int
        var count = 0
        init(capacity: Int) {
            self.capacity = max(capacity, 64)
            base = .allocate(byteCount: self.capacity, alignment: 16)
        }
        deinit { base.deallocate() }
        /// Room for `n` more bytes, returned as where they go.
        @inline(__always) func take(_ n: Int) -> UnsafeMutableRawPointer {
            if count + n > capacity { grow(to: count + n) }
            let p = base + count
            count += n
            return p
        }
        func grow(to need: Int) {
            var c = capacity * 2
            while c < need { c *= 2 }
            let grown = UnsafeMutableRawPointer.allocate(byteCount: c, alignment: 16)
            grown.copyMemory(from: base, byteCount: count)
            base.deallocate()
            base = grown
            capacity = c
        }
    }
    private let storage: Storage

    init(capacity: Int = 1 << 16) { storage = Storage(capacity: capacity) }

    /// What was written, in order.
    var bytes: [UInt8] { Array(UnsafeRawBufferPointer(start: storage.base, count: storage.count)) }

    mutating func u8(_ v: UInt8) { storage.take(1).storeBytes(of: v, as: UInt8.self) }
    mutating func bool(_ v: Bool) { u8(v ? 1 : 0) }
    mutating func u32(_ v: UInt32) { storage.take(4).storeBytes(of: v.littleEndian, as: UInt32.self) }
    mutating func i32(_ v: Int32) { u32(UInt32(bitPattern: v)) }
    mutating func int(_ v: Int) { storage.take(8).storeBytes(of: Int64(v).littleEndian, as: Int64.self) }
    mutating func f64(_ v: Double) { storage.take(8).storeBytes(of: v.bitPattern.littleEndian, as: UInt64.self) }
    mutating func append(_ raw: UnsafeRawBufferPointer) {
        guard let src = raw.baseAddress, raw.count > 0 else { return }
        storage.take(raw.count).copyMemory(from: src, byteCount: raw.count)
    }
    mutating func append(_ b: [UInt8]) { b.withUnsafeBytes { append($0) } }
    mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { u32(UInt32($0.count)); append(UnsafeRawBufferPointer($0)) }
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
