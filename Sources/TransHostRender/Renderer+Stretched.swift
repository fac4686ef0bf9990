import TransHostCore

// Resizable snapshots (resizableSnapshotView) shown at another size than they were taken at.
extension Renderer {
    /// A resizable snapshot shown at another size: its subtree drawn at the size it was taken at
    /// (cached like any group), then stretched by its cap insets (cached per size).
    func stretchedRaster(_ k: Int) -> Group? {
        let n = nodes[k], s = n.state
        guard let natural = n.view.resizableSize, natural.width > 0, natural.height > 0 else { return nil }
        var taken = s
        taken.bounds = Rect(x: s.bounds.minX, y: s.bounds.minY, width: natural.width, height: natural.height)
        nodes[k] = n.with(state: taken)
        defer { nodes[k] = n }
        guard let g = groupRaster(k) else { return nil }
        let sig = signature(k)
        let key = CacheKey(id: n.view.id, kind: .stretched)
        let size = Size(width: s.bounds.width, height: s.bounds.height)
        if let e = cache[key], e.signature == sig, e.scale == scale, e.stretchedSize == size, let cached = e.group {
            cache[key]!.lastUsed = frameNumber
            stats.cacheHits += 1
            return cached
        }
        cache[key] = nil
        let img = NineSlice.stretch(g.image, natural: natural, to: size, insets: n.view.capInsets, scale: scale)
        let sc = Double(scale)
        let stretched = Group(image: img, opaque: false,
                              rasterToLocal: Homography.scale(1 / sc, 1 / sc).then(.translation(s.bounds.minX, s.bounds.minY)))
        cache[key] = CacheEntry(image: img, contentVersion: n.view.contentVersion, look: look(k), scale: scale, signature: sig,
                                opaque: false, lastUsed: frameNumber, group: stretched, stretchedSize: size)
        return stretched
    }
}
