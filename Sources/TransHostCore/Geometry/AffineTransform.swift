/// CGAffineTransform: (x, y) -> (a x + c y + tx, b x + d y + ty).
public struct AffineTransform: Equatable, Hashable, Sendable {
    public var a, b, c, d, tx, ty: Double
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a; self.b = b; self.c = c; self.d = d; self.tx = tx; self.ty = ty
    }
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
    public init(scaleX: Double, y: Double) { self.init(a: scaleX, b: 0, c: 0, d: y, tx: 0, ty: 0) }
    public init(translationX: Double, y: Double) { self.init(a: 1, b: 0, c: 0, d: 1, tx: translationX, ty: y) }
    public init(rotationAngle angle: Double) {
        let cs = Foundation_cos(angle), sn = Foundation_sin(angle)
        self.init(a: cs, b: sn, c: -sn, d: cs, tx: 0, ty: 0)
    }
    /// `self` then `other` (CGAffineTransformConcat(self, other)).
    public func concatenating(_ o: AffineTransform) -> AffineTransform {
        AffineTransform(a: a * o.a + b * o.c, b: a * o.b + b * o.d,
                        c: c * o.a + d * o.c, d: c * o.b + d * o.d,
                        tx: tx * o.a + ty * o.c + o.tx, ty: tx * o.b + ty * o.d + o.ty)
    }
    public func apply(_ p: Point) -> Point { Point(x: a * p.x + c * p.y + tx, y: b * p.x + d * p.y + ty) }
    public var isFinite: Bool { [a, b, c, d, tx, ty].allSatisfy { $0.isFinite } }
}
