@_exported import Foundation
import CTransHost

// Foundation on Linux has CGFloat, CGPoint, CGSize and CGRect (with midX, insetBy, offsetBy,
// union, ...) and re-exports the C math library; the kit uses those and adds what Core Graphics
// has on Apple platforms and Foundation lacks here: CGAffineTransform, the `applying` methods
// and CGColor. Only C structs cross the ABI.

/// CGAffineTransform: (x, y) -> (a x + c y + tx, b x + d y + ty).
public struct CGAffineTransform: Equatable, Hashable, Sendable {
    public var a, b, c, d, tx, ty: CGFloat
    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }
    public init() { self.init(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0) }
    public static let identity = CGAffineTransform()
    public init(rotationAngle angle: CGFloat) {
        let c = cos(Double(angle)), s = sin(Double(angle))
        self.init(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
    }
    public init(scaleX sx: CGFloat, y sy: CGFloat) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }
    public init(translationX tx: CGFloat, y ty: CGFloat) { self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty) }
    public var isIdentity: Bool { self == .identity }
    /// self, then t.
    public func concatenating(_ t: CGAffineTransform) -> CGAffineTransform {
        CGAffineTransform(a: a * t.a + b * t.c, b: a * t.b + b * t.d, c: c * t.a + d * t.c, d: c * t.b + d * t.d,
                          tx: tx * t.a + ty * t.c + t.tx, ty: tx * t.b + ty * t.d + t.ty)
    }
    public func scaledBy(x: CGFloat, y: CGFloat) -> CGAffineTransform { CGAffineTransform(scaleX: x, y: y).concatenating(self) }
    public func translatedBy(x: CGFloat, y: CGFloat) -> CGAffineTransform { CGAffineTransform(translationX: x, y: y).concatenating(self) }
    public func rotated(by angle: CGFloat) -> CGAffineTransform { CGAffineTransform(rotationAngle: angle).concatenating(self) }
    /// The inverse, or the transform itself when it cannot be inverted (as Core Graphics does).
    public func inverted() -> CGAffineTransform {
        let det = a * d - b * c
        guard det != 0, det.isFinite else { return self }
        return CGAffineTransform(a: d / det, b: -b / det, c: -c / det, d: a / det,
                                 tx: (c * ty - d * tx) / det, ty: (b * tx - a * ty) / det)
    }
    var th: th_affine { th_affine(a: Double(a), b: Double(b), c: Double(c), d: Double(d), tx: Double(tx), ty: Double(ty)) }
    init(_ m: th_affine) { self.init(a: m.a, b: m.b, c: m.c, d: m.d, tx: m.tx, ty: m.ty) }
}

extension CGPoint {
    public func applying(_ t: CGAffineTransform) -> CGPoint { CGPoint(x: t.a * x + t.c * y + t.tx, y: t.b * x + t.d * y + t.ty) }
    var th: th_point { th_point(x: Double(x), y: Double(y)) }
    init(_ p: th_point) { self.init(x: p.x, y: p.y) }
}

extension CGSize {
    public func applying(_ t: CGAffineTransform) -> CGSize { CGSize(width: t.a * width + t.c * height, height: t.b * width + t.d * height) }
    var th: th_size { th_size(width: Double(width), height: Double(height)) }
    init(_ s: th_size) { self.init(width: s.width, height: s.height) }
}

extension CGRect {
    /// The bounding box of the transformed corners (Core Graphics' CGRectApplyAffineTransform).
    public func applying(_ t: CGAffineTransform) -> CGRect {
        let r = standardized
        let corners = [CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY), CGPoint(x: r.minX, y: r.maxY), CGPoint(x: r.maxX, y: r.maxY)]
            .map { $0.applying(t) }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }
    var th: th_rect { th_rect(x: Double(origin.x), y: Double(origin.y), width: Double(size.width), height: Double(size.height)) }
    init(_ r: th_rect) { self.init(x: r.x, y: r.y, width: r.width, height: r.height) }
}

/// CGColor: an RGBA colour (device RGB), what `layer.backgroundColor` and `UIColor.cgColor` carry.
public final class CGColor: Equatable, Hashable, @unchecked Sendable {
    public let components: [CGFloat]?
    public var alpha: CGFloat { components?.last ?? 1 }
    public var numberOfComponents: Int { components?.count ?? 0 }
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) { components = [red, green, blue, alpha] }
    public init(gray: CGFloat, alpha: CGFloat) { components = [gray, gray, gray, alpha] }
    public func copy(alpha: CGFloat) -> CGColor? {
        let c = components ?? [0, 0, 0, 1]
        return CGColor(red: c[0], green: c[1], blue: c[2], alpha: alpha)
    }
    public static func == (a: CGColor, b: CGColor) -> Bool { a.components == b.components }
    public func hash(into h: inout Hasher) { h.combine(components) }
    var th: th_color {
        let c = components ?? [0, 0, 0, 1]
        return th_color(red: Double(c[0]), green: Double(c[1]), blue: Double(c[2]), alpha: Double(c[3]))
    }
}
