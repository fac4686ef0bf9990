import TransHostCore

// How much the raster cache keeps. A group raster is drawn from the rasters of its view and of
// the views inside it; once it exists those are needed again only if the group must be drawn
// again (its subtree changed). At @3x one full-screen raster is 6.5 MB on a small phone and a
// transition's first frame builds a dozen nested ones, so past a budget a group lets go of
// them as soon as it is drawn: they are drawn again if needed, with the same pixels
// (rasterising is deterministic), and memory stays within a phone's.
extension Renderer {
    /// The bytes of every cached raster.
    var cachedBytes: Int { cache.values.reduce(0) { $0 + $1.image.stride * $1.image.height } }

    /// Drops the cached rasters of the views inside node k's subtree, and k's own content
    /// rasters, when the cache holds more than rasterCacheBytes; k's group (and stretched copy) stays. They are not
    /// used again this frame: a view inside a group is drawn only through it.
    func releaseInside(_ k: Int) {
        guard cachedBytes > rasterCacheBytes else { return }
        var ids = Set<String>()
        for j in k..<subtreeEnd[k] { ids.insert(nodes[j].view.id) }
        let own = nodes[k].view.id
        cache = cache.filter { key, _ in !ids.contains(key.id) || (key.id == own && (key.kind == .group || key.kind == .stretched)) }
        stats.releasedGroupInputs += 1
    }
}
