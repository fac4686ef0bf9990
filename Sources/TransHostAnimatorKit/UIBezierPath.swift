import CTransHost

/// CGPath / CGMutablePath: a path as a list of elements. The host stores paths a layer uses
/// (CAShapeLayer.path, shadowPath, a mask's path, path animations) and draws them.
///
/// On Apple platforms CGPath is immutable and CGMutablePath its mutable subclass; here they are
/// one class (CGMutablePath is an alias), so `let p = CGMutablePath(); p.addLine(...)` and
/// `path.copy()` work as written.
open class CGPath: NSObject {
    public enum Element: Equatable, Sendable {
        case moveTo(CGPoint), lineTo(CGPoint), quadCurveTo(CGPoint, control: CGPoint)
        case curveTo(CGPoint, control1: CGPoint, control2: CGPoint), closeSubpath
    }
    public internal(set) var elements: [Element] = []
    public override init() { super.init() }
    init(elements: [Element]) { self.elements = elements; super.init() }

    public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        self.init(); addRect(rect, transform: transform?.pointee ?? .identity)
    }
    public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        self.init(); addEllipse(in: rect, transform: transform?.pointee ?? .identity)
    }
    public convenience init(roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat, transform: UnsafePointer<CGAffineTransform>?) {
        self.init(); addRoundedRect(in: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight, transform: transform?.pointee ?? .identity)
    }

    /// The smallest rectangle holding every point of the path, control points included.
    public var boundingBox: CGRect { Self.box(elements.flatMap(\.points)) }
    /// The smallest rectangle holding the path itself (curves sampled finely; control points
    /// that the curve does not reach are left out).
    public var boundingBoxOfPath: CGRect {
        var pts: [CGPoint] = []
        var current = CGPoint.zero, start = CGPoint.zero
        for e in elements {
            switch e {
            case .moveTo(let p): pts.append(p); current = p; start = p
            case .lineTo(let p): pts.append(p); current = p
            case .quadCurveTo(let p, let c):
                for i in 1...64 { let t = CGFloat(i) / 64, s = 1 - t
                    pts.append(CGPoint(x: s * s * current.x + 2 * s * t * c.x + t * t * p.x, y: s * s * current.y + 2 * s * t * c.y + t * t * p.y)) }
                current = p
            case .curveTo(let p, let c1, let c2):
                for i in 1...64 { let t = CGFloat(i) / 64, s = 1 - t
                    let a = s * s * s, b = 3 * s * s * t, c = 3 * s * t * t, d = t * t * t
                    pts.append(CGPoint(x: a * current.x + b * c1.x + c * c2.x + d * p.x, y: a * current.y + b * c1.y + c * c2.y + d * p.y)) }
                current = p
            case .closeSubpath: current = start
            }
        }
        return Self.box(pts)
    }
    static func box(_ pts: [CGPoint]) -> CGRect {
        guard let first = pts.first else { return .null }
        return pts.dropFirst().reduce(CGRect(origin: first, size: .zero)) { $0.union(CGRect(origin: $1, size: .zero)) }
    }
    public var isEmpty: Bool { elements.isEmpty }
    /// The end point of the last element (CGPath.currentPoint).
    public var currentPoint: CGPoint {
        var start = CGPoint.zero, current = CGPoint.zero
        for e in elements {
            switch e {
            case .moveTo(let p): start = p; current = p
            case .lineTo(let p), .quadCurveTo(let p, _), .curveTo(let p, _, _): current = p
            case .closeSubpath: current = start
            }
        }
        return current
    }
    public func copy() -> CGPath? { CGPath(elements: elements) }
    public func mutableCopy() -> CGMutablePath? { CGPath(elements: elements) }
    /// A copy with every point mapped by `transform`.
    public func copy(using transform: UnsafePointer<CGAffineTransform>?) -> CGPath? {
        let t = transform?.pointee ?? .identity
        return CGPath(elements: elements.map { $0.applying(t) })
    }
    open override func isEqual(_ object: Any?) -> Bool { (object as? CGPath)?.elements == elements }

    var th: [th_path_element] {
        elements.map { e in
            let p = e.points.map(\.th) + Array(repeating: th_point(x: 0, y: 0), count: 3)
            return th_path_element(kind: e.kind, points: (p[0], p[1], p[2]))
        }
    }
    convenience init(th elements: UnsafePointer<th_path_element>, count: Int) {
        self.init()
        for i in 0..<count {
            let e = elements[i]
            let p = [e.points.0, e.points.1, e.points.2].map(CGPoint.init)
            switch e.kind {
            case TH_PATH_MOVE: self.elements.append(.moveTo(p[0]))
            case TH_PATH_LINE: self.elements.append(.lineTo(p[0]))
            case TH_PATH_QUAD: self.elements.append(.quadCurveTo(p[0], control: p[1]))
            case TH_PATH_CUBIC: self.elements.append(.curveTo(p[0], control1: p[1], control2: p[2]))
            default: self.elements.append(.closeSubpath)
            }
        }
    }
}

public typealias CGMutablePath = CGPath

extension CGPath.Element {
    var points: [CGPoint] {
        switch self {
        case .moveTo(let p), .lineTo(let p): return [p]
        case .quadCurveTo(let p, let c): return [p, c]
        case .curveTo(let p, let c1, let c2): return [p, c1, c2]
        case .closeSubpath: return []
        }
    }
    var kind: UInt32 {
        switch self {
        case .moveTo: return TH_PATH_MOVE
        case .lineTo: return TH_PATH_LINE
        case .quadCurveTo: return TH_PATH_QUAD
        case .curveTo: return TH_PATH_CUBIC
        case .closeSubpath: return TH_PATH_CLOSE
        }
    }
    func applying(_ t: CGAffineTransform) -> CGPath.Element {
        switch self {
        case .moveTo(let p): return .moveTo(p.applying(t))
        case .lineTo(let p): return .lineTo(p.applying(t))
        case .quadCurveTo(let p, let c): return .quadCurveTo(p.applying(t), control: c.applying(t))
        case .curveTo(let p, let c1, let c2): return .curveTo(p.applying(t), control1: c1.applying(t), control2: c2.applying(t))
        case .closeSubpath: return .closeSubpath
        }
    }
}

extension CGPath {
    public func move(to p: CGPoint, transform: CGAffineTransform = .identity) { elements.append(.moveTo(p.applying(transform))) }
    public func addLine(to p: CGPoint, transform: CGAffineTransform = .identity) { elements.append(.lineTo(p.applying(transform))) }
    public func addQuadCurve(to p: CGPoint, control: CGPoint, transform: CGAffineTransform = .identity) {
        elements.append(CGPath.Element.quadCurveTo(p, control: control).applying(transform))
    }
    public func addCurve(to p: CGPoint, control1: CGPoint, control2: CGPoint, transform: CGAffineTransform = .identity) {
        elements.append(CGPath.Element.curveTo(p, control1: control1, control2: control2).applying(transform))
    }
    public func closeSubpath() { elements.append(.closeSubpath) }
    public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
        for (i, p) in points.enumerated() { i == 0 ? move(to: p, transform: transform) : addLine(to: p, transform: transform) }
    }
    public func addRect(_ r: CGRect, transform: CGAffineTransform = .identity) {
        addLines(between: [CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY), CGPoint(x: r.maxX, y: r.maxY), CGPoint(x: r.minX, y: r.maxY)],
                 transform: transform)
        closeSubpath()
    }
    public func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) { for r in rects { addRect(r, transform: transform) } }
    /// The ellipse in `rect`: a move and four cubic quarter arcs clockwise on screen from the
    /// right-most point, then a close (6 elements, like Core Graphics).
    public func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        let c = CGPoint(x: rect.midX, y: rect.midY)
        move(to: CGPoint(x: rect.maxX, y: c.y), transform: transform)
        appendArc(center: c, rx: rect.width / 2, ry: rect.height / 2, start: 0, sweep: 2 * .pi, transform: transform)
        closeSubpath()
    }
    public func addRoundedRect(in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat, transform: CGAffineTransform = .identity) {
        let rx = min(max(cornerWidth, 0), rect.width / 2), ry = min(max(cornerHeight, 0), rect.height / 2)
        move(to: CGPoint(x: rect.minX + rx, y: rect.minY), transform: transform)
        addLine(to: CGPoint(x: rect.maxX - rx, y: rect.minY), transform: transform)
        appendArc(center: CGPoint(x: rect.maxX - rx, y: rect.minY + ry), rx: rx, ry: ry, start: -.pi / 2, sweep: .pi / 2, transform: transform)
        addLine(to: CGPoint(x: rect.maxX, y: rect.maxY - ry), transform: transform)
        appendArc(center: CGPoint(x: rect.maxX - rx, y: rect.maxY - ry), rx: rx, ry: ry, start: 0, sweep: .pi / 2, transform: transform)
        addLine(to: CGPoint(x: rect.minX + rx, y: rect.maxY), transform: transform)
        appendArc(center: CGPoint(x: rect.minX + rx, y: rect.maxY - ry), rx: rx, ry: ry, start: .pi / 2, sweep: .pi / 2, transform: transform)
        addLine(to: CGPoint(x: rect.minX, y: rect.minY + ry), transform: transform)
        appendArc(center: CGPoint(x: rect.minX + rx, y: rect.minY + ry), rx: rx, ry: ry, start: .pi, sweep: .pi / 2, transform: transform)
        closeSubpath()
    }
    /// A circular arc; y grows downwards, so `clockwise: true` on screen is increasing angle,
    /// as UIBezierPath's. Starts with a line from the current point (a move on an empty path).
    /// Core Graphics' own `clockwise` flag is flipped relative to UIKit's in a y-down space; here
    /// both take UIKit's meaning, which is what code written for a y-down view expects.
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool,
                       transform: CGAffineTransform = .identity) {
        let full = 2 * CGFloat.pi
        var sweep = endAngle - startAngle
        if clockwise { if sweep < 0 { sweep = sweep.truncatingRemainder(dividingBy: full) + full }; sweep = min(sweep, full) }
        else { if sweep > 0 { sweep = sweep.truncatingRemainder(dividingBy: full) - full }; sweep = max(sweep, -full) }
        let start = CGPoint(x: center.x + radius * cos(startAngle), y: center.y + radius * sin(startAngle))
        if elements.isEmpty { move(to: start, transform: transform) } else { addLine(to: start, transform: transform) }
        appendArc(center: center, rx: radius, ry: radius, start: startAngle, sweep: sweep, transform: transform)
    }
    /// Cubic pieces of at most a quarter turn (control arms 4/3 tan(s/4)).
    func appendArc(center c: CGPoint, rx: CGFloat, ry: CGFloat, start: CGFloat, sweep: CGFloat, transform: CGAffineTransform) {
        let n = max(1, Int((abs(sweep) / (.pi / 2) - 1e-9).rounded(.up)))
        let step = sweep / CGFloat(n), k = 4 / 3 * tan(step / 4)
        var a = start
        for _ in 0..<n {
            let b = a + step
            let (ca, sa, cb, sb) = (cos(a), sin(a), cos(b), sin(b))
            addCurve(to: CGPoint(x: c.x + rx * cb, y: c.y + ry * sb),
                     control1: CGPoint(x: c.x + rx * (ca - k * sa), y: c.y + ry * (sa + k * ca)),
                     control2: CGPoint(x: c.x + rx * (cb + k * sb), y: c.y + ry * (sb - k * cb)), transform: transform)
            a = b
        }
    }
    public func addPath(_ path: CGPath, transform: CGAffineTransform = .identity) { elements += path.elements.map { $0.applying(transform) } }
}

/// UIBezierPath: builds a CGPath with UIKit's names.
open class UIBezierPath: NSObject {
    public private(set) var cgPath = CGPath()
    open var lineWidth: CGFloat = 1
    public override init() { super.init() }
    public init(cgPath: CGPath) { self.cgPath = cgPath.copy() ?? CGPath(); super.init() }
    public convenience init(rect: CGRect) { self.init(); cgPath.addRect(rect) }
    /// An ellipse in `rect`, as four cubic arcs.
    public convenience init(ovalIn rect: CGRect) { self.init(); cgPath.addEllipse(in: rect) }
    public convenience init(roundedRect rect: CGRect, cornerRadius: CGFloat) {
        self.init(); cgPath.addRoundedRect(in: rect, cornerWidth: cornerRadius, cornerHeight: cornerRadius)
    }
    /// A circular arc (y down: `clockwise` as on screen), as cubic pieces of at most a quarter turn.
    public convenience init(arcCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        self.init(); cgPath.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
    }
    open func move(to point: CGPoint) { cgPath.move(to: point) }
    open func addLine(to point: CGPoint) { cgPath.addLine(to: point) }
    open func addQuadCurve(to point: CGPoint, controlPoint: CGPoint) { cgPath.addQuadCurve(to: point, control: controlPoint) }
    open func addCurve(to point: CGPoint, controlPoint1: CGPoint, controlPoint2: CGPoint) {
        cgPath.addCurve(to: point, control1: controlPoint1, control2: controlPoint2)
    }
    open func addArc(withCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        cgPath.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
    }
    open func close() { cgPath.closeSubpath() }
    open func append(_ path: UIBezierPath) { cgPath.addPath(path.cgPath) }
    open func apply(_ transform: CGAffineTransform) { cgPath = CGPath(elements: cgPath.elements.map { $0.applying(transform) }) }
    open func removeAllPoints() { cgPath = CGPath() }
    /// Control points included, as UIKit measures it.
    open var bounds: CGRect { cgPath.boundingBox }
    open var isEmpty: Bool { cgPath.isEmpty }
    open var currentPoint: CGPoint { cgPath.currentPoint }
}
