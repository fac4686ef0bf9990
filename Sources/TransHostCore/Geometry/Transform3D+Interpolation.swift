#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Transform interpolation as Core Animation (and WebKit's TransformationMatrix::blend) does it:
/// both matrices are decomposed into translation, scale, skew, perspective and a rotation
/// quaternion; the parts are blended (linearly, the quaternion by spherical interpolation on the
/// shorter arc) and the result is recomposed. A rotation therefore turns instead of collapsing
/// through a zero scale.
///
/// Conventions (row vectors, p' = p M, as CATransform3D): with the matrix divided by m44,
///   M = N x P,  N = [[A, 0], [t, 1]],  A = diag(scale) x K x Q,
/// where t is the translation (m41..m43), Q is a proper rotation (its rows are orthonormal, det
/// +1), K is unit lower triangular with the skews (K21 = xy, K31 = xz, K32 = yz), and P is the
/// identity with its last column replaced by the perspective vector (p1, p2, p3, p4), so that the
/// affine part is applied first and the perspective divide last. Reflections are carried by a
/// negative x scale (with the x-related skews negated), which keeps the rotation of a 2D affine
/// matrix about z so that affine inputs give affine outputs.
extension Transform3D {
    /// The parts of a decomposed transform.
    struct Decomposed: Equatable {
        var scale: (x: Double, y: Double, z: Double)
        /// Shear factors xy, xz, yz.
        var skew: (xy: Double, xz: Double, yz: Double)
        var translation: (x: Double, y: Double, z: Double)
        /// The last column of P (m14, m24, m34, m44 of the perspective factor).
        var perspective: (x: Double, y: Double, z: Double, w: Double)
        /// Unit quaternion (x, y, z, w) of Q, for column vectors (Q transposed), w >= 0 not assumed.
        var quaternion: Quaternion
        /// The original m44 (the matrix was divided by it).
        var homogeneousScale: Double

        static func == (a: Decomposed, b: Decomposed) -> Bool {
            a.scale == b.scale && a.skew == b.skew && a.translation == b.translation && a.perspective == b.perspective
                && a.quaternion == b.quaternion && a.homogeneousScale == b.homogeneousScale
        }
    }

    /// A quaternion (x, y, z, w); unit quaternions represent rotations.
    struct Quaternion: Equatable {
        var x, y, z, w: Double

        func dot(_ o: Quaternion) -> Double { x * o.x + y * o.y + z * o.z + w * o.w }
        static func * (q: Quaternion, s: Double) -> Quaternion { Quaternion(x: q.x * s, y: q.y * s, z: q.z * s, w: q.w * s) }
        static func + (a: Quaternion, b: Quaternion) -> Quaternion { Quaternion(x: a.x + b.x, y: a.y + b.y, z: a.z + b.z, w: a.w + b.w) }
        static prefix func - (q: Quaternion) -> Quaternion { q * -1 }
        var length: Double { dot(self).squareRoot() }
        var normalized: Quaternion {
            let l = length
            return l > 0 && l.isFinite ? self * (1 / l) : Quaternion(x: 0, y: 0, z: 0, w: 1)
        }

        /// Spherical interpolation on the shorter arc. `t` may leave [0, 1]: the rotation then
        /// continues along the same great circle (extrapolation).
        static func slerp(_ a: Quaternion, _ b0: Quaternion, _ t: Double) -> Quaternion { Slerp(a, b0).value(at: t) }
    }

    /// Spherical interpolation between two fixed rotations, with what does not depend on `t`
    /// (the short way round, the angle's arc cosine, the orthogonal axis) computed once: an
    /// animation evaluates the same pair every frame. The same operations as one-shot slerp, so
    /// the same bits.
    struct Slerp {
        let a: Quaternion
        let b: Quaternion
        /// (Nearly) the same rotation: a linear blend, renormalized.
        let linear: Bool
        let theta: Double
        /// The unit quaternion orthogonal to a in the a-b plane; q(t) = a cos(t theta) + perp sin(t theta).
        let perp: Quaternion

        init(_ a: Quaternion, _ b0: Quaternion) {
            var b = b0
            var d = a.dot(b)
            if d < 0 { b = -b; d = -d }          // q and -q are the same rotation: take the short way
            d = min(d, 1)
            self.a = a; self.b = b
            linear = d > 1 - 1e-12
            theta = linear ? 0 : acos(d)
            perp = linear ? a : (b + a * -d).normalized
        }

        func value(at t: Double) -> Quaternion {
            if linear { return (a * (1 - t) + b * t).normalized }
            return (a * cos(t * theta) + perp * sin(t * theta)).normalized
        }
    }

    /// Row-major 4x4 as nested arrays (m[i][j] = m(i+1)(j+1)).
    private var rows: [[Double]] {
        [[m11, m12, m13, m14], [m21, m22, m23, m24], [m31, m32, m33, m34], [m41, m42, m43, m44]]
    }

    /// Decomposes the transform, or returns nil when it cannot be (m44 == 0, a singular linear
    /// part, or non-finite values).
    func decomposed() -> Decomposed? {
        guard isFinite, m44 != 0 else { return nil }
        var m = rows
        let w = m44
        for i in 0..<4 { for j in 0..<4 { m[i][j] /= w } }

        // N: the matrix with the perspective column removed. Its linear part must be invertible.
        let a3 = [[m[0][0], m[0][1], m[0][2]], [m[1][0], m[1][1], m[1][2]], [m[2][0], m[2][1], m[2][2]]]
        let det = a3[0][0] * (a3[1][1] * a3[2][2] - a3[1][2] * a3[2][1])
            - a3[0][1] * (a3[1][0] * a3[2][2] - a3[1][2] * a3[2][0])
            + a3[0][2] * (a3[1][0] * a3[2][1] - a3[1][1] * a3[2][0])
        var maxEntry = 0.0
        for r in a3 { for v in r { maxEntry = max(maxEntry, abs(v)) } }
        guard maxEntry > 0, abs(det) > 1e-12 * maxEntry * maxEntry * maxEntry else { return nil }

        // Perspective: the last column c of M equals N x p, so p = N^-1 c. With N = [[A, 0], [t, 1]],
        // N^-1 = [[A^-1, 0], [-t A^-1, 1]].
        let t = (m[3][0], m[3][1], m[3][2])
        var perspective = (x: 0.0, y: 0.0, z: 0.0, w: 1.0)
        if m[0][3] != 0 || m[1][3] != 0 || m[2][3] != 0 || m[3][3] != 1 {
            let inv = Self.inverse3(a3, det: det)
            let c = (m[0][3], m[1][3], m[2][3], m[3][3])
            let px = inv[0][0] * c.0 + inv[0][1] * c.1 + inv[0][2] * c.2
            let py = inv[1][0] * c.0 + inv[1][1] * c.1 + inv[1][2] * c.2
            let pz = inv[2][0] * c.0 + inv[2][1] * c.1 + inv[2][2] * c.2
            let pw = c.3 - (t.0 * px + t.1 * py + t.2 * pz)
            perspective = (px, py, pz, pw)
        }

        // Gram-Schmidt on the rows of A: row0 = sx n0, row1 = sy (xy n0 + n1), row2 = sz (xz n0 + yz n1 + n2).
        var r = a3
        func len(_ v: [Double]) -> Double { (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).squareRoot() }
        func dot(_ a: [Double], _ b: [Double]) -> Double { a[0] * b[0] + a[1] * b[1] + a[2] * b[2] }
        func combine(_ a: [Double], _ b: [Double], _ sb: Double) -> [Double] { [a[0] + b[0] * sb, a[1] + b[1] * sb, a[2] + b[2] * sb] }
        func scaled(_ a: [Double], _ s: Double) -> [Double] { [a[0] * s, a[1] * s, a[2] * s] }

        var sx = len(r[0])
        guard sx > 0 else { return nil }
        r[0] = scaled(r[0], 1 / sx)
        var xy = dot(r[0], r[1])
        r[1] = combine(r[1], r[0], -xy)
        let sy = len(r[1])
        guard sy > 0 else { return nil }
        r[1] = scaled(r[1], 1 / sy)
        xy /= sy
        var xz = dot(r[0], r[2])
        r[2] = combine(r[2], r[0], -xz)
        var yz = dot(r[1], r[2])
        r[2] = combine(r[2], r[1], -yz)
        let sz = len(r[2])
        guard sz > 0 else { return nil }
        r[2] = scaled(r[2], 1 / sz)
        xz /= sz
        yz /= sz

        // A reflection: flip the x axis (row 0, the x scale and the skews that involve x).
        let cross = [r[1][1] * r[2][2] - r[1][2] * r[2][1], r[1][2] * r[2][0] - r[1][0] * r[2][2], r[1][0] * r[2][1] - r[1][1] * r[2][0]]
        if dot(r[0], cross) < 0 {
            sx = -sx
            r[0] = scaled(r[0], -1)
            xy = -xy
            xz = -xz
        }

        let q = Self.quaternion(rowsOf: r)
        let d = Decomposed(scale: (sx, sy, sz), skew: (xy, xz, yz), translation: t, perspective: perspective,
                           quaternion: q, homogeneousScale: w)
        let all = [sx, sy, sz, xy, xz, yz, t.0, t.1, t.2, perspective.x, perspective.y, perspective.z, perspective.w,
                   q.x, q.y, q.z, q.w]
        return all.allSatisfy { $0.isFinite } ? d : nil
    }

    /// The unit quaternion of a proper rotation given by the rows of Q (row-vector convention);
    /// the column-vector matrix is R = Q^T. Shepperd's method: divide by the largest of
    /// 4w^2, 4x^2, 4y^2, 4z^2, so the result is accurate also near half turns.
    private static func quaternion(rowsOf q: [[Double]]) -> Quaternion {
        // R[i][j] = q[j][i]
        let r00 = q[0][0], r11 = q[1][1], r22 = q[2][2]
        let r01 = q[1][0], r10 = q[0][1], r02 = q[2][0], r20 = q[0][2], r12 = q[2][1], r21 = q[1][2]
        let trace = r00 + r11 + r22
        var out: Quaternion
        if trace >= r00 && trace >= r11 && trace >= r22 {
            let s = (max(1 + trace, 0)).squareRoot() * 2   // 4w
            out = Quaternion(x: (r21 - r12) / s, y: (r02 - r20) / s, z: (r10 - r01) / s, w: s / 4)
        } else if r00 >= r11 && r00 >= r22 {
            let s = (max(1 + r00 - r11 - r22, 0)).squareRoot() * 2   // 4x
            out = Quaternion(x: s / 4, y: (r01 + r10) / s, z: (r02 + r20) / s, w: (r21 - r12) / s)
        } else if r11 >= r22 {
            let s = (max(1 + r11 - r00 - r22, 0)).squareRoot() * 2   // 4y
            out = Quaternion(x: (r01 + r10) / s, y: s / 4, z: (r12 + r21) / s, w: (r02 - r20) / s)
        } else {
            let s = (max(1 + r22 - r00 - r11, 0)).squareRoot() * 2   // 4z
            out = Quaternion(x: (r02 + r20) / s, y: (r12 + r21) / s, z: s / 4, w: (r10 - r01) / s)
        }
        return out.normalized
    }

    private static func inverse3(_ a: [[Double]], det: Double) -> [[Double]] {
        let id = 1 / det
        return [
            [(a[1][1] * a[2][2] - a[1][2] * a[2][1]) * id, (a[0][2] * a[2][1] - a[0][1] * a[2][2]) * id, (a[0][1] * a[1][2] - a[0][2] * a[1][1]) * id],
            [(a[1][2] * a[2][0] - a[1][0] * a[2][2]) * id, (a[0][0] * a[2][2] - a[0][2] * a[2][0]) * id, (a[0][2] * a[1][0] - a[0][0] * a[1][2]) * id],
            [(a[1][0] * a[2][1] - a[1][1] * a[2][0]) * id, (a[0][1] * a[2][0] - a[0][0] * a[2][1]) * id, (a[0][0] * a[1][1] - a[0][1] * a[1][0]) * id],
        ]
    }

    /// Recomposes a decomposed transform (the inverse of `decomposed()`). Scalars only: it runs
    /// for every animated transform on every frame, and nested arrays would allocate each time.
    init(recomposing d: Decomposed) {
        let q = d.quaternion
        let (x, y, z, w) = (q.x, q.y, q.z, q.w)
        // Column-vector rotation R (standard quaternion formula); Q = R^T, whose rows are
        // n0 = (r00, r10, r20), n1 = (r01, r11, r21), n2 = (r02, r12, r22).
        let r00 = 1 - 2 * (y * y + z * z), r01 = 2 * (x * y - z * w), r02 = 2 * (x * z + y * w)
        let r10 = 2 * (x * y + z * w), r11 = 1 - 2 * (x * x + z * z), r12 = 2 * (y * z - x * w)
        let r20 = 2 * (x * z - y * w), r21 = 2 * (y * z + x * w), r22 = 1 - 2 * (x * x + y * y)
        let s = d.scale, k = d.skew
        // A = diag(scale) x K x Q, row by row.
        let a00 = s.x * r00, a01 = s.x * r10, a02 = s.x * r20
        let a10 = s.y * (k.xy * r00 + r01), a11 = s.y * (k.xy * r10 + r11), a12 = s.y * (k.xy * r20 + r21)
        let a20 = s.z * (k.xz * r00 + k.yz * r01 + r02), a21 = s.z * (k.xz * r10 + k.yz * r11 + r12)
        let a22 = s.z * (k.xz * r20 + k.yz * r21 + r22)
        let t = d.translation, p = d.perspective
        // M = N x P: the first three columns are N's; the last is N p.
        let m03 = a00 * p.x + a01 * p.y + a02 * p.z
        let m13 = a10 * p.x + a11 * p.y + a12 * p.z
        let m23 = a20 * p.x + a21 * p.y + a22 * p.z
        let m33 = t.x * p.x + t.y * p.y + t.z * p.z + p.w
        let h = d.homogeneousScale
        self.init(m11: a00 * h, m12: a01 * h, m13: a02 * h, m14: m03 * h,
                  m21: a10 * h, m22: a11 * h, m23: a12 * h, m24: m13 * h,
                  m31: a20 * h, m32: a21 * h, m33: a22 * h, m34: m23 * h,
                  m41: t.x * h, m42: t.y * h, m43: t.z * h, m44: m33 * h)
    }

    /// Interpolates two transforms at progress t (t may leave [0, 1], as springs overshoot).
    ///
    /// Both are decomposed (translation, scale, skew, perspective, rotation quaternion); the parts
    /// blend linearly and the rotations by shortest-arc slerp. If either cannot be decomposed
    /// (a singular matrix such as CATransform3DScale(identity, 0, 0, 1), or m44 == 0), the
    /// matrices blend component-wise, which for a diagonal scale is exactly the scale blend
    /// (scale 0 -> 1 at 0.5 is 0.5). The result is never NaN: a non-finite blend falls back to
    /// the component-wise one; a non-finite input is replaced by the other (or the identity).
    public static func interpolate(_ a: Transform3D, _ b: Transform3D, _ t: Double) -> Transform3D {
        Interpolator(a, b).value(at: t)
    }

    /// Component-wise blend of the 16 values (the fallback for matrices that do not decompose).
    static func componentwise(_ a: Transform3D, _ b: Transform3D, _ t: Double) -> Transform3D {
        let av = a.values, bv = b.values
        let out = Transform3D((0..<16).map { av[$0] + (bv[$0] - av[$0]) * t })
        return out.isFinite ? out : (t < 0.5 ? a : b)
    }
}
