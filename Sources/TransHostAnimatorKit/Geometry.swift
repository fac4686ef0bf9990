import CTransHost
#if canImport(Glibc)
import Glibc
#endif

// UIKit- and Core Graphics-named value types, so a plugin reads like the Objective-C it ports.
// They are plain Swift values; only C structs cross the ABI.

public typealias CGFloat = Double
public typealias TimeInterval = Double

public struct CGPoint: Equatable, Sendable {
    public var x: CGFloat, y: CGFloat
    public init(x: CGFloat, y: CGFloat) { self.x = x; self.y = y }
    public static let zero = CGPoint(x: 0, y: 0)
    var c: th_point { th_point(x: x, y: y) }
    init(_ p: th_point) { self.init(x: p.x, y: p.y) }
}

public struct CGSize: Equatable, Sendable {
    public var width: CGFloat, height: CGFloat
    public init(width: CGFloat, height: CGFloat) { self.width = width; self.height = height }
    public static let zero = CGSize(width: 0, height: 0)
}

public struct CGRect: Equatable, Sendable {
    public var origin: CGPoint, size: CGSize
    public init(origin: CGPoint, size: CGSize) { self.origin = origin; self.size = size }
    public init(x: CGFloat, y: CGFloat, width: CGFloat, height: CGFloat) {
        self.init(origin: CGPoint(x: x, y: y), size: CGSize(width: width, height: height))
    }
    public static let zero = CGRect(x: 0, y: 0, width: 0, height: 0)
    public var minX: CGFloat { origin.x }
    public var minY: CGFloat { origin.y }
    public var maxX: CGFloat { origin.x + size.width }
    public var maxY: CGFloat { origin.y + size.height }
    public var midX: CGFloat { origin.x + size.width / 2 }
    public var midY: CGFloat { origin.y + size.height / 2 }
    public var width: CGFloat { size.width }
    public var height: CGFloat { size.height }
    var c: th_rect { th_rect(x: origin.x, y: origin.y, width: size.width, height: size.height) }
    init(_ r: th_rect) { self.init(x: r.x, y: r.y, width: r.width, height: r.height) }
}

public struct UIEdgeInsets: Equatable, Sendable {
    public var top, left, bottom, right: CGFloat
    public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    public static let zero = UIEdgeInsets(top: 0, left: 0, bottom: 0, right: 0)
    var c: th_insets { th_insets(top: top, left: left, bottom: bottom, right: right) }
}

public struct UIColor: Equatable, Sendable {
    public var red, green, blue, alpha: CGFloat
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
    public static let white = UIColor(red: 1, green: 1, blue: 1, alpha: 1)
    public static let black = UIColor(red: 0, green: 0, blue: 0, alpha: 1)
    public static let clear = UIColor(red: 0, green: 0, blue: 0, alpha: 0)
    var c: th_color { th_color(red: red, green: green, blue: blue, alpha: alpha) }
}

/// CGAffineTransform.
public struct CGAffineTransform: Equatable, Sendable {
    public var a, b, c, d, tx, ty: CGFloat
    public init(a: CGFloat, b: CGFloat, c: CGFloat, d: CGFloat, tx: CGFloat, ty: CGFloat) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }
    public static let identity = CGAffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    public init(rotationAngle angle: CGFloat) { self.init(a: cos(angle), b: sin(angle), c: -sin(angle), d: cos(angle), tx: 0, ty: 0) }
    public init(scaleX sx: CGFloat, y sy: CGFloat) { self.init(a: sx, b: 0, c: 0, d: sy, tx: 0, ty: 0) }
    public init(translationX tx: CGFloat, y ty: CGFloat) { self.init(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty) }
    /// self then t.
    public func concatenating(_ t: CGAffineTransform) -> CGAffineTransform {
        CGAffineTransform(a: a * t.a + b * t.c, b: a * t.b + b * t.d, c: c * t.a + d * t.c, d: c * t.b + d * t.d,
                          tx: tx * t.a + ty * t.c + t.tx, ty: tx * t.b + ty * t.d + t.ty)
    }
    public func scaledBy(x: CGFloat, y: CGFloat) -> CGAffineTransform { CGAffineTransform(scaleX: x, y: y).concatenating(self) }
    public func translatedBy(x: CGFloat, y: CGFloat) -> CGAffineTransform { CGAffineTransform(translationX: x, y: y).concatenating(self) }
    public func rotated(by angle: CGFloat) -> CGAffineTransform { CGAffineTransform(rotationAngle: angle).concatenating(self) }
    var cValue: th_affine { th_affine(a: a, b: b, c: c, d: d, tx: tx, ty: ty) }
    init(_ m: th_affine) { self.init(a: m.a, b: m.b, c: m.c, d: m.d, tx: m.tx, ty: m.ty) }
}

/// CATransform3D (row vectors, translation in m41..m43, perspective m34 = -1/d).
public struct CATransform3D: Equatable, Sendable {
    public var m11 = 1.0, m12 = 0.0, m13 = 0.0, m14 = 0.0
    public var m21 = 0.0, m22 = 1.0, m23 = 0.0, m24 = 0.0
    public var m31 = 0.0, m32 = 0.0, m33 = 1.0, m34 = 0.0
    public var m41 = 0.0, m42 = 0.0, m43 = 0.0, m44 = 1.0
    public init() {}
    var c: th_transform3d {
        th_transform3d(m11: m11, m12: m12, m13: m13, m14: m14, m21: m21, m22: m22, m23: m23, m24: m24,
                       m31: m31, m32: m32, m33: m33, m34: m34, m41: m41, m42: m42, m43: m43, m44: m44)
    }
    init(_ m: th_transform3d) {
        m11 = m.m11; m12 = m.m12; m13 = m.m13; m14 = m.m14; m21 = m.m21; m22 = m.m22; m23 = m.m23; m24 = m.m24
        m31 = m.m31; m32 = m.m32; m33 = m.m33; m34 = m.m34; m41 = m.m41; m42 = m.m42; m43 = m.m43; m44 = m.m44
    }
    var rows: [[Double]] { [[m11, m12, m13, m14], [m21, m22, m23, m24], [m31, m32, m33, m34], [m41, m42, m43, m44]] }
    init(rows r: [[Double]]) {
        (m11, m12, m13, m14) = (r[0][0], r[0][1], r[0][2], r[0][3]); (m21, m22, m23, m24) = (r[1][0], r[1][1], r[1][2], r[1][3])
        (m31, m32, m33, m34) = (r[2][0], r[2][1], r[2][2], r[2][3]); (m41, m42, m43, m44) = (r[3][0], r[3][1], r[3][2], r[3][3])
    }
}

public let CATransform3DIdentity = CATransform3D()

/// a x b (a then b).
public func CATransform3DConcat(_ a: CATransform3D, _ b: CATransform3D) -> CATransform3D {
    let x = a.rows, y = b.rows
    return CATransform3D(rows: (0..<4).map { i in (0..<4).map { j in (0..<4).reduce(0.0) { $0 + x[i][$1] * y[$1][j] } } })
}

public func CATransform3DMakeTranslation(_ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    var t = CATransform3D(); t.m41 = tx; t.m42 = ty; t.m43 = tz; return t
}

public func CATransform3DMakeScale(_ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    var t = CATransform3D(); t.m11 = sx; t.m22 = sy; t.m33 = sz; return t
}

/// Rotation by `angle` radians about the normalized axis (x, y, z); a zero axis gives identity.
public func CATransform3DMakeRotation(_ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    let len = (x * x + y * y + z * z).squareRoot()
    guard len > 0 else { return CATransform3D() }
    let (x, y, z) = (x / len, y / len, z / len)
    let c = cos(angle), s = sin(angle), t = 1 - c
    return CATransform3D(rows: [[t * x * x + c, t * x * y + z * s, t * x * z - y * s, 0],
                                [t * x * y - z * s, t * y * y + c, t * y * z + x * s, 0],
                                [t * x * z + y * s, t * y * z - x * s, t * z * z + c, 0],
                                [0, 0, 0, 1]])
}

public func CATransform3DTranslate(_ t: CATransform3D, _ tx: CGFloat, _ ty: CGFloat, _ tz: CGFloat) -> CATransform3D {
    CATransform3DConcat(CATransform3DMakeTranslation(tx, ty, tz), t)
}
public func CATransform3DScale(_ t: CATransform3D, _ sx: CGFloat, _ sy: CGFloat, _ sz: CGFloat) -> CATransform3D {
    CATransform3DConcat(CATransform3DMakeScale(sx, sy, sz), t)
}
public func CATransform3DRotate(_ t: CATransform3D, _ angle: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    CATransform3DConcat(CATransform3DMakeRotation(angle, x, y, z), t)
}

public let M_PI = Double.pi
