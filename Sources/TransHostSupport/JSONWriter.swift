/// Writes JSON deterministically: object keys sorted, numbers with at most 6 decimals and no
/// trailing zeros ("0.25", "1", "-0" printed as "0"), two-space indentation when `pretty`.
public struct JSONWriter {
    public static func write(_ value: JSONValue, pretty: Bool = true) -> String {
        var out = ""
        out.reserveCapacity(1 << 16)
        emit(value, into: &out, indent: pretty ? 0 : nil)
        if pretty { out.append("\n") }
        return out
    }

    /// A number as the trace contract prints it: at most 6 decimals.
    public static func format(_ x: Double) -> String {
        guard x.isFinite else { return "0" }
        let scaled = (x * 1_000_000).rounded()
        if scaled == 0 { return "0" }
        if abs(scaled) < 9.0e15 {
            let n = Int64(scaled)
            let neg = n < 0
            let m = neg ? UInt64(-n) : UInt64(n)
            let whole = m / 1_000_000, frac = m % 1_000_000
            var s = neg ? "-" : ""
            s += String(whole)
            if frac != 0 {
                var f = String(frac)
                f = String(repeating: "0", count: 6 - f.count) + f
                while f.hasSuffix("0") { f.removeLast() }
                s += "." + f
            }
            return s
        }
        return String(x.rounded())
    }

    static func escape(_ s: String, into out: inout String) {
        out.append("\"")
        for u in s.unicodeScalars {
            switch u {
            case "\"": out.append("\\\"")
            case "\\": out.append("\\\\")
            case "\n": out.append("\\n")
            case "\r": out.append("\\r")
            case "\t": out.append("\\t")
            default:
                if u.value < 0x20 {
                    let h = String(u.value, radix: 16)
                    out.append("\\u" + String(repeating: "0", count: 4 - h.count) + h)
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        out.append("\"")
    }

    private static func emit(_ v: JSONValue, into out: inout String, indent: Int?) {
        switch v {
        case .null: out.append("null")
        case .bool(let b): out.append(b ? "true" : "false")
        case .number(let n): out.append(format(n))
        case .string(let s): escape(s, into: &out)
        case .array(let a):
            if a.isEmpty { out.append("[]"); return }
            // Arrays of plain numbers stay on one line: traces are mostly vectors.
            let flat = indent == nil || a.allSatisfy { if case .number = $0 { return true }; return false }
            out.append("[")
            for (k, e) in a.enumerated() {
                if k > 0 { out.append(flat ? (indent == nil ? "," : ", ") : ",") }
                if !flat, let ind = indent { out.append("\n"); out.append(String(repeating: " ", count: ind + 2)) }
                emit(e, into: &out, indent: indent.map { $0 + 2 })
            }
            if !flat, let ind = indent { out.append("\n"); out.append(String(repeating: " ", count: ind)) }
            out.append("]")
        case .object(let o):
            if o.isEmpty { out.append("{}"); return }
            out.append("{")
            for (k, key) in o.keys.sorted().enumerated() {
                if k > 0 { out.append(",") }
                if let ind = indent { out.append("\n"); out.append(String(repeating: " ", count: ind + 2)) }
                escape(key, into: &out)
                out.append(indent == nil ? ":" : ": ")
                emit(o[key]!, into: &out, indent: indent.map { $0 + 2 })
            }
            if let ind = indent { out.append("\n"); out.append(String(repeating: " ", count: ind)) }
            out.append("}")
        }
    }
}
