/// The animatable property set of a layer, as values: what the screen shows for one view at one
/// instant (the presentation layer), and the model values the coordinators capture to undo a
/// cancelled transition (`ViewState` holds one). This struct and `AnimatableProperty` are the one
/// definition of that set: a new animatable property is added here, once.
public struct PresentationState: Equatable, Sendable {
    public var bounds: Rect
    public var position: Point
    public var anchorPoint: Point
    public var transform: Transform3D
    public var alpha: Double
    public var backgroundColor: Color?
    public var cornerRadius: Double

    public init(bounds: Rect, position: Point, anchorPoint: Point, transform: Transform3D, alpha: Double,
                backgroundColor: Color?, cornerRadius: Double) {
        self.bounds = bounds; self.position = position; self.anchorPoint = anchorPoint; self.transform = transform
        self.alpha = alpha; self.backgroundColor = backgroundColor; self.cornerRadius = cornerRadius
    }

    /// The frame the presentation values describe (see View.frame).
    public var frame: Rect { View.frame(bounds: bounds, position: position, anchor: anchorPoint, transform: transform) }

    /// One property's value as the engine carries it (see AnimatableProperty.width).
    public subscript(property: AnimatableProperty) -> AnimatableValue {
        get {
            switch property {
            case .bounds: return ValueCodec.rect(bounds)
            case .position: return ValueCodec.point(position)
            case .anchorPoint: return ValueCodec.point(anchorPoint)
            case .transform: return transform.values
            case .alpha: return [alpha]
            case .backgroundColor: return ValueCodec.color(backgroundColor)
            case .cornerRadius: return [cornerRadius]
            }
        }
        set {
            switch property {
            case .bounds: bounds = ValueCodec.rect(newValue)
            case .position: position = ValueCodec.point(newValue)
            case .anchorPoint: anchorPoint = ValueCodec.point(newValue)
            case .transform: transform = Transform3D(newValue)
            case .alpha: alpha = newValue[0]
            case .backgroundColor: backgroundColor = ValueCodec.color(newValue)
            case .cornerRadius: cornerRadius = newValue[0]
            }
        }
    }

    /// The properties whose values differ from `other`'s, in `AnimatableProperty` order.
    public func differences(from other: PresentationState) -> [AnimatableProperty] {
        AnimatableProperty.allCases.filter { self[$0] != other[$0] }
    }
}
