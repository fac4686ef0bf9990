#if canImport(Glibc)
import Glibc
#endif

/// A value of a layer property, as explicit animations carry it (CABasicAnimation's
/// `fromValue`/`toValue`, a keyframe's values). Each case is one of the property types Core
/// Animation interpolates.
public enum LayerValue: Hashable, Sendable {
    case number(Double)
    case point(Point)
    case size(Size)
    case rect(Rect)
    case transform(Transform3D)
    /// nil is "no colour" (clear, for interpolation).
    case color(Color?)
    case path(Path?)
    case colors([Color])
    case numbers([Double]?)

    /// The value as a flat vector (paths: their points; colours: RGBA).
    public var vector: [Double] {
        switch self {
        case .number(let v): return [v]
        case .point(let p): return [p.x, p.y]
        case .size(let s): return [s.width, s.height]
        case .rect(let r): return [r.minX, r.minY, r.width, r.height]
        case .transform(let t): return t.values
        case .color(let c): return ValueCodec.color(c)
        case .path(let p): return p?.pointVector ?? []
        case .colors(let cs): return cs.flatMap { [$0.red, $0.green, $0.blue, $0.alpha] }
        case .numbers(let n): return n ?? []
        }
    }

    /// The same kind of value with the components of `v` (as many as `vector` has).
    public func with(vector v: [Double]) -> LayerValue {
        func at(_ i: Int) -> Double { i < v.count ? v[i] : 0 }
        switch self {
        case .number: return .number(at(0))
        case .point: return .point(Point(x: at(0), y: at(1)))
        case .size: return .size(Size(width: at(0), height: at(1)))
        case .rect: return .rect(Rect(x: at(0), y: at(1), width: at(2), height: at(3)))
        case .transform: return .transform(Transform3D((0..<16).map(at)))
        case .color: return .color(v.count == 4 ? Color(red: at(0), green: at(1), blue: at(2), alpha: at(3)) : nil)
        case .path(let p): return .path(p?.with(pointVector: v))
        case .colors(let cs): return .colors((0..<cs.count).map { Color(red: at(4 * $0), green: at(4 * $0 + 1), blue: at(4 * $0 + 2), alpha: at(4 * $0 + 3)) })
        case .numbers(let n): return .numbers(n.map { a in (0..<a.count).map(at) })
        }
    }

    /// Whether `self` and `other` interpolate component by component: the same kind and, for
    /// paths and arrays, the same shape (paths: the same elements; see Path.canInterpolate).
    public func matches(_ other: LayerValue) -> Bool {
        switch (self, other) {
        case (.number, .number), (.point, .point), (.size, .size), (.rect, .rect), (.transform, .transform): return true
        case (.color, .color): return true
        case (.path(let a), .path(let b)):
            guard let a, let b else { return false }
            return a.canInterpolate(with: b)
        case (.colors(let a), .colors(let b)): return a.count == b.count
        case (.numbers(let a), .numbers(let b)): return a?.count == b?.count && a != nil
        default: return false
        }
    }

    /// `self` moved `t` of the way to `other` (t may leave [0, 1]: springs overshoot). Values
    /// that do not match (a path with other elements, arrays of other lengths) jump: the start
    /// shows until t reaches 1, as Core Animation does for values it cannot interpolate.
    /// Transforms interpolate by decomposition; colours from nil start at the other colour
    /// with alpha 0.
    public func interpolated(to other: LayerValue, _ t: Double) -> LayerValue {
        if case .transform(let a) = self, case .transform(let b) = other { return .transform(Transform3D.interpolate(a, b, t)) }
        if case .color(let a) = self, case .color(let b) = other {
            guard a != nil || b != nil else { return .color(nil) }
            let ca = a ?? Color(red: b!.red, green: b!.green, blue: b!.blue, alpha: 0)
            let cb = b ?? Color(red: ca.red, green: ca.green, blue: ca.blue, alpha: 0)
            return .color(Color(red: ca.red + (cb.red - ca.red) * t, green: ca.green + (cb.green - ca.green) * t,
                                blue: ca.blue + (cb.blue - ca.blue) * t, alpha: ca.alpha + (cb.alpha - ca.alpha) * t))
        }
        guard matches(other) else { return t >= 1 ? other : self }
        let a = vector, b = other.vector
        return with(vector: zip(a, b).map { $0 + ($1 - $0) * t })
    }

    /// self + other, component by component (byValue, cumulative and additive animations);
    /// transforms concatenate (other after self). nil when they do not add up.
    public func adding(_ other: LayerValue) -> LayerValue? {
        if case .transform(let a) = self, case .transform(let b) = other { return .transform(a.concatenating(b)) }
        guard matches(other) else { return nil }
        return with(vector: zip(vector, other.vector).map { $0 + $1 })
    }

    /// self - other (the start of a `toValue` + `byValue` animation). nil when they do not match.
    public func subtracting(_ other: LayerValue) -> LayerValue? {
        guard matches(other), !isTransform else { return nil }
        return with(vector: zip(vector, other.vector).map { $0 - $1 })
    }

    var isTransform: Bool { if case .transform = self { return true }; return false }

    /// Euclidean distance between two values (paced keyframes).
    func distance(to other: LayerValue) -> Double {
        let a = vector, b = other.vector
        return zip(a, b).reduce(0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot()
    }

    public var isFinite: Bool { vector.allSatisfy(\.isFinite) }

    /// A short description for warnings and traces.
    public var kindName: String {
        switch self {
        case .number: return "number"
        case .point: return "point"
        case .size: return "size"
        case .rect: return "rect"
        case .transform: return "transform"
        case .color: return "color"
        case .path: return "path"
        case .colors: return "colors"
        case .numbers: return "numbers"
        }
    }
}
