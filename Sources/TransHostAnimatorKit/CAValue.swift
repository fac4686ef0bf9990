import CTransHost

/// A layer property value on its way to or from the host (th_layer_value): what `fromValue`,
/// `toValue`, keyframe values and layer properties carry.
enum CAValue {
    case number(CGFloat), point(CGPoint), size(CGSize), rect(CGRect), transform(CATransform3D)
    case color(CGColor?), path(CGPath?), colors([CGColor]), numbers([CGFloat]?), string(String)

    /// Core Animation's boxed values as UIKit code writes them: numbers (CGFloat, Double, Float,
    /// Int, NSNumber), CGPoint, CGSize, CGRect, CATransform3D, CGColor (or UIColor), CGPath (or
    /// UIBezierPath), arrays of colours (`[CGColor]`, as `colors` takes) or of numbers.
    init?(_ any: Any?) {
        switch any {
        case nil: return nil
        case let v as CGFloat: self = .number(v)
        case let v as Double: self = .number(CGFloat(v))
        case let v as Float: self = .number(CGFloat(v))
        case let v as Int: self = .number(CGFloat(v))
        case let v as NSNumber: self = .number(CGFloat(v.doubleValue))
        case let v as CGPoint: self = .point(v)
        case let v as CGSize: self = .size(v)
        case let v as CGRect: self = .rect(v)
        case let v as CATransform3D: self = .transform(v)
        case let v as CGColor: self = .color(v)
        case let v as UIColor: self = .color(v.cgColor)
        case let v as CGPath: self = .path(v)
        case let v as UIBezierPath: self = .path(v.cgPath)
        case let v as [Any]:
            if v.allSatisfy({ $0 is CGColor || $0 is UIColor }) && !v.isEmpty {
                self = .colors(v.map { ($0 as? CGColor) ?? ($0 as! UIColor).cgColor })
            } else {
                var out: [CGFloat] = []
                for x in v {
                    guard case .number(let n)? = CAValue(x) else { return nil }
                    out.append(n)
                }
                self = .numbers(out)
            }
        default: return nil
        }
    }

    /// The Swift value UIKit code reads back (`presentation()?.opacity`, `animation.toValue`).
    var any: Any? {
        switch self {
        case .number(let n): return n
        case .point(let p): return p
        case .size(let s): return s
        case .rect(let r): return r
        case .transform(let t): return t
        case .color(let c): return c
        case .path(let p): return p
        case .colors(let c): return c
        case .numbers(let n): return n.map { $0.map { NSNumber(value: Double($0)) } }
        case .string(let s): return s
        }
    }

    init?(_ v: th_layer_value) {
        func n(_ i: Int) -> CGFloat { i < Int(v.count) && v.numbers != nil ? CGFloat(v.numbers![i]) : 0 }
        switch v.kind {
        case TH_VALUE_NUMBER: self = .number(n(0))
        case TH_VALUE_POINT: self = .point(CGPoint(x: n(0), y: n(1)))
        case TH_VALUE_SIZE: self = .size(CGSize(width: n(0), height: n(1)))
        case TH_VALUE_RECT: self = .rect(CGRect(x: n(0), y: n(1), width: n(2), height: n(3)))
        case TH_VALUE_TRANSFORM:
            self = .transform(CATransform3D(rows: (0..<4).map { r in (0..<4).map { n(4 * r + $0) } }))
        case TH_VALUE_COLOR: self = .color(v.is_null != 0 ? nil : CGColor(red: n(0), green: n(1), blue: n(2), alpha: n(3)))
        case TH_VALUE_PATH:
            self = .path(v.is_null != 0 ? nil : v.elements.map { CGPath(th: $0, count: Int(v.element_count)) } ?? CGPath())
        case TH_VALUE_COLORS:
            self = .colors(stride(from: 0, to: Int(v.count) - 3, by: 4).map { CGColor(red: n($0), green: n($0 + 1), blue: n($0 + 2), alpha: n($0 + 3)) })
        case TH_VALUE_NUMBERS: self = .numbers(v.is_null != 0 ? nil : (0..<Int(v.count)).map(n))
        case TH_VALUE_STRING: self = .string(v.string.map { String(cString: $0) } ?? "")
        default: return nil
        }
    }
}

/// Memory for the C structs of one host call (values, arrays, nested animations), freed when the
/// arena goes away after the call: the host copies everything before it returns.
final class CArena {
    private var blocks: [UnsafeMutableRawPointer] = []
    deinit { for b in blocks { b.deallocate() } }

    func array<T>(_ xs: [T]) -> UnsafePointer<T>? {
        guard !xs.isEmpty else { return nil }
        let p = UnsafeMutablePointer<T>.allocate(capacity: xs.count)
        p.initialize(from: xs, count: xs.count)
        blocks.append(UnsafeMutableRawPointer(p))
        return UnsafePointer(p)
    }
    func one<T>(_ x: T) -> UnsafePointer<T> { array([x])! }
    func cString(_ s: String?) -> UnsafePointer<CChar>? {
        guard let s else { return nil }
        return array(Array(s.utf8CString))
    }

    func value(_ v: CAValue) -> th_layer_value {
        var r = th_layer_value()
        r.struct_size = UInt32(MemoryLayout<th_layer_value>.size)
        func nums(_ xs: [CGFloat]) { r.numbers = array(xs.map(Double.init)); r.count = UInt64(xs.count) }
        switch v {
        case .number(let n): r.kind = TH_VALUE_NUMBER; nums([n])
        case .point(let p): r.kind = TH_VALUE_POINT; nums([p.x, p.y])
        case .size(let s): r.kind = TH_VALUE_SIZE; nums([s.width, s.height])
        case .rect(let q): r.kind = TH_VALUE_RECT; nums([q.origin.x, q.origin.y, q.width, q.height])
        case .transform(let t): r.kind = TH_VALUE_TRANSFORM; nums(t.rows.flatMap { $0 })
        case .color(let c):
            r.kind = TH_VALUE_COLOR
            if let c { let k = c.th; nums([k.red, k.green, k.blue, k.alpha].map { CGFloat($0) }) } else { r.is_null = 1 }
        case .path(let p):
            r.kind = TH_VALUE_PATH
            if let p { let e = p.th; r.elements = array(e); r.element_count = UInt64(e.count) } else { r.is_null = 1 }
        case .colors(let cs): r.kind = TH_VALUE_COLORS; nums(cs.flatMap { c -> [CGFloat] in let k = c.th; return [k.red, k.green, k.blue, k.alpha].map { CGFloat($0) } })
        case .numbers(let n): r.kind = TH_VALUE_NUMBERS; if let n { nums(n) } else { r.is_null = 1 }
        case .string(let s): r.kind = TH_VALUE_STRING; r.string = cString(s)
        }
        return r
    }
}
