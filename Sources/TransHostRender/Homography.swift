import CPixman
import TransHostCore

/// A 2D projective map in Core Animation's row-vector convention: a point is the row vector
/// [x, y, 1] and [X, Y, W] = [x, y, 1] * M, the image being (X / W, Y / W). `a.then(b)` applies
/// `a` first. Built and inverted in doubles; converted to pixman's 16.16 only at the end.
public struct Homography: Equatable, Sendable {
    // Row-major: [[a, b, c], [d, e, f], [g, h, i]].
    // X = a x + d y + g, Y = b x + e y + h, W = c x + f y + i.
    public var a, b, c, d, e, f, g, h, i: Double

    public init(a: Double, b: Double, c: Double, d: Double, e: Double, f: Double, g: Double, h: Double, i: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.e = e; self.f = f; self.g = g; self.h = h; self.i = i
    }

    public static let identity = Homography(a: 1, b: 0, c: 0, d: 0, e: 1, f: 0, g: 0, h: 0, i: 1)

    public static func translation(_ tx: Double, _ ty: Double) -> Homography {
        Homography(a: 1, b: 0, c: 0, d: 0, e: 1, f: 0, g: tx, h: ty, i: 1)
    }

    public static func scale(_ sx: Double, _ sy: Double) -> Homography {
        Homography(a: sx, b: 0, c: 0, d: 0, e: sy, f: 0, g: 0, h: 0, i: 1)
    }

    /// The flat (z = 0) part of a CATransform3D: rows 1, 2 and 4, columns 1, 2 and 4. This is
    /// Core Animation's per-layer flattening: the layer's plane is projected into its parent's.
    public init(flattening t: Transform3D) {
        self.init(a: t.m11, b: t.m12, c: t.m14, d: t.m21, e: t.m22, f: t.m24, g: t.m41, h: t.m42, i: t.m44)
    }

    /// Maps a layer's bounds-space points (in points) into its parent's bounds space: subtract
    /// bounds.origin and anchorPoint * bounds.size, apply the flattened transform, add position.
    public init(layerToParent s: PresentationState) {
        let ox = s.bounds.minX + s.anchorPoint.x * s.bounds.width
        let oy = s.bounds.minY + s.anchorPoint.y * s.bounds.height
        self = Homography.translation(-ox, -oy)
            .then(Homography(flattening: s.transform))
            .then(.translation(s.position.x, s.position.y))
    }

    /// `self` applied first, then `n` (the matrix product self * n).
    public func then(_ n: Homography) -> Homography {
        let m = self
        return Homography(
            a: m.a * n.a + m.b * n.d + m.c * n.g, b: m.a * n.b + m.b * n.e + m.c * n.h, c: m.a * n.c + m.b * n.f + m.c * n.i,
            d: m.d * n.a + m.e * n.d + m.f * n.g, e: m.d * n.b + m.e * n.e + m.f * n.h, f: m.d * n.c + m.e * n.f + m.f * n.i,
            g: m.g * n.a + m.h * n.d + m.i * n.g, h: m.g * n.b + m.h * n.e + m.i * n.h, i: m.g * n.c + m.h * n.f + m.i * n.i)
    }

    public var determinant: Double {
        a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    }

    /// The inverse, or nil when singular (a layer seen edge-on).
    public var inverse: Homography? {
        let det = determinant
        guard det.isFinite, abs(det) > 1e-300 else { return nil }
        let r = 1 / det
        let inv = Homography(
            a: (e * i - f * h) * r, b: (c * h - b * i) * r, c: (b * f - c * e) * r,
            d: (f * g - d * i) * r, e: (a * i - c * g) * r, f: (c * d - a * f) * r,
            g: (d * h - e * g) * r, h: (b * g - a * h) * r, i: (a * e - b * d) * r)
        return inv.isFinite ? inv : nil
    }

    public var isFinite: Bool { [a, b, c, d, e, f, g, h, i].allSatisfy { $0.isFinite } }

    /// Whether the map is affine (no perspective row), up to scaling of the whole matrix.
    public var isAffine: Bool { c == 0 && f == 0 && i != 0 }

    /// The homogeneous W of a point (positive in front of the eye).
    @inline(__always) public func w(_ x: Double, _ y: Double) -> Double { c * x + f * y + i }

    /// The image of (x, y); W must be nonzero (callers clip W <= 0 first).
    @inline(__always) public func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double) {
        let w = c * x + f * y + i
        return ((a * x + d * y + g) / w, (b * x + e * y + h) / w)
    }

    public func apply(_ p: Vec2) -> Vec2 { let r = apply(p.x, p.y); return Vec2(r.x, r.y) }

    /// pixman's column-vector 16.16 matrix for this map. A projective matrix is first scaled
    /// (a homography is defined up to scale) so its largest entry is 64: that keeps the small
    /// perspective entries precise in 16.16, while larger entries overflow pixman's
    /// intermediate arithmetic (at 1024 and above the picture comes out visibly wrong; the
    /// tests compare this path with the span kernel). Affine maps are normalized to i = 1 so
    /// pixman recognises them and takes its affine path.
    func pixmanTransform(forcingProjective: Bool = false) -> pixman_transform_t {
        var k: Double
        if isAffine && !forcingProjective {
            k = 1 / i
        } else {
            let big = [a, b, c, d, e, f, g, h, i].map(abs).max() ?? 1
            k = big > 0 ? 64 / big : 1
            // pixman takes a matrix with bottom row (0, 0, 1) as affine; forcing the projective
            // path (for benchmark floors) uses the same map scaled so that i != 1.
            if forcingProjective && isAffine { k = 2 / i }
        }
        func fx(_ v: Double) -> pixman_fixed_t {
            let s = (v * k * 65536).rounded()
            return pixman_fixed_t(max(min(s, Double(Int32.max)), Double(Int32.min)))
        }
        var t = pixman_transform_t()
        t.matrix.0 = (fx(a), fx(d), fx(g))
        t.matrix.1 = (fx(b), fx(e), fx(h))
        t.matrix.2 = (fx(c), fx(f), fx(i))
        if isAffine && !forcingProjective {
            t.matrix.2 = (0, 0, pixman_fixed_t(65536))
        }
        return t
    }
}

/// A point or vector in doubles.
public struct Vec2: Equatable, Sendable {
    public var x, y: Double
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }
}

/// Convex polygon clipping (Sutherland-Hodgman). Every polygon here is convex: a rectangle's
/// image under a homography that keeps W > 0 on it, intersected with other such polygons.
enum Polygon {
    /// Keeps the part of `poly` where `value(p) >= 0` (value is affine in p).
    static func clip(_ poly: [Vec2], keeping value: (Vec2) -> Double) -> [Vec2] {
        guard !poly.isEmpty else { return [] }
        var out: [Vec2] = []
        out.reserveCapacity(poly.count + 4)
        var prev = poly[poly.count - 1]
        var vp = value(prev)
        for cur in poly {
            let vc = value(cur)
            if vc >= 0 {
                if vp < 0 { out.append(lerp(prev, cur, vp / (vp - vc))) }
                out.append(cur)
            } else if vp >= 0 {
                out.append(lerp(prev, cur, vp / (vp - vc)))
            }
            prev = cur; vp = vc
        }
        return out
    }

    static func lerp(_ p: Vec2, _ q: Vec2, _ t: Double) -> Vec2 { Vec2(p.x + (q.x - p.x) * t, p.y + (q.y - p.y) * t) }

    static func clip(_ poly: [Vec2], toRect r: PixelRect) -> [Vec2] {
        var p = clip(poly) { $0.x - Double(r.x0) }
        p = clip(p) { Double(r.x1) - $0.x }
        p = clip(p) { $0.y - Double(r.y0) }
        return clip(p) { Double(r.y1) - $0.y }
    }

    /// Intersection of two convex polygons (`clipper` in either winding).
    static func intersect(_ poly: [Vec2], _ clipper: [Vec2]) -> [Vec2] {
        guard clipper.count >= 3 else { return [] }
        let area = signedArea(clipper)
        let sign: Double = area >= 0 ? 1 : -1
        var p = poly
        for k in 0..<clipper.count {
            let s = clipper[k], t = clipper[(k + 1) % clipper.count]
            p = clip(p) { q in sign * ((t.x - s.x) * (q.y - s.y) - (t.y - s.y) * (q.x - s.x)) }
            if p.isEmpty { break }
        }
        return p
    }

    static func signedArea(_ p: [Vec2]) -> Double {
        var s = 0.0
        for k in 0..<p.count { let u = p[k], v = p[(k + 1) % p.count]; s += u.x * v.y - v.x * u.y }
        return s / 2
    }

    /// The pixel rectangle covering the polygon (outward rounding).
    static func bounds(_ p: [Vec2]) -> PixelRect {
        guard let f = p.first else { return .empty }
        var x0 = f.x, x1 = f.x, y0 = f.y, y1 = f.y
        for q in p { x0 = min(x0, q.x); x1 = max(x1, q.x); y0 = min(y0, q.y); y1 = max(y1, q.y) }
        func lo(_ v: Double) -> Int { Int(max(min((v + 1e-7).rounded(.down), 1e9), -1e9)) }
        func hi(_ v: Double) -> Int { Int(max(min((v - 1e-7).rounded(.up), 1e9), -1e9)) }
        return PixelRect(x0: lo(x0), y0: lo(y0), x1: hi(x1), y1: hi(y1))
    }

    /// Whether the polygon is an axis-aligned rectangle (then a rectangle clip suffices).
    static func axisAlignedRect(_ p: [Vec2]) -> (Double, Double, Double, Double)? {
        guard p.count == 4 else { return nil }
        let xs = Set(p.map { $0.x }), ys = Set(p.map { $0.y })
        guard xs.count <= 2, ys.count <= 2 else { return nil }
        return (xs.min()!, ys.min()!, xs.max()!, ys.max()!)
    }
}

/// A half-open rectangle of pixels [x0, x1) x [y0, y1).
public struct PixelRect: Equatable, Sendable {
    public var x0, y0, x1, y1: Int
    public init(x0: Int, y0: Int, x1: Int, y1: Int) { self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1 }
    public static let empty = PixelRect(x0: 0, y0: 0, x1: 0, y1: 0)
    public var width: Int { max(x1 - x0, 0) }
    public var height: Int { max(y1 - y0, 0) }
    public var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
    public var area: Int { width * height }
    public func intersection(_ o: PixelRect) -> PixelRect {
        let r = PixelRect(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
        return r.isEmpty ? .empty : r
    }
}
