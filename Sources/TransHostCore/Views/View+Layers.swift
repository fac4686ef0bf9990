/// The standalone layers of a view's layer: sublayers (drawn above the view's own background and
/// content and below its subviews, back to front after sorting by zPosition) and a mask.
extension View {
    /// view.layer.addSublayer: appends (or moves) `layer` to the top of this view's sublayers.
    public func addSublayer(_ layer: Layer) { insertSublayer(layer, at: sublayers.count) }

    /// view.layer.insertSublayer(_:at:); the index is clamped to [0, sublayers.count]. A layer
    /// nested more than View.maxDepth deep is refused with a warning.
    public func insertSublayer(_ layer: Layer, at index: Int) {
        if layer.height + 1 > View.maxDepth {
            engine.warn("adding layer \(layer.id) to view \(id) would nest layers more than \(View.maxDepth) deep; the layer was not added")
            return
        }
        var i = index
        if layer.hostView === self, let at = sublayers.firstIndex(where: { $0 === layer }) {
            sublayers.remove(at: at)
            if at < i { i -= 1 }
        } else {
            layer.removeFromSuperlayer()
            if let v = layer.maskOwnerView { v.mask = nil }
            if let l = layer.maskOwnerLayer { l.mask = nil }
        }
        sublayers.insert(layer, at: min(max(i, 0), sublayers.count))
        layer.hostView = self
        layer.attachedAt = engine.now
    }

    func removeSublayer(_ layer: Layer) { sublayers.removeAll { $0 === layer } }

    /// view.layer.mask: the mask's alpha, drawn in this view's bounds coordinates, multiplies
    /// the view and its whole subtree. Setting a layer that is elsewhere moves it here.
    public var mask: Layer? {
        get { maskStorage }
        set { Layer.attachMask(newValue, replacing: &maskStorage) { $0.maskOwnerView = self } }
    }

    /// Whether this view's layer has anything beyond its `PresentationState`: sublayers, a mask,
    /// a non-default style, or explicit animations. Views without any sample as before.
    var hasLayerExtras: Bool { layerExtrasFlag }

    func noteLayerExtras() {
        layerExtrasFlag = !sublayers.isEmpty || maskStorage != nil || !hasPlainStyle || !layerAnimations.isEmpty
    }

    /// Every standalone layer under this view's layer (sublayers, masks and their trees).
    public var allLayers: [Layer] {
        var out: [Layer] = []
        var stack = sublayers + (maskStorage.map { [$0] } ?? [])
        while let l = stack.popLast() {
            out.append(l)
            stack += l.sublayers
            if let m = l.mask { stack.append(m) }
        }
        return out
    }
}
