import TransHostCore

// Groups that need no pixels of their own. A snapshot of a view is a group holding one child,
// the view's own group, and the crop of a snapshot (resizableSnapshotView) holds the snapshot;
// split-modal's halves nest three deep, each screen-sized at first. Drawn into a fresh,
// transparent raster at whole pixels, a child's raster arrives unchanged (a blit, or OVER onto
// zero, copies each byte), so a parent that draws nothing else is those same bytes: the
// child's raster itself, or a window onto part of it.
extension Renderer {
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
