import TransHostCore

/// The model state of one view that a transition may change, captured so that a cancelled
/// transition can be undone field by field.
///
/// Captured: the animatable properties (`layer`: bounds, position, anchorPoint, the 3D
/// transform, alpha, backgroundColor, cornerRadius — Core's one definition of that set), plus
/// isHidden and the superview with the view's index in it, and the view layer's Core Animation
/// side: its style (shadow, sublayerTransform, zPosition, isDoubleSided), which standalone
/// sublayers it holds in which order, and its mask. `state.bounds` and the like read the
/// layer's values.
@dynamicMemberLookup
public struct ViewState: Equatable {
    public var layer: PresentationState
    public var isHidden: Bool
    /// The id of the superview, or nil when the view was not in a hierarchy.
    public var superviewID: String?
    /// The view's index in its superview's subviews (nil without a superview).
    public var index: Int?
    weak var superview: View?
    public var layerStyle: LayerStyle
    /// The standalone sublayers and the mask (held, so that a cancel can put them back).
    var sublayers: [Layer]
    var mask: Layer?

    public init(of view: View) {
        layer = view.modelState
        isHidden = view.isHidden
        superview = view.superview
        superviewID = view.superview?.id
        index = view.superview?.subviews.firstIndex { $0 === view }
        layerStyle = view.layerStyle
        sublayers = view.sublayers
        mask = view.mask
    }

    public subscript<T>(dynamicMember keyPath: WritableKeyPath<PresentationState, T>) -> T {
        get { layer[keyPath: keyPath] }
        set { layer[keyPath: keyPath] = newValue }
    }

    public subscript<T>(dynamicMember keyPath: KeyPath<PresentationState, T>) -> T { layer[keyPath: keyPath] }

    public static func == (a: ViewState, b: ViewState) -> Bool {
        a.layer == b.layer && a.isHidden == b.isHidden && a.superviewID == b.superviewID && a.index == b.index
            && a.layerStyle == b.layerStyle && a.sublayers.map(\.id) == b.sublayers.map(\.id) && a.mask?.id == b.mask?.id
    }

    /// The fields that differ from `other`, by name (for messages and tests).
    public func differences(from other: ViewState) -> [String] {
        var d = layer.differences(from: other.layer).map(\.rawValue)
        if isHidden != other.isHidden { d.append("isHidden") }
        if superviewID != other.superviewID { d.append("superview") }
        if index != other.index { d.append("index") }
        if layerStyle != other.layerStyle { d.append("layerStyle") }
        if sublayers.map(\.id) != other.sublayers.map(\.id) { d.append("sublayers") }
        if mask?.id != other.mask?.id { d.append("mask") }
        return d
    }

    /// The value of one field named as in `differences(from:)`, for messages.
    public func describe(_ field: String) -> String {
        func n(_ x: Double) -> String { x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : "\(x)" }
        let l = layer
        switch field {
        case "bounds", "frame": let r = field == "bounds" ? l.bounds : l.frame; return "[\(n(r.minX)), \(n(r.minY)), \(n(r.width)), \(n(r.height))]"
        case "position": return "(\(n(l.position.x)), \(n(l.position.y)))"
        case "anchorPoint": return "(\(n(l.anchorPoint.x)), \(n(l.anchorPoint.y)))"
        case "transform": return l.transform == .identity ? "identity" : "[" + l.transform.values.map(n).joined(separator: ", ") + "]"
        case "alpha": return n(l.alpha)
        case "backgroundColor": return l.backgroundColor.map { "\($0)" } ?? "nil"
        case "cornerRadius": return n(l.cornerRadius)
        case "isHidden": return "\(isHidden)"
        case "superview": return superviewID ?? "no superview"
        case "index": return index.map(String.init) ?? "none"
        case "layerStyle": return layerStyle == .plain ? "default" : "\(layerStyle)"
        case "sublayers": return sublayers.isEmpty ? "none" : sublayers.map(\.id).joined(separator: ", ")
        case "mask": return mask?.id ?? "none"
        default: return "?"
        }
    }

    /// Sets `view`'s model values (outside any animation block: no animation) and hierarchy
    /// position back to these. Returns the names of the fields that had to change.
    @discardableResult
    func restore(_ view: View) -> [String] {
        let changed = differences(from: ViewState(of: view))
        for p in layer.differences(from: view.modelState) { view.setModelValue(layer[p], for: p) }
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
        if view.layerStyle != layerStyle { view.layerStyle = layerStyle }
        if view.sublayers.map(\.id) != sublayers.map(\.id) {
            for l in view.sublayers where !sublayers.contains(where: { $0 === l }) { l.removeFromSuperlayer() }
            for (i, l) in sublayers.enumerated() { view.insertSublayer(l, at: i) }
        }
        if view.mask !== mask { view.mask = mask }
        return changed
    }
}
