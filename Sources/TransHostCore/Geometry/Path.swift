#if canImport(Glibc)
import Glibc
#endif

/// One element of a path, as CGPathElement has them: the end point first, then control points.
public enum PathElement: Hashable, Sendable {
    case moveTo(Point)
    case lineTo(Point)
    case quadCurveTo(Point, control: Point)
    case curveTo(Point, control1: Point, control2: Point)
    case closeSubpath

    /// The points this element carries, end point first (CGPathElement's order differs; ours
    /// keeps the end point where every kind has it).
    public var points: [Point] {
        switch self {
        case .moveTo(let p), .lineTo(let p): return [p]
        case .quadCurveTo(let p, let c): return [p, c]
        case .curveTo(let p, let c1, let c2): return [p, c1, c2]
        case .closeSubpath: return []
        }
    }

    /// The same kind of element with other points (as many as `points` has).
    func with(points q: [Point]) -> PathElement {
        switch self {
        case .moveTo: return .moveTo(q[0])
        case .lineTo: return .lineTo(q[0])
        case .quadCurveTo: return .quadCurveTo(q[0], control: q[1])
        case .curveTo: return .curveTo(q[0], control1: q[1], control2: q[2])
        case .closeSubpath: return .closeSubpath
        }
    }

    /// 0 move, 1 line, 2 quad, 3 cubic, 4 close (the ABI's `th_path_element.kind`).
    public var kind: Int {
        switch self {
        case .moveTo: return 0
        case .lineTo: return 1
        case .quadCurveTo: return 2
        case .curveTo: return 3
        case .closeSubpath: return 4
        }
    }
}

/// How a filled path decides what is inside (CAShapeLayerFillRule).
public enum FillRule: String, Hashable, Sendable, CaseIterable { case nonZero, evenOdd }
/// How a stroke's open ends are drawn (CAShapeLayerLineCap).
public enum LineCap: String, Hashable, Sendable, CaseIterable { case butt, round, square }
/// How a stroke's corners are drawn (CAShapeLayerLineJoin).
public enum LineJoin: String, Hashable, Sendable, CaseIterable { case miter, round, bevel }

/// A path value (CGPath): subpaths of lines and quadratic and cubic Bezier curves, in the
/// coordinates of the layer that draws it. A value, so presentation frames can hold one.
public struct Path: Hashable, Sendable {
    public var elements: [PathElement]

    public init(elements: [PathElement] = []) { self.elements = elements }

    public var elementCount: Int { elements.count }
    public var isEmpty: Bool { elements.isEmpty }

    // MARK: Building

    public mutating func move(to p: Point) { elements.append(.moveTo(p)) }
    public mutating func addLine(to p: Point) { elements.append(.lineTo(p)) }
    public mutating func addQuadCurve(to p: Point, control: Point) { elements.append(.quadCurveTo(p, control: control)) }
    public mutating func addCurve(to p: Point, control1: Point, control2: Point) {
        elements.append(.curveTo(p, control1: control1, control2: control2))
    }
    public mutating func closeSubpath() { elements.append(.closeSubpath) }

    /// A closed rectangle, clockwise on screen from its top-left corner (CGPath(rect:)).
    public static func rect(_ r: Rect) -> Path {
        var p = Path()
        p.move(to: Point(x: r.minX, y: r.minY)); p.addLine(to: Point(x: r.maxX, y: r.minY))
        p.addLine(to: Point(x: r.maxX, y: r.maxY)); p.addLine(to: Point(x: r.minX, y: r.maxY))
        p.closeSubpath()
        return p
    }

    /// The ellipse inscribed in `r` as four cubic quarter arcs from its right-most point
    /// (CGPath(ellipseIn:)); 6 elements.
    public static func ellipse(in r: Rect) -> Path {
        var p = Path()
        let c = Point(x: r.midX, y: r.midY)
        p.move(to: Point(x: r.maxX, y: c.y))
        p.addArc(center: c, radiusX: r.width / 2, radiusY: r.height / 2, startAngle: 0, endAngle: 2 * Double.pi, clockwise: true, connect: false)
        p.closeSubpath()
        return p
    }

    /// A circular arc from `startAngle` to `endAngle` (radians, y down: clockwise on screen is
    /// increasing angle, as UIBezierPath's `clockwise: true`). The arc starts with a line from
    /// the current point (or a move when the path is empty) and is made of cubic Beziers of at
    /// most a quarter turn each, so a full circle has 1 + 4 elements.
    public mutating func addArc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool) {
        addArc(center: center, radiusX: radius, radiusY: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise, connect: true)
    }

    private mutating func addArc(center c: Point, radiusX rx: Double, radiusY ry: Double, startAngle a0: Double, endAngle a1: Double,
                                 clockwise: Bool, connect: Bool) {
        var sweep = a1 - a0
        let full = 2 * Double.pi
        if clockwise { if sweep < 0 { sweep = sweep.truncatingRemainder(dividingBy: full) + full } ; if sweep > full { sweep = full } }
        else { if sweep > 0 { sweep = sweep.truncatingRemainder(dividingBy: full) - full } ; if sweep < -full { sweep = -full } }
        let start = Point(x: c.x + rx * cos(a0), y: c.y + ry * sin(a0))
        if connect { if elements.isEmpty { move(to: start) } else { addLine(to: start) } }
        let segments = max(1, Int((abs(sweep) / (Double.pi / 2) - 1e-9).rounded(.up)))
        let step = sweep / Double(segments)
        // A cubic approximates an arc of angle s with control arms of 4/3 tan(s/4).
        let k = 4.0 / 3.0 * tan(step / 4)
        var a = a0
        for _ in 0..<segments {
            let b = a + step
            let p0 = (cos(a), sin(a)), p1 = (cos(b), sin(b))
            addCurve(to: Point(x: c.x + rx * p1.0, y: c.y + ry * p1.1),
                     control1: Point(x: c.x + rx * (p0.0 - k * p0.1), y: c.y + ry * (p0.1 + k * p0.0)),
                     control2: Point(x: c.x + rx * (p1.0 + k * p1.1), y: c.y + ry * (p1.1 - k * p1.0)))
            a = b
        }
    }

    // MARK: Measuring

    /// Every point of every element, control points included.
    public var allPoints: [Point] { elements.flatMap(\.points) }

    /// The smallest rectangle holding every point, control points included (CGPath's
    /// `boundingBox`); `.zero` for an empty path.
    public var boundingBox: Rect {
        Self.box(allPoints)
    }

    /// The smallest rectangle holding the path itself: curves are measured at their extremes,
    /// not at their control points (CGPath's `boundingBoxOfPath`). What the trace shows.
    public var pathBoundingBox: Rect {
        var pts: [Point] = []
        var current = Point.zero, subpathStart = Point.zero
        for e in elements {
            switch e {
            case .moveTo(let p): pts.append(p); current = p; subpathStart = p
            case .lineTo(let p): pts.append(p); current = p
            case .quadCurveTo(let p, let c):
                pts.append(p)
                for t in Self.quadExtrema(current.x, c.x, p.x) + Self.quadExtrema(current.y, c.y, p.y) {
                    pts.append(Self.quad(current, c, p, t))
                }
                current = p
            case .curveTo(let p, let c1, let c2):
                pts.append(p)
                for t in Self.cubicExtrema(current.x, c1.x, c2.x, p.x) + Self.cubicExtrema(current.y, c1.y, c2.y, p.y) {
                    pts.append(Self.cubic(current, c1, c2, p, t))
                }
                current = p
            case .closeSubpath: current = subpathStart
            }
        }
        return Self.box(pts)
    }

    static func box(_ pts: [Point]) -> Rect {
        guard let f = pts.first else { return .zero }
        var minX = f.x, minY = f.y, maxX = f.x, maxY = f.y
        for p in pts { minX = min(minX, p.x); minY = min(minY, p.y); maxX = max(maxX, p.x); maxY = max(maxY, p.y) }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    public static func quad(_ a: Point, _ c: Point, _ b: Point, _ t: Double) -> Point {
        let s = 1 - t
        return Point(x: s * s * a.x + 2 * s * t * c.x + t * t * b.x, y: s * s * a.y + 2 * s * t * c.y + t * t * b.y)
    }

    public static func cubic(_ a: Point, _ c1: Point, _ c2: Point, _ b: Point, _ t: Double) -> Point {
        let s = 1 - t
        let (w0, w1, w2, w3) = (s * s * s, 3 * s * s * t, 3 * s * t * t, t * t * t)
        return Point(x: w0 * a.x + w1 * c1.x + w2 * c2.x + w3 * b.x, y: w0 * a.y + w1 * c1.y + w2 * c2.y + w3 * b.y)
    }

    private static func quadExtrema(_ a: Double, _ c: Double, _ b: Double) -> [Double] {
        let d = a - 2 * c + b
        guard d != 0 else { return [] }
        let t = (a - c) / d
        return t > 0 && t < 1 ? [t] : []
    }

    private static func cubicExtrema(_ p0: Double, _ p1: Double, _ p2: Double, _ p3: Double) -> [Double] {
        // Roots of the derivative 3[(p1-p0)(1-t)^2 + 2(p2-p1)(1-t)t + (p3-p2)t^2].
        let a = -p0 + 3 * p1 - 3 * p2 + p3, b = 2 * (p0 - 2 * p1 + p2), c = p1 - p0
        var roots: [Double] = []
        if abs(a) < 1e-12 {
            if b != 0 { roots.append(-c / b) }
        } else {
            let disc = b * b - 4 * a * c
            if disc >= 0 {
                let s = disc.squareRoot()
                roots += [(-b + s) / (2 * a), (-b - s) / (2 * a)]
            }
        }
        return roots.filter { $0 > 0 && $0 < 1 }
    }

    // MARK: Interpolating

    /// Whether the two paths morph element by element (Core Animation's rule for animating
    /// `path`): the same moves, lines and curves in the same order. `closeSubpath` carries no
    /// point and is not compared, so an oval (which closes) morphs into a full-circle arc (which
    /// does not), as the circle reveal every tutorial shows does on a device.
    public func canInterpolate(with other: Path) -> Bool {
        let a = elements.filter { $0 != .closeSubpath }, b = other.elements.filter { $0 != .closeSubpath }
        return a.count == b.count && zip(a, b).allSatisfy { $0.kind == $1.kind }
    }

    /// Every point moved `t` of the way from `a`'s to `b`'s (t may leave [0, 1], for springs),
    /// with `a`'s elements; nil when they do not morph (`canInterpolate`).
    public static func interpolate(_ a: Path, _ b: Path, _ t: Double) -> Path? {
        guard a.canInterpolate(with: b) else { return nil }
        let p = a.pointVector, q = b.pointVector
        return a.with(pointVector: zip(p, q).map { $0 + ($1 - $0) * t })
    }

    /// The path's points as a flat vector (x0, y0, x1, y1, ...), and back with the same elements.
    public var pointVector: [Double] { allPoints.flatMap { [$0.x, $0.y] } }
    public func with(pointVector v: [Double]) -> Path {
        var i = 0
        return Path(elements: elements.map { e in
            let n = e.points.count
            var q: [Point] = []
            for _ in 0..<n { q.append(i + 1 < v.count ? Point(x: v[i], y: v[i + 1]) : .zero); i += 2 }
            return e.with(points: q)
        })
    }

    /// Every point mapped by `t` (CGPath's `copy(using:)`).
    public func applying(_ t: AffineTransform) -> Path {
        Path(elements: elements.map { e in e.with(points: e.points.map { t.apply($0) }) })
    }

    /// Whether every coordinate is finite.
    public var isFinite: Bool { allPoints.allSatisfy(\.isFinite) }
}
