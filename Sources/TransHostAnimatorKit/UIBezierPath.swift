/// CGPath: a path as a list of elements (what UIBezierPath builds). The host does not draw paths
/// yet; they are kept and measured (`boundingBox`), e.g. for `layer.shadowPath`.
open class CGPath: NSObject {
    public enum Element: Equatable, Sendable {
        case moveTo(CGPoint), lineTo(CGPoint), quadCurveTo(CGPoint, control: CGPoint)
        case curveTo(CGPoint, control1: CGPoint, control2: CGPoint), closeSubpath
    }
    public internal(set) var elements: [Element] = []
    public override init() { super.init() }
    /// The smallest rectangle holding every point of the path, control points included.
    public var boundingBox: CGRect {
        var pts: [CGPoint] = []
        for e in elements {
            switch e {
            case .moveTo(let p), .lineTo(let p): pts.append(p)
            case .quadCurveTo(let p, let c): pts += [p, c]
            case .curveTo(let p, let c1, let c2): pts += [p, c1, c2]
            case .closeSubpath: break
            }
        }
        guard let first = pts.first else { return .null }
        return pts.dropFirst().reduce(CGRect(origin: first, size: .zero)) { $0.union(CGRect(origin: $1, size: .zero)) }
    }
    public var isEmpty: Bool { elements.isEmpty }
}

public typealias CGMutablePath = CGPath

extension CGPath {
    public func move(to p: CGPoint) { elements.append(.moveTo(p)) }
    public func addLine(to p: CGPoint) { elements.append(.lineTo(p)) }
    public func closeSubpath() { elements.append(.closeSubpath) }
}

/// UIBezierPath: builds a CGPath with UIKit's names.
open class UIBezierPath: NSObject {
    public let cgPath = CGPath()
    open var lineWidth: CGFloat = 1
    public override init() { super.init() }
    public convenience init(rect: CGRect) {
        self.init()
        move(to: CGPoint(x: rect.minX, y: rect.minY)); addLine(to: CGPoint(x: rect.maxX, y: rect.minY))
        addLine(to: CGPoint(x: rect.maxX, y: rect.maxY)); addLine(to: CGPoint(x: rect.minX, y: rect.maxY)); close()
    }
    /// An ellipse in `rect`, as four cubic arcs (UIKit's construction).
    public convenience init(ovalIn rect: CGRect) {
        self.init()
        let k: CGFloat = 0.5522847498, rx = rect.width / 2, ry = rect.height / 2, c = CGPoint(x: rect.midX, y: rect.midY)
        move(to: CGPoint(x: c.x + rx, y: c.y))
        addCurve(to: CGPoint(x: c.x, y: c.y + ry), controlPoint1: CGPoint(x: c.x + rx, y: c.y + k * ry), controlPoint2: CGPoint(x: c.x + k * rx, y: c.y + ry))
        addCurve(to: CGPoint(x: c.x - rx, y: c.y), controlPoint1: CGPoint(x: c.x - k * rx, y: c.y + ry), controlPoint2: CGPoint(x: c.x - rx, y: c.y + k * ry))
        addCurve(to: CGPoint(x: c.x, y: c.y - ry), controlPoint1: CGPoint(x: c.x - rx, y: c.y - k * ry), controlPoint2: CGPoint(x: c.x - k * rx, y: c.y - ry))
        addCurve(to: CGPoint(x: c.x + rx, y: c.y), controlPoint1: CGPoint(x: c.x + k * rx, y: c.y - ry), controlPoint2: CGPoint(x: c.x + rx, y: c.y - k * ry))
        close()
    }
    public convenience init(roundedRect rect: CGRect, cornerRadius: CGFloat) {
        self.init()
        let r = min(cornerRadius, rect.width / 2, rect.height / 2)
        move(to: CGPoint(x: rect.minX + r, y: rect.minY))
        addLine(to: CGPoint(x: rect.maxX - r, y: rect.minY))
        addQuadCurve(to: CGPoint(x: rect.maxX, y: rect.minY + r), controlPoint: CGPoint(x: rect.maxX, y: rect.minY))
        addLine(to: CGPoint(x: rect.maxX, y: rect.maxY - r))
        addQuadCurve(to: CGPoint(x: rect.maxX - r, y: rect.maxY), controlPoint: CGPoint(x: rect.maxX, y: rect.maxY))
        addLine(to: CGPoint(x: rect.minX + r, y: rect.maxY))
        addQuadCurve(to: CGPoint(x: rect.minX, y: rect.maxY - r), controlPoint: CGPoint(x: rect.minX, y: rect.maxY))
        addLine(to: CGPoint(x: rect.minX, y: rect.minY + r))
        addQuadCurve(to: CGPoint(x: rect.minX + r, y: rect.minY), controlPoint: CGPoint(x: rect.minX, y: rect.minY))
        close()
    }
    /// A circular arc, as line segments every 5 degrees (close enough to measure and to draw).
    public convenience init(arcCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        self.init()
        var sweep = endAngle - startAngle
        if clockwise && sweep < 0 { sweep += 2 * .pi }
        if !clockwise && sweep > 0 { sweep -= 2 * .pi }
        let steps = max(1, Int((abs(sweep) / (.pi / 36)).rounded(.up)))
        for i in 0...steps {
            let a = startAngle + sweep * CGFloat(i) / CGFloat(steps)
            let p = CGPoint(x: center.x + radius * CGFloat(cos(Double(a))), y: center.y + radius * CGFloat(sin(Double(a))))
            i == 0 ? move(to: p) : addLine(to: p)
        }
    }
    open func move(to point: CGPoint) { cgPath.elements.append(.moveTo(point)) }
    open func addLine(to point: CGPoint) { cgPath.elements.append(.lineTo(point)) }
    open func addQuadCurve(to point: CGPoint, controlPoint: CGPoint) { cgPath.elements.append(.quadCurveTo(point, control: controlPoint)) }
    open func addCurve(to point: CGPoint, controlPoint1: CGPoint, controlPoint2: CGPoint) {
        cgPath.elements.append(.curveTo(point, control1: controlPoint1, control2: controlPoint2))
    }
    open func close() { cgPath.elements.append(.closeSubpath) }
    open func append(_ path: UIBezierPath) { cgPath.elements += path.cgPath.elements }
    open var bounds: CGRect { cgPath.boundingBox }
    open var isEmpty: Bool { cgPath.isEmpty }
}
