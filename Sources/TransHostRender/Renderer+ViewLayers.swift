import TransHostCore

// What a view's own layer adds beyond its PresentationState (PresentationNode.layers): its
// mask and its shadow. Its sublayers, sublayerTransform, zPosition and isDoubleSided are
// handled where the renderer walks the views (Renderer.swift).
extension Renderer {
    func hasSublayers(_ k: Int) -> Bool { !(nodes[k].layers?.sublayers.isEmpty ?? true) }

    func zPosition(_ k: Int) -> Double {
        let z = nodes[k].layers?.style.zPosition ?? 0
        return z.isFinite ? z : 0
    }

    /// Siblings in drawing order: by zPosition, stable (equal ones keep their order), as Core
    /// Animation sorts them; unchanged (and not copied) when none has a zPosition.
    func zOrdered(_ siblings: [Int]) -> [Int] {
        guard siblings.contains(where: { zPosition($0) != 0 }) else { return siblings }
        return siblings.enumerated().sorted { (zPosition($0.element), $0.offset) < (zPosition($1.element), $1.offset) }.map(\.element)
    }

    /// The group raster of view k times its mask's alpha (a copy: the group stays cached while
    /// the mask animates).
    /// `masking`: masking(k, g), when the caller has it already.
    func masked(_ k: Int, _ g: Group, masking known: Masking? = nil) -> Group {
        guard let mask = nodes[k].layers?.mask, let toRaster = g.rasterToLocal.inverse else { return g }
        // Outside what the mask can reach (its extent, two pixels wider for antialiasing and
        // resampling, as the damage of a masked view assumes) the masked raster is clear: only
        // that part is masked.
        let reach = maskReach(known ?? masking(k, g), g)
        guard !reach.isEmpty else { return Group(image: RGBAImage(width: g.image.width, height: g.image.height), opaque: false, rasterToLocal: g.rasterToLocal) }
        let img = masked(g, by: mask, toRaster: toRaster, within: reach)
        img.zero(reach, outside: true)
        return Group(image: img, opaque: false, rasterToLocal: g.rasterToLocal)
    }

    /// A raster of g's size holding, in `reach`, g times the alpha of `mask` drawn through
    /// `toRaster` (in one pass: the bytes of copying g and applying the mask, see applyMask);
    /// outside `reach` it holds whatever its memory held.
    private func masked(_ g: Group, by mask: SampledLayer, toRaster: Homography, within reach: PixelRect) -> RGBAImage {
        let img = RGBAImage(width: g.image.width, height: g.image.height, zeroed: false)
        let m = maskRaster(mask, width: img.width, height: img.height, localToRaster: toRaster, within: reach)
        img.multiply(g.image, byAlphaOf: m, in: reach)
        return img
    }

    /// The pixels of group raster g its mask can reach: the mask's extent two pixels wider (for
    /// antialiasing and resampling, as the damage of a masked view assumes), else all of them.
    private func maskReach(_ m: Masking?, _ g: Group) -> PixelRect {
        let whole = PixelRect(x0: 0, y0: 0, x1: g.image.width, y1: g.image.height)
        return m?.rasterBox.flatMap { PixelRect(covering: $0, margin: 2) }.map { $0.intersection(whole) } ?? whole
    }

    /// masked(k, g) cut to what its mask can reach, as a raster placed there (a window onto a
    /// group-sized one: frame-sized rasters of one size reuse each other's memory, see
    /// RasterMemory, and cut ones of a new size every frame would not), and `masking` in its
    /// pixels; nil when the mask reaches all of g or nothing. Outside the reach the masked
    /// raster is clear, so a blit of either draws the same pixels (and a frame whose mask
    /// shrinks draws only where it was); resampled, the cut's edges would be read otherwise, so
    /// it is for whole-pixel moves.
    func croppedMasked(_ k: Int, _ g: Group, masking known: Masking) -> (Group, Masking)? {
        guard let mask = nodes[k].layers?.mask, let toRaster = g.rasterToLocal.inverse else { return nil }
        let reach = maskReach(known, g)
        guard !reach.isEmpty, reach != PixelRect(x0: 0, y0: 0, x1: g.image.width, y1: g.image.height) else { return nil }
        let x0 = Double(reach.x0), y0 = Double(reach.y0)
        let img = RGBAImage(window: masked(g, by: mask, toRaster: toRaster, within: reach), x: reach.x0, y: reach.y0,
                            width: reach.width, height: reach.height)
        var shifted = known
        shifted.rasterBox = known.rasterBox.map { Rect(x: $0.minX - x0, y: $0.minY - y0, width: $0.width, height: $0.height) }
        return (Group(image: img, opaque: false, rasterToLocal: Homography.translation(x0, y0).then(g.rasterToLocal)), shifted)
    }

    /// The masked raster of view k to composite through `localToDest`, and what it is made of
    /// (for comparing frames): cut to its mask's reach when it is blitted (croppedMasked).
    func maskedToShow(_ k: Int, _ g: Group, localToDest: Homography) -> (Group, Masking?) {
        let extent = masking(k, g)
        if let e = extent, Self.isWholePixelTranslation(Self.normalized(g.rasterToLocal.then(localToDest))),
           let cut = croppedMasked(k, g, masking: e) {
            return cut
        }
        return (masked(k, g, masking: extent), extent)
    }

    /// What the masked raster of view k is made of, for comparing frames (Renderer+Damage).
    func masking(_ k: Int, _ g: Group) -> Masking? {
        guard let mask = nodes[k].layers?.mask, let toRaster = g.rasterToLocal.inverse else { return nil }
        let (extent, bounded) = LayerGeometry.extent(mask)
        var box: Rect? = nil
        if bounded, let e = extent { box = LayerGeometry.mappedBox(e, LayerGeometry.toParent(mask.state, in: nil).then(toRaster)) }
        return Masking(group: g.image, mask: mask, rasterBox: box)
    }

    /// The shadow of view k beneath it: from its shadowPath, or from the alpha of its group
    /// raster (its own drawing, sublayers and subviews).
    func paintViewShadow(_ k: Int, localToDest: Homography, alpha: Double, clip: Clip, target: RGBAImage) {
        guard let layers = nodes[k].layers else { return }
        let s = nodes[k].state
        var source: Group? = nil
        if layers.style.shadow.path == nil {
            guard let g = groupRaster(k) else { return }
            source = layers.mask == nil ? g : masked(k, g)
        }
        guard let g = shadowRaster(layers.style.shadow, source: source, bounds: s.bounds, cornerRadius: s.cornerRadius,
                                   masksToBounds: nodes[k].view.clipsToBounds, visible: visibleRegion(localToDest, target: target))
        else { return }
        composite(g.image, opaque: false, rasterToDest: g.rasterToLocal.then(localToDest), alpha: alpha, clip: clip, target: target)
    }
}
