import TransHostCore

// What a group raster's cache entry is checked against: the values of every node in its subtree.
extension Renderer {
    /// Node k's subtree as the group raster sees it (its own position, anchor, transform and
    /// alpha left out: they place the raster, they are not in it).
    func signature(_ k: Int) -> [NodeSignature] {
        var sig: [NodeSignature] = []
        sig.reserveCapacity(subtreeEnd[k] - k)
        for j in k..<subtreeEnd[k] {
            let m = nodes[j]
            var st = m.state
            var layers = m.layers
            if j == k {
                st.position = .zero; st.anchorPoint = .zero; st.transform = .identity; st.alpha = 1
                // The group holds what the view draws, not its mask or shadow (applied after).
                layers = layers.map { LayerTreeSample(style: Self.contentStyle($0.style), sublayers: $0.sublayers, mask: nil) }
            }
            sig.append(NodeSignature(id: m.view.id, contentVersion: m.view.contentVersion, state: st, hidden: m.isHidden,
                                     content: m.view.content, clips: m.view.clipsToBounds, layers: layers))
        }
        return sig
    }

    /// The part of a view layer's style that changes its group raster.
    static func contentStyle(_ s: LayerStyle) -> LayerStyle {
        var c = LayerStyle.plain
        c.sublayerTransform = s.sublayerTransform
        c.borderWidth = s.borderWidth
        c.borderColor = s.borderColor
        return c
    }
}
