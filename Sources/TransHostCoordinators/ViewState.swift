import TransHostCore

/// The model state of one view that a transition may change, captured so that a cancelled
/// transition can be undone field by field.
///
/// Captured: bounds, position, anchorPoint, the 3D transform, alpha, backgroundColor,
/// cornerRadius, isHidden, and the superview with the view's index in it.
public struct ViewState: Equatable {
    public var bounds: Rect
    public var position: Point
    public var anchorPoint: Point
    public var transform: Transform3D
    public var alpha: Double
    public var backgroundColor: Color?
    public var cornerRadius: Double
    public var isHidden: Bool
    /// The id of the superview, or nil when the view was not in a hierarchy.
    public var superviewID: String?
    /// The view's index in its superview's subviews (nil without a superview).
    public var index: Int?
    weak var superview: View?
    /// The frame at capture time (derived from the fields above; View.frame's rule).
    public var frame: Rect

    public init(of view: View) {
        bounds = view.bounds; position = view.position; anchorPoint = view.anchorPoint
        transform = view.transform3D; alpha = view.alpha; backgroundColor = view.backgroundColor
        cornerRadius = view.cornerRadius; isHidden = view.isHidden
        frame = view.frame
        superview = view.superview
        superviewID = view.superview?.id
        index = view.superview?.subviews.firstIndex { $0 === view }
    }

    public static func == (a: ViewState, b: ViewState) -> Bool {
        a.bounds == b.bounds && a.position == b.position && a.anchorPoint == b.anchorPoint && a.transform == b.transform
            && a.alpha == b.alpha && a.backgroundColor == b.backgroundColor && a.cornerRadius == b.cornerRadius
            && a.isHidden == b.isHidden && a.superviewID == b.superviewID && a.index == b.index
    }

    /// The fields that differ from `other`, by name (for messages and tests).
    public func differences(from other: ViewState) -> [String] {
        var d: [String] = []
        if bounds != other.bounds { d.append("bounds") }
        if position != other.position { d.append("position") }
        if anchorPoint != other.anchorPoint { d.append("anchorPoint") }
        if transform != other.transform { d.append("transform") }
        if alpha != other.alpha { d.append("alpha") }
        if backgroundColor != other.backgroundColor { d.append("backgroundColor") }
        if cornerRadius != other.cornerRadius { d.append("cornerRadius") }
        if isHidden != other.isHidden { d.append("isHidden") }
        if superviewID != other.superviewID { d.append("superview") }
        if index != other.index { d.append("index") }
        return d
    }

    /// The value of one field named as in `differences(from:)`, for messages.
    public func describe(_ field: String) -> String {
        func n(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : "\(x)" }
        switch field {
        case "bounds", "frame": let r = field == "bounds" ? bounds : frame; return "[\(n(r.minX)), \(n(r.minY)), \(n(r.width)), \(n(r.height))]"
        case "position": return "(\(n(position.x)), \(n(position.y)))"
        case "anchorPoint": return "(\(n(anchorPoint.x)), \(n(anchorPoint.y)))"
        case "transform": return transform == .identity ? "identity" : "[" + transform.values.map(n).joined(separator: ", ") + "]"
        case "alpha": return n(alpha)
        case "backgroundColor": return backgroundColor.map { "\($0)" } ?? "nil"
        case "cornerRadius": return n(cornerRadius)
        case "isHidden": return "\(isHidden)"
        case "superview": return superviewID ?? "no superview"
        case "index": return index.map(String.init) ?? "none"
        default: return "?"
        }
    }

    /// Sets `view`'s model values (outside any animation block: no animation) and hierarchy
    /// position back to these. Returns the names of the fields that had to change.
    @discardableResult
    func restore(_ view: View) -> [String] {
        let changed = differences(from: ViewState(of: view))
        if view.bounds != bounds { view.bounds = bounds }
        if view.position != position { view.position = position }
        if view.anchorPoint != anchorPoint { view.anchorPoint = anchorPoint }
        if view.transform3D != transform { view.transform3D = transform }
        if view.alpha != alpha { view.alpha = alpha }
        if view.backgroundColor != backgroundColor { view.backgroundColor = backgroundColor }
        if view.cornerRadius != cornerRadius { view.cornerRadius = cornerRadius }
        if view.isHidden != isHidden { view.isHidden = isHidden }
        if let parent = superview, let index {
            let current = parent.subviews.firstIndex { $0 === view }
            if view.superview !== parent || current != index {
                if view.superview === parent { view.removeFromSuperview() }
                parent.insertSubview(view, at: index)
            }
        } else if superviewID == nil, view.superview != nil {
            view.removeFromSuperview()
        }
        return changed
    }
}
