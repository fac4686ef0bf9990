/// Writes JSON deterministically: object keys sorted, numbers with at most 6 decimals and no
/// trailing zeros ("0.25", "1", "-0" printed as "0"), two-space indentation when `pretty`.
///
/// Large documents (traces) can be written without building their whole tree: `Output` writes
/// a value, or an object or array whose members are written by closures, with the same bytes
/// as the tree would give.
public struct JSONWriter {
    public static func write(_ value: JSONValue, pretty: Bool = true) -> String {
        var out = Output()
        out.value(value, indent: pretty ? 0 : nil)
        if pretty { out.newline() }
        return out.string
    }

    /// A number as the trace contract prints it: at most 6 decimals.
    public static func format(_ x: Double) -> String {
        var out = Output(capacity: 32)
        out.number(x)
        return out.string
    }

    /// UTF-8 JSON text being written.
    ///
    /// The text is stored straight into memory of its own (a trace is megabytes written a few
    /// bytes at a time, which appends to an array paid for one by one). An Output cannot be
    /// copied (it is written in place, through `inout`), so no write checks for a copy.
    public struct Output: ~Copyable {
        private final class Storage {
            var base: UnsafeMutablePointer<UInt8>
            var capacity: Int
            var count = 0
            init(capacity: Int) {
                self.capacity = max(capacity, 16)
                base = .allocate(capacity: self.capacity)
            }
            deinit { base.deallocate() }
            func grow(to need: Int) {
                var c = capacity * 2
                while c < need { c *= 2 }
                let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: c)
                grown.update(from: base, count: count)
                base.deallocate()
                base = grown
                capacity = c
            }
        }
        private let storage: Storage

        public init(capacity: Int = 1 << 16) { storage = Storage(capacity: capacity) }

        /// The text so far.
        public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: storage.base, count: storage.count)) }

        public var string: String { String(decoding: UnsafeBufferPointer(start: storage.base, count: storage.count), as: UTF8.self) }

        /// Room for `n` more bytes, returned as where they go.
        @inline(__always) private mutating func take(_ n: Int) -> UnsafeMutablePointer<UInt8> {
            let s = storage
            if s.count + n > s.capacity { s.grow(to: s.count + n) }
            let p = s.base + s.count
            s.count += n
            return p
        }

        @inline(__always) mutating func put(_ b: UInt8) { take(1).pointee = b }

        mutating func put(_ b: UnsafeBufferPointer<UInt8>) {
            guard let src = b.baseAddress, b.count > 0 else { return }
            let p = take(b.count)
            // Keys and separators are a few bytes: a loop, not a call to memmove.
            if b.count <= 16 { for i in 0..<b.count { p[i] = src[i] } } else { p.update(from: src, count: b.count) }
        }

        /// The final newline of a pretty document.
        public mutating func newline() { put(UInt8(ascii: "\n")) }

        /// Empties the text, keeping its storage (for a caller that flushes as it goes).
        public mutating func removeAll() { storage.count = 0 }

        mutating func ascii(_ s: StaticString) {
            s.withUTF8Buffer { put($0) }
        }

        mutating func spaces(_ n: Int) {
            if n > 0 { take(n).update(repeating: UInt8(ascii: " "), count: n) }
        }

        /// A number, as `format` prints it.
        public mutating func number(_ x: Double) {
            guard x.isFinite else { put(UInt8(ascii: "0")); return }
            let scaled = (x * 1_000_000).rounded()
            if scaled == 0 { put(UInt8(ascii: "0")); return }
            guard abs(scaled) < 9.0e15 else { var t = String(x.rounded()); t.withUTF8 { put($0) }; return }
            let n = Int64(scaled)
            if n < 0 { put(UInt8(ascii: "-")) }
            let m = n < 0 ? UInt64(-n) : UInt64(n)
            digits(m / 1_000_000)
            var frac = m % 1_000_000
            guard frac != 0 else { return }
            put(UInt8(ascii: "."))
            var width = 6
            while frac % 10 == 0 { frac /= 10; width -= 1 }
            // Leading zeros of the fraction, then its digits.
            var p: UInt64 = 1
            for _ in 1..<width { p *= 10 }
            while p > frac { put(UInt8(ascii: "0")); p /= 10 }
            digits(frac)
        }

        private mutating func digits(_ v: UInt64) {
            if v < 10 { put(UInt8(ascii: "0") + UInt8(v)); return }
            var buf: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                      UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
                (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var n = 0
            var v = v
            withUnsafeMutableBytes(of: &buf) { b in
                while v > 0 { b[n] = UInt8(ascii: "0") + UInt8(v % 10); v /= 10; n += 1 }
                for k in stride(from: n - 1, through: 0, by: -1) { put(b[k]) }
            }
        }

        /// A string, quoted and escaped.
        public mutating func string(_ s: String) {
            put(UInt8(ascii: "\""))
            // Most strings (ids, names, keys) need no escape: copied in one go.
            let plain = s.utf8.withContiguousStorageIfAvailable { b -> Bool in
                for u in b where u < 0x20 || u == UInt8(ascii: "\"") || u == UInt8(ascii: "\\") { return false }
                put(b)
                return true
            }
            if plain == true { put(UInt8(ascii: "\"")); return }
            for u in s.utf8 {
                switch u {
                case UInt8(ascii: "\""): ascii("\\\"")
                case UInt8(ascii: "\\"): ascii("\\\\")
                case UInt8(ascii: "\n"): ascii("\\n")
                case UInt8(ascii: "\r"): ascii("\\r")
                case UInt8(ascii: "\t"): ascii("\\t")
                case 0..<0x20:
                    let hex: [UInt8] = Array("0123456789abcdef".utf8)
                    ascii("\\u00")
                    put(hex[Int(u >> 4)])
                    put(hex[Int(u & 15)])
                default: put(u)
                }
            }
            put(UInt8(ascii: "\""))
        }

        /// Any value, at `indent` (nil: compact).
        public mutating func value(_ v: JSONValue, indent: Int?) {
            switch v {
            case .null: ascii("null")
            case .bool(let b): if b { ascii("true") } else { ascii("false") }
            case .number(let n): number(n)
            case .string(let s): string(s)
            case .array(let a):
                // Arrays of plain numbers stay on one line: traces are mostly vectors.
                let flat = indent == nil || a.allSatisfy { if case .number = $0 { return true }; return false }
                if flat {
                    if a.isEmpty { ascii("[]"); return }
                    put(UInt8(ascii: "["))
                    for (k, e) in a.enumerated() {
                        if k > 0 { separator(indent) }
                        value(e, indent: indent.map { $0 + 2 })
                    }
                    put(UInt8(ascii: "]"))
                } else {
                    array(count: a.count, indent: indent) { out, k, ind in out.value(a[k], indent: ind) }
                }
            case .object(let o):
                if o.isEmpty { ascii("{}"); return }
                object(o.keys.sorted(), indent: indent) { out, key, ind in out.value(o[key]!, indent: ind) }
            }
        }

        /// An array of numbers, on one line, as `value` writes `.array` of `.number`s.
        public mutating func numbers(_ v: [Double], indent: Int?) { numbers(count: v.count, indent: indent) { v[$0] } }

        /// `[a, b]`, as `numbers([a, b], indent:)` writes it, without the array.
        public mutating func numbers(_ a: Double, _ b: Double, indent: Int?) {
            numbers(count: 2, indent: indent) { $0 == 0 ? a : b }
        }

        /// `[a, b, c, d]`, as `numbers([a, b, c, d], indent:)` writes it, without the array.
        public mutating func numbers(_ a: Double, _ b: Double, _ c: Double, _ d: Double, indent: Int?) {
            numbers(count: 4, indent: indent) { k in k == 0 ? a : k == 1 ? b : k == 2 ? c : d }
        }

        /// `count` numbers on one line, the k-th `at(k)`, as `numbers(_:indent:)` writes them.
        public mutating func numbers(count: Int, indent: Int?, _ at: (Int) -> Double) {
            if count == 0 { ascii("[]"); return }
            put(UInt8(ascii: "["))
            for k in 0..<count {
                if k > 0 { separator(indent) }
                number(at(k))
            }
            put(UInt8(ascii: "]"))
        }

        /// Between the numbers of a one-line array.
        mutating func separator(_ indent: Int?) {
            if indent == nil { put(UInt8(ascii: ",")) } else { ascii(", ") }
        }

        /// A member of an object written key by key (as `object` writes each): `first` opens
        /// the object, `key` must need no escaping, and `endObject` closes it. Keys must come in
        /// sorted order, as `object` takes them.
        public mutating func member(_ key: StaticString, first: Bool, indent: Int?) {
            put(first ? UInt8(ascii: "{") : UInt8(ascii: ","))
            if let ind = indent { newline(); spaces(ind + 2) }
            put(UInt8(ascii: "\""))
            ascii(key)
            if indent == nil { ascii("\":") } else { ascii("\": ") }
        }

        /// Closes an object opened by `member(_:first: true, indent:)`.
        public mutating func endObject(indent: Int?) {
            if let ind = indent { newline(); spaces(ind) }
            put(UInt8(ascii: "}"))
        }

        /// `true` or `false`.
        public mutating func bool(_ b: Bool) { if b { ascii("true") } else { ascii("false") } }

        /// JSON text written before (by `JSONWriter.write` with the same `pretty`, for a value at
        /// this place), as it is.
        public mutating func raw(_ json: String) {
            var text = json
            text.withUTF8 { put($0) }
        }

        /// An array of `count` elements that are not all numbers (those stay on one line, see
        /// `value`), each written by `element(&self, index, indent)`.
        public mutating func array(count: Int, indent: Int?, _ element: (inout Output, Int, Int?) -> Void) {
            if count == 0 { ascii("[]"); return }
            put(UInt8(ascii: "["))
            for k in 0..<count {
                if k > 0 { put(UInt8(ascii: ",")) }
                if let ind = indent { newline(); spaces(ind + 2) }
                element(&self, k, indent.map { $0 + 2 })
            }
            if let ind = indent { newline(); spaces(ind) }
            put(UInt8(ascii: "]"))
        }

        /// An object with `keys` (already sorted, none repeated), each value written by
        /// `member(&self, key, indent)`.
        public mutating func object(_ keys: [String], indent: Int?, _ member: (inout Output, String, Int?) -> Void) {
            if keys.isEmpty { ascii("{}"); return }
            put(UInt8(ascii: "{"))
            for (k, key) in keys.enumerated() {
                if k > 0 { put(UInt8(ascii: ",")) }
                if let ind = indent { newline(); spaces(ind + 2) }
                string(key)
                if indent == nil { ascii(":") } else { ascii(": ") }
                member(&self, key, indent.map { $0 + 2 })
            }
            if let ind = indent { newline(); spaces(ind) }
            put(UInt8(ascii: "}"))
        }
    }
}
