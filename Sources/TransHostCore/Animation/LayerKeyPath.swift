#if canImport(Glibc)
import Glibc
#endif

/// The layer properties explicit and implicit animations address, by Core Animation's key names.
public enum LayerProperty: String, CaseIterable, Hashable, Sendable {
    case bounds, position, anchorPoint, transform, opacity, backgroundColor, cornerRadius
    case borderWidth, borderColor, sublayerTransform, zPosition
    case shadowColor, shadowOpacity, shadowOffset, shadowRadius, shadowPath
    case path, fillColor, strokeColor, lineWidth, strokeStart, strokeEnd, miterLimit, lineDashPhase
    case colors, locations, startPoint, endPoint

    /// The value in `s`, or nil when the layer has no such property (a shape property of a
    /// gradient layer).
    public func value(in s: LayerState) -> LayerValue? {
        switch self {
        case .bounds: return .rect(s.bounds)
        case .position: return .point(s.position)
        case .anchorPoint: return .point(s.anchorPoint)
        case .transform: return .transform(s.transform)
        case .opacity: return .number(s.opacity)
        case .backgroundColor: return .color(s.backgroundColor)
        case .cornerRadius: return .number(s.cornerRadius)
        case .borderWidth: return .number(s.style.borderWidth)
        case .borderColor: return .color(s.style.borderColor)
        case .sublayerTransform: return .transform(s.style.sublayerTransform)
        case .zPosition: return .number(s.style.zPosition)
        case .shadowColor: return .color(s.style.shadow.color)
        case .shadowOpacity: return .number(s.style.shadow.opacity)
        case .shadowOffset: return .size(s.style.shadow.offset)
        case .shadowRadius: return .number(s.style.shadow.radius)
        case .shadowPath: return .path(s.style.shadow.path)
        case .path: return s.shape.map { .path($0.path) }
        case .fillColor: return s.shape.map { .color($0.fillColor) }
        case .strokeColor: return s.shape.map { .color($0.strokeColor) }
        case .lineWidth: return s.shape.map { .number($0.lineWidth) }
        case .strokeStart: return s.shape.map { .number($0.strokeStart) }
        case .strokeEnd: return s.shape.map { .number($0.strokeEnd) }
        case .miterLimit: return s.shape.map { .number($0.miterLimit) }
        case .lineDashPhase: return s.shape.map { .number($0.lineDashPhase) }
        case .colors: return s.gradient.map { .colors($0.colors) }
        case .locations: return s.gradient.map { .numbers($0.locations) }
        case .startPoint: return s.gradient.map { .point($0.startPoint) }
        case .endPoint: return s.gradient.map { .point($0.endPoint) }
        }
    }

    /// Stores `v` in `s`; false when the kinds do not fit (the state is then unchanged).
    @discardableResult
    public func set(_ v: LayerValue, in s: inout LayerState) -> Bool {
        switch (self, v) {
        case (.bounds, .rect(let r)): s.bounds = r
        case (.position, .point(let p)): s.position = p
        case (.anchorPoint, .point(let p)): s.anchorPoint = p
        case (.transform, .transform(let t)): s.transform = t
        case (.opacity, .number(let x)): s.opacity = x
        case (.backgroundColor, .color(let c)): s.backgroundColor = c
        case (.cornerRadius, .number(let x)): s.cornerRadius = x
        case (.borderWidth, .number(let x)): s.style.borderWidth = x
        case (.borderColor, .color(let c)): s.style.borderColor = c
        case (.sublayerTransform, .transform(let t)): s.style.sublayerTransform = t
        case (.zPosition, .number(let x)): s.style.zPosition = x
        case (.shadowColor, .color(let c)): s.style.shadow.color = c
        case (.shadowOpacity, .number(let x)): s.style.shadow.opacity = x
        case (.shadowOffset, .size(let z)): s.style.shadow.offset = z
        case (.shadowRadius, .number(let x)): s.style.shadow.radius = x
        case (.shadowPath, .path(let p)): s.style.shadow.path = p
        case (.path, .path(let p)) where s.shape != nil: s.shape!.path = p
        case (.fillColor, .color(let c)) where s.shape != nil: s.shape!.fillColor = c
        case (.strokeColor, .color(let c)) where s.shape != nil: s.shape!.strokeColor = c
        case (.lineWidth, .number(let x)) where s.shape != nil: s.shape!.lineWidth = x
        case (.strokeStart, .number(let x)) where s.shape != nil: s.shape!.strokeStart = x
        case (.strokeEnd, .number(let x)) where s.shape != nil: s.shape!.strokeEnd = x
        case (.miterLimit, .number(let x)) where s.shape != nil: s.shape!.miterLimit = x
        case (.lineDashPhase, .number(let x)) where s.shape != nil: s.shape!.lineDashPhase = x
        case (.colors, .colors(let c)) where s.gradient != nil: s.gradient!.colors = c
        case (.locations, .numbers(let n)) where s.gradient != nil: s.gradient!.locations = n
        case (.startPoint, .point(let p)) where s.gradient != nil: s.gradient!.startPoint = p
        case (.endPoint, .point(let p)) where s.gradient != nil: s.gradient!.endPoint = p
        default: return false
        }
        return true
    }

    /// What the screen may show: opacity, stroke ends and shadow opacity stay in [0, 1] and
    /// radii and widths non-negative, also while a spring overshoots.
    func clamped(_ v: LayerValue) -> LayerValue {
        guard case .number(let x) = v else { return v }
        switch self {
        case .opacity, .strokeStart, .strokeEnd, .shadowOpacity: return .number(min(max(x, 0), 1))
        case .cornerRadius, .borderWidth, .shadowRadius, .lineWidth: return .number(max(x, 0))
        default: return v
        }
    }
}

/// A key path as animations name it: a property and, optionally, one component of it
/// (`position.x`, `bounds.size.width`, `transform.rotation.z`, `transform.scale`, ...).
public struct LayerKeyPath: Hashable, Sendable, CustomStringConvertible {
    public let property: LayerProperty
    public let component: Component?

    public enum Component: String, Hashable, Sendable, CaseIterable {
        case x, y, width, height, origin, size, originX = "origin.x", originY = "origin.y"
        case sizeWidth = "size.width", sizeHeight = "size.height"
        case rotation, rotationX = "rotation.x", rotationY = "rotation.y", rotationZ = "rotation.z"
        case scale, scaleX = "scale.x", scaleY = "scale.y", scaleZ = "scale.z"
        case translation, translationX = "translation.x", translationY = "translation.y", translationZ = "translation.z"
    }

    public init(property: LayerProperty, component: Component? = nil) { self.property = property; self.component = component }

    /// Parses a key path; nil when Core Animation would not animate it here.
    public init?(_ s: String) {
        let parts = s.split(separator: ".", maxSplits: 1).map(String.init)
        guard let p = LayerProperty(rawValue: parts[0]) else { return nil }
        var c: Component?
        if parts.count == 2 {
            guard let k = Component(rawValue: parts[1]) else { return nil }
            c = k
        }
        // A component must fit its property's type.
        if let c {
            switch (p, c) {
            case (.position, .x), (.position, .y), (.anchorPoint, .x), (.anchorPoint, .y), (.startPoint, .x), (.startPoint, .y),
                 (.endPoint, .x), (.endPoint, .y), (.shadowOffset, .width), (.shadowOffset, .height): break
            case (.bounds, .origin), (.bounds, .size), (.bounds, .originX), (.bounds, .originY), (.bounds, .sizeWidth), (.bounds, .sizeHeight): break
            case (.transform, _), (.sublayerTransform, _):
                guard [.rotation, .rotationX, .rotationY, .rotationZ, .scale, .scaleX, .scaleY, .scaleZ, .translation,
                       .translationX, .translationY, .translationZ].contains(c) else { return nil }
            default: return nil
            }
        }
        self.init(property: p, component: c)
    }

    public var description: String { component.map { "\(property.rawValue).\($0.rawValue)" } ?? property.rawValue }

    /// The component's value within the property's whole value `v`.
    public func part(of v: LayerValue) -> LayerValue? {
        guard let component else { return v }
        switch (v, component) {
        case (.point(let p), .x): return .number(p.x)
        case (.point(let p), .y): return .number(p.y)
        case (.size(let z), .width): return .number(z.width)
        case (.size(let z), .height): return .number(z.height)
        case (.rect(let r), .origin): return .point(r.origin)
        case (.rect(let r), .size): return .size(r.size)
        case (.rect(let r), .originX): return .number(r.minX)
        case (.rect(let r), .originY): return .number(r.minY)
        case (.rect(let r), .sizeWidth): return .number(r.width)
        case (.rect(let r), .sizeHeight): return .number(r.height)
        case (.transform(let t), _):
            let d = TransformParts(t)
            switch component {
            case .rotation, .rotationZ: return .number(d.rotation[2])
            case .rotationX: return .number(d.rotation[0])
            case .rotationY: return .number(d.rotation[1])
            case .scale: return .number((d.scale[0] + d.scale[1] + d.scale[2]) / 3)
            case .scaleX: return .number(d.scale[0])
            case .scaleY: return .number(d.scale[1])
            case .scaleZ: return .number(d.scale[2])
            case .translation: return .size(Size(width: d.translation[0], height: d.translation[1]))
            case .translationX: return .number(d.translation[0])
            case .translationY: return .number(d.translation[1])
            case .translationZ: return .number(d.translation[2])
            default: return nil
            }
        default: return nil
        }
    }

    /// The whole value `v` with this component replaced by `part`; nil when they do not fit.
    public func replacing(_ part: LayerValue, in v: LayerValue) -> LayerValue? {
        guard let component else { return part }
        switch (v, component, part) {
        case (.point(var p), .x, .number(let x)): p.x = x; return .point(p)
        case (.point(var p), .y, .number(let y)): p.y = y; return .point(p)
        case (.size(var z), .width, .number(let w)): z.width = w; return .size(z)
        case (.size(var z), .height, .number(let h)): z.height = h; return .size(z)
        case (.rect(var r), .origin, .point(let o)): r.origin = o; return .rect(r)
        case (.rect(var r), .size, .size(let z)): r.size = z; return .rect(r)
        case (.rect(var r), .originX, .number(let x)): r.origin.x = x; return .rect(r)
        case (.rect(var r), .originY, .number(let y)): r.origin.y = y; return .rect(r)
        case (.rect(var r), .sizeWidth, .number(let w)): r.size.width = w; return .rect(r)
        case (.rect(var r), .sizeHeight, .number(let h)): r.size.height = h; return .rect(r)
        case (.transform(let t), _, _):
            var d = TransformParts(t)
            switch (component, part) {
            case (.rotation, .number(let a)), (.rotationZ, .number(let a)): d.rotation[2] = a
            case (.rotationX, .number(let a)): d.rotation[0] = a
            case (.rotationY, .number(let a)): d.rotation[1] = a
            case (.scale, .number(let s)): d.scale = [s, s, s]
            case (.scaleX, .number(let s)): d.scale[0] = s
            case (.scaleY, .number(let s)): d.scale[1] = s
            case (.scaleZ, .number(let s)): d.scale[2] = s
            case (.translation, .size(let z)): d.translation[0] = z.width; d.translation[1] = z.height
            case (.translationX, .number(let x)): d.translation[0] = x
            case (.translationY, .number(let y)): d.translation[1] = y
            case (.translationZ, .number(let z)): d.translation[2] = z
            default: return nil
            }
            return .transform(d.transform)
        default: return nil
        }
    }
}

/// A transform as scale, then rotation about x, y and z, then translation, then a perspective
/// (m34) term: M = S Rx Ry Rz T P in the row-vector convention. A transform's sub-key-paths
/// replace one of these parts and keep the others, so `transform.rotation.y` under an m34
/// perspective turns in perspective.
struct TransformParts {
    var scale: [Double]
    var rotation: [Double]
    var translation: [Double]
    var perspective: Double

    init(_ m: Transform3D) {
        let rows = [[m.m11, m.m12, m.m13], [m.m21, m.m22, m.m23], [m.m31, m.m32, m.m33]]
        let s = rows.map { ($0[0] * $0[0] + $0[1] * $0[1] + $0[2] * $0[2]).squareRoot() }
        let r = (0..<3).map { i in s[i] > 0 ? rows[i].map { $0 / s[i] } : [Double](repeating: 0, count: 3) }
        scale = s
        let ry = -asin(min(max(r[0][2], -1), 1))
        let rz = atan2(r[0][1], r[0][0])
        let rx = atan2(r[1][2], r[2][2])
        rotation = [rx, ry, rz]
        // (m14, m24, m34) = p x the third column of S R: the least-squares p.
        let col = [rows[0][2], rows[1][2], rows[2][2]]
        let norm = col[0] * col[0] + col[1] * col[1] + col[2] * col[2]
        perspective = norm > 0 ? (m.m14 * col[0] + m.m24 * col[1] + m.m34 * col[2]) / norm : m.m34
        translation = [m.m41, m.m42, m.m43]
    }

    var transform: Transform3D {
        let r = Transform3D.rotation(rotation[0], 1, 0, 0)
            .concatenating(.rotation(rotation[1], 0, 1, 0))
            .concatenating(.rotation(rotation[2], 0, 0, 1))
        var p = Transform3D.identity
        p.m34 = perspective
        return Transform3D.scale(scale[0], scale[1], scale[2]).concatenating(r)
            .concatenating(.translation(translation[0], translation[1], translation[2])).concatenating(p)
    }
}
