import TransHostCore

/// The model state of one view that a transition may change, captured so that a cancelled
/// transition can be undone field by field.
///
/// Captured: the animatable properties (`layer`: bounds, position, anchorPoint, the 3D
/// transform, alpha, backgroundColor, cornerRadius — Core's one definition of that set), plus
/// isHidden and the superview with the view's index in it. `state.bounds` and the like read the
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

    public init(of view: View) {
        layer = view.modelState
        isHidden = view.isHidden
        superview = view.superview
        superviewID = view.superview?.id
        index = view.superview?.subviews.firstIndex { $0 === view }
    }

    public subscript<T>(dynamicMember keyPath: WritableKeyPath<PresentationState, T>) -> T {
        get { layer[keyPath: keyPath] }
        set { layer[keyPath: keyPath] = newValue }
    }

    public subscript<T>(dynamicMember keyPath: KeyPath<PresentationState, T>) -> T { layer[keyPath: keyPath] }

    public static func == (a: ViewState, b: ViewState) -> Bool {
        a.layer == b.layer && a.isHidden == b.isHidden && a.superviewID == b.superviewID && a.index == b.index
    }

    /// The fields that differ from `other`, by name (for messages and tests).
    public func differences(from other: ViewState) -> [String] {
        var d = layer.differences(from: other.layer).map(\.rawValue)
        if isHidden != other.isHidden { d.append("isHidden") }
        if superviewID != other.superviewID { d.append("superview") }
        if index != other.index { d.append("index") }
        return d
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
        return changed
    }
}
