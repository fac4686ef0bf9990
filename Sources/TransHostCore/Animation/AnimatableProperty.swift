/// The view/layer properties that animate. Values travel through the engine as flat vectors of
/// doubles so that one interpolation path serves every property.
public enum AnimatableProperty: String, CaseIterable, Sendable, Comparable {
    case bounds, position, anchorPoint, transform, alpha, backgroundColor, cornerRadius

    public static func < (a: Self, b: Self) -> Bool { a.order < b.order }
    /// The position in `allCases` (a switch: this is read on the sampling path).
    var order: Int {
        switch self {
        case .bounds: return 0
        case .position: return 1
        case .anchorPoint: return 2
        case .transform: return 3
        case .alpha: return 4
        case .backgroundColor: return 5
        case .cornerRadius: return 6
        }
    }

    /// Number of doubles in this property's value vector.
    public var width: Int {
        switch self {
        case .bounds, .backgroundColor: return 4
        case .position, .anchorPoint: return 2
        case .transform: return 16
        case .alpha, .cornerRadius: return 1
        }
    }
}

/// A property value as a flat vector (see AnimatableProperty.width).
public typealias AnimatableValue = [Double]

enum ValueCodec {
    static func rect(_ r: Rect) -> AnimatableValue { [r.origin.x, r.origin.y, r.size.width, r.size.height] }
    static func rect(_ v: AnimatableValue) -> Rect { Rect(x: v[0], y: v[1], width: v[2], height: v[3]) }
    static func point(_ p: Point) -> AnimatableValue { [p.x, p.y] }
    static func point(_ v: AnimatableValue) -> Point { Point(x: v[0], y: v[1]) }
    static func color(_ c: Color?) -> AnimatableValue {
        guard let c else { return [0, 0, 0, 0] }
        return [c.red, c.green, c.blue, c.alpha]
    }
    static func color(_ v: AnimatableValue) -> Color? {
        v == [0, 0, 0, 0] ? nil : Color(red: v[0], green: v[1], blue: v[2], alpha: v[3])
    }

    /// Interpolates between two values of a property; progress may leave [0, 1] (springs).
    /// Transforms interpolate by decomposition, as Core Animation does, so a rotation turns
    /// instead of collapsing through a zero scale.
    static func interpolate(_ p: AnimatableProperty, _ a: AnimatableValue, _ b: AnimatableValue, _ t: Double) -> AnimatableValue {
        if p == .transform {
            return Transform3D.interpolate(Transform3D(a), Transform3D(b), t).values
        }
        var out = a
        for i in 0..<min(a.count, b.count) { out[i] = a[i] + (b[i] - a[i]) * t }
        return out
    }
}
