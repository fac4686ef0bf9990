/// One standalone layer as the screen shows it at one instant: its presentation values and its
/// own sampled sublayers and mask. A value, like SampledView, so frames can be kept and sent to
/// another process.
///
/// What a renderer draws for it, in its parent's coordinates (the parent's bounds origin
/// subtracted, as for subviews): the layer's space maps to the parent's by translating the
/// anchor point (`anchorPoint` x `bounds.size` + `bounds.origin`) to the origin, applying
/// `transform`, then the parent's `sublayerTransform` about the parent's anchor point, then
/// translating to `position`. In that space it draws, in order: the shadow (beneath, offset,
/// blurred, from `shadow.path` or the layer's own alpha), the background colour filling the
/// bounds rounded by `cornerRadius`, the shape (fill, then the stroked part between
/// strokeStart and strokeEnd) or the gradient, then the sublayers sorted by zPosition (stable),
/// all clipped to the rounded bounds when `masksToBounds`, multiplied by `opacity` as a group
/// and by the mask's alpha when there is a mask. Hidden layers, and layers facing away with
/// `isDoubleSided == false`, draw nothing.
public struct SampledLayer: Hashable, Sendable {
    public let id: String
    public let name: String
    public let kind: LayerKind
    /// Presentation values (shape and gradient fields included, e.g. a morphing path).
    public let state: LayerState
    public let sublayers: [SampledLayer]
    /// Empty or one element (an array, since a struct cannot hold itself).
    let maskStorage: [SampledLayer]
    public var mask: SampledLayer? { maskStorage.first }

    public init(id: String, name: String, kind: LayerKind, state: LayerState, sublayers: [SampledLayer], mask: SampledLayer?) {
        self.id = id; self.name = name; self.kind = kind; self.state = state; self.sublayers = sublayers
        maskStorage = mask.map { [$0] } ?? []
    }

    /// Sublayers in drawing order: by zPosition, equal ones in their order.
    public var sublayersInDrawingOrder: [SampledLayer] { SampledLayer.drawingOrder(sublayers) }

    static func drawingOrder(_ ls: [SampledLayer]) -> [SampledLayer] {
        ls.enumerated().sorted { ($0.element.state.style.zPosition, $0.offset) < ($1.element.state.style.zPosition, $1.offset) }.map(\.element)
    }
}

/// What a view's own layer shows beyond its PresentationState at one instant (nil on a
/// PresentationNode whose view has none of it, so plain views sample and encode as before).
///
/// What a renderer draws with it: the shadow beneath the view (from `style.shadow.path`, or the
/// view's alpha: its background rounded by its cornerRadius, its content, sublayers and
/// subviews); then the view's background and content; then `sublayers` (drawing order:
/// `sublayersInDrawingOrder`) in the view's bounds coordinates; then the subviews. The view's
/// `style.sublayerTransform` applies to sublayers and subviews alike, about the view's anchor
/// point; with `clipsToBounds` both are clipped to the bounds rounded by the view's
/// cornerRadius. The `mask`'s alpha (drawn in the view's bounds coordinates) multiplies the view
/// and everything under it. `style.zPosition` sorts the view among its siblings;
/// `style.isDoubleSided == false` culls it when its back faces the viewer.
public struct LayerTreeSample: Hashable, Sendable {
    /// Presentation values of the view layer's style (a shadowOpacity animation shows here).
    public let style: LayerStyle
    public let sublayers: [SampledLayer]
    public let mask: SampledLayer?

    public init(style: LayerStyle, sublayers: [SampledLayer], mask: SampledLayer?) {
        self.style = style; self.sublayers = sublayers; self.mask = mask
    }

    public var sublayersInDrawingOrder: [SampledLayer] { SampledLayer.drawingOrder(sublayers) }
}

extension AnimationEngine {
    /// The layer sample of `view` at the current time, or nil when its layer has nothing beyond
    /// its PresentationState.
    public func sampleLayers(of view: View) -> LayerTreeSample? {
        guard view.hasLayerExtras else { return nil }
        let style = coreAnimation.presentationStyle(of: view)
        let sublayers = view.sublayers.map(sample)
        let mask = view.mask.map(sample)
        if sublayers.isEmpty && mask == nil && style == .plain { return nil }
        return LayerTreeSample(style: style, sublayers: sublayers, mask: mask)
    }

    /// A layer and its tree, with presentation values. Trees are at most View.maxDepth deep
    /// (insertSublayer refuses deeper ones), so the recursion is bounded.
    public func sample(_ layer: Layer) -> SampledLayer {
        SampledLayer(id: layer.id, name: layer.name, kind: layer.kind, state: coreAnimation.presentation(of: layer),
                     sublayers: layer.sublayers.map(sample), mask: layer.mask.map(sample))
    }
}
