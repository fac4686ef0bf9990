import TransHostCore

// Groups that need no pixels of their own.
//
// A snapshot of a view is a group holding one child, the view's own group, and the crop of a
// snapshot (resizableSnapshotView) holds the snapshot; split-modal's halves nest three deep,
// each screen-sized at first. Drawn into a fresh, transparent raster at whole pixels, a child's
// raster arrives unchanged (a blit, or OVER onto zero, copies each byte), so a parent that
// draws nothing else is those same bytes: the child's raster itself, or a window onto part of it.
//
// And two snapshots of the same view (split-modal cuts one half from each) are different views
// with the same subtree: what a group draws depends only on its nodes' values and how they nest,
// not on their identities, so a group whose subtree matches one drawn earlier in the frame is
// that group's raster.

/// One node of a group's subtree as far as its pixels go: everything the group's drawing reads,
/// without the view's identity (its id and change counter).
struct ContentNode: Equatable {
    /// The parent's position in the subtree (-1 for the group's own node).
    var parent: Int
    var isSnapshot: Bool
    var resizableSize: Size?
    var capInsets: EdgeInsets
    var node: NodeSignature
}

extension Renderer {
    /// Node k's subtree as ContentNodes (its own position, transform and alpha left out, as in
    /// its signature).
    func contentKey(_ k: Int) -> [ContentNode] {
        var key: [ContentNode] = []
        key.reserveCapacity(subtreeEnd[k] - k)
        for (offset, var sig) in signature(k).enumerated() {
            let j = k + offset, v = nodes[j].view
            sig.id = ""
            sig.contentVersion = 0
            key.append(ContentNode(parent: j == k ? -1 : parent[j] - k, isSnapshot: v.isSnapshot, resizableSize: v.resizableSize,
                                   capInsets: v.capInsets, node: sig))
        }
        return key
    }

    /// A group drawn earlier in this frame with the same content and raster placement.
    func sharedGroup(_ key: [ContentNode], rasterToLocal: Homography) -> Group? {
        for (k, g) in frameGroups where k.count == key.count && g.rasterToLocal == rasterToLocal && k == key { return g }
        return nil
    }

    /// The pixels of node k's group (width x height at localToRaster) when they are exactly a
    /// region of its only child's group raster; nil when k must be drawn. `wholePixels`: k's
    /// bounds lie on the raster's pixel edges (a clip to them then cuts nothing).
    func coveringChildRaster(_ k: Int, localToRaster: Homography, width: Int, height: Int, wholePixels: Bool) -> RGBAImage? {
        let n = nodes[k]
        // pixman's projective floor resamples even whole-pixel moves; only our blit copies.
        guard compositePath != .pixmanProjective, n.layers == nil, !ContentRasterizer.draws(look(k), .all),
              children[k].count == 1, !n.view.clipsToBounds || (wholePixels && n.state.cornerRadius <= 0) else { return nil }
        let c = children[k][0]
        let cn = nodes[c], cs = cn.state
        // As visit(c) would draw it: the child's own group raster, composited at alpha 1 with
        // nothing around it (no mask, shadow, sublayers or stretch).
        guard !cn.isHidden, cn.layers == nil, cn.view.isSnapshot, !children[c].isEmpty, cs.alpha >= 1,
              cs.bounds.isFinite, cs.position.isFinite, cs.anchorPoint.isFinite, cs.transform.isFinite,
              cs.bounds.width > 0, cs.bounds.height > 0, !cn.view.isStretched(toBounds: cs.bounds) else { return nil }
        let localToDest = LayerGeometry.toParent(cs, in: nil).then(localToRaster)
        guard localToDest.isFinite, let g = groupRaster(c) else { return nil }
        let h = Self.normalized(g.rasterToLocal.then(localToDest))
        guard Self.isWholePixelTranslation(h) else { return nil }
        let x = -Int(h.g.rounded()), y = -Int(h.h.rounded())
        guard x >= 0, y >= 0, x + width <= g.image.width, y + height <= g.image.height else { return nil }
        if x == 0 && y == 0 && width == g.image.width && height == g.image.height { return g.image }
        return RGBAImage(window: g.image, x: x, y: y, width: width, height: height)
    }
}
