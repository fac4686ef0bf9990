import CCairo
import CPixman
import TransHostCore

// Standalone layers (CALayer, CAShapeLayer, CAGradientLayer sublayers and masks): what a
// SampledLayer draws and how it reaches the target.
//
// A layer whose map to the target is affine, with no mask and no translucent sublayer group, is
// drawn straight onto the target with cairo under that map (its background, shape or gradient,
// border), then its sublayers in zPosition order; nothing is resampled, so a shape's edge is
// cairo's antialiased edge at the target's pixels. A layer with a mask, with opacity < 1 over
// sublayers (group opacity), or under a perspective map is first drawn into a raster of its own
// extent in its bounds space (limited to the part that can reach the target), masked, and then
// composited like a view's raster. Views without layers never come here.
extension Renderer {
    /// Draws `l` (and its sublayers) whose parent's bounds space maps to the target by
    /// `parentToDest`, `frame` being the parent's sublayerTransform.
    func paintLayer(_ l: SampledLayer, parentToDest: Homography, frame: SublayerFrame?, alpha parentAlpha: Double,
                    clip: Clip, target: RGBAImage) {
        let s = l.state
        guard !s.isHidden else { return }
        let alpha = parentAlpha * (s.opacity.isFinite ? min(max(s.opacity, 0), 1) : 0)
        guard alpha * 255 >= 0.5, s.bounds.isFinite, s.position.isFinite, s.anchorPoint.isFinite, s.transform.isFinite else { return }
        let m = LayerGeometry.toParent(s, in: frame).then(parentToDest)
        guard m.isFinite else { return }
        if !s.style.isDoubleSided && LayerGeometry.facesAway(m) { return }
        if s.style.shadow.isVisible {
            paintLayerShadow(l, localToDest: m, alpha: alpha, clip: clip, target: target)
        }
        let groupOpacity = alpha < 1 && !l.sublayers.isEmpty
        if l.mask != nil || groupOpacity || !m.isAffine {
            guard let g = layerRaster(l, localToDest: m, target: target) else { return }
            composite(g.image, opaque: false, rasterToDest: g.rasterToLocal.then(m), alpha: alpha, clip: clip, target: target)
            return
        }
        paintLayerContents(l, localToDest: m, alpha: alpha, clip: clip, target: target)
    }

    /// The layer's own drawing, then its sublayers, then its border, straight onto `target`
    /// through the affine `m`.
    func paintLayerContents(_ l: SampledLayer, localToDest m: Homography, alpha: Double, clip: Clip, target: RGBAImage) {
        let s = l.state
        let canvas = canvasRect(target)
        var inner = clip
        if s.masksToBounds {
            inner = clip.intersecting(quad: clipOutline(bounds: s.bounds, cornerRadius: s.cornerRadius, m),
                                      canvas: canvas)
            if inner.isEmpty { return }
        }
        if LayerContent.drawsBody(s) {
            // masksToBounds also clips the layer's own drawing (a path may leave the bounds).
            cairoDraw(target, clip: inner, map: m, alpha: alpha, drawing: (l, false)) { cr in LayerContent.drawBody(cr, s) }
        }
        if !l.sublayers.isEmpty {
            let frame = SublayerFrame(s.style, bounds: s.bounds, anchorPoint: s.anchorPoint)
            for sub in l.sublayersInDrawingOrder {
                paintLayer(sub, parentToDest: m, frame: frame, alpha: alpha, clip: inner, target: target)
            }
        }
        if LayerContent.drawsBorder(s) {
            cairoDraw(target, clip: clip, map: m, alpha: alpha, drawing: (l, true)) { cr in LayerContent.drawBorder(cr, s) }
        }
    }

    /// `l` drawn at full opacity into a raster of its extent (in its bounds space, at the
    /// renderer's scale), its mask applied; limited to what `localToDest` can bring onto the
    /// target. nil when nothing of it can show.
    func layerRaster(_ l: SampledLayer, localToDest: Homography, target: RGBAImage) -> Group? {
        let (ext, bounded) = LayerGeometry.extent(l)
        var region = bounded ? ext : nil
        if let roi = visibleRegion(localToDest, target: target) {
            region = region.flatMap { LayerGeometry.intersection($0, roi) } ?? (bounded ? nil : roi)
        }
        if let mask = l.mask, bounded || region != nil {
            // Only where the mask can be opaque.
            let (me, mb) = LayerGeometry.extent(mask)
            if mb, let me, let mapped = LayerGeometry.mappedBox(me, LayerGeometry.toParent(mask.state, in: nil)) {
                region = region.flatMap { LayerGeometry.intersection($0, mapped) }
            }
        }
        guard let r = region else { return nil }
        guard let (img, localToRaster) = raster(covering: r) else { return nil }
        paintLayerContents(l, localToDest: localToRaster, alpha: 1, clip: .none, target: img)
        if let mask = l.mask { applyMask(mask, to: img, localToRaster: localToRaster) }
        return Group(image: img, opaque: false, rasterToLocal: localToRaster.inverse ?? .identity)
    }

    /// A transparent raster over `r` (points, in some layer's bounds space) at the renderer's
    /// scale, whole pixels outward, and the map from that space to it. nil when empty or
    /// larger than maxGroupSide on a side.
    func raster(covering r: Rect) -> (RGBAImage, Homography)? {
        let sc = Double(scale)
        let px0 = (r.minX * sc + 1e-7).rounded(.down), py0 = (r.minY * sc + 1e-7).rounded(.down)
        let px1 = (r.maxX * sc - 1e-7).rounded(.up), py1 = (r.maxY * sc - 1e-7).rounded(.up)
        guard px0.isFinite, py0.isFinite, px1.isFinite, py1.isFinite, px1 > px0, py1 > py0,
              px1 - px0 <= Double(Self.maxGroupSide), py1 - py0 <= Double(Self.maxGroupSide) else { return nil }
        let img = RGBAImage(width: Int(px1 - px0), height: Int(py1 - py0))
        return (img, Homography.translation(-px0 / sc, -py0 / sc).then(.scale(sc, sc)))
    }

    /// The part of a layer's bounds space that `localToDest` maps onto the target (its box),
    /// or nil when that is not a bounded region (the target reaches the layer's horizon).
    func visibleRegion(_ localToDest: Homography, target: RGBAImage) -> Rect? {
        guard let inv = localToDest.inverse else { return nil }
        let w = Double(target.width), h = Double(target.height)
        return LayerGeometry.mappedBox(Rect(x: 0, y: 0, width: w, height: h), inv).map {
            // One pixel of margin for the bilinear footprint at the edges.
            let m = 1 / Double(scale)
            return Rect(x: $0.minX - m, y: $0.minY - m, width: $0.width + 2 * m, height: $0.height + 2 * m)
        }
    }

    /// Multiplies `img` by the alpha of `mask` drawn in the masked layer's bounds space (its own
    /// geometry placing it there, as a sublayer without the parent's sublayerTransform).
    /// `within`: the only pixels of `img` the mask can reach (and the only ones masked); the
    /// mask's raster is cleared only there, as nothing else of it is read.
    func applyMask(_ mask: SampledLayer, to img: RGBAImage, localToRaster: Homography, within r: PixelRect? = nil) {
        let m = maskRaster(mask, width: img.width, height: img.height, localToRaster: localToRaster, within: r)
        let r = r ?? PixelRect(x0: 0, y0: 0, x1: img.width, y1: img.height)
        pixman_image_composite32(PIXMAN_OP_IN_REVERSE, m.pixman, nil, img.pixman, Int32(r.x0), Int32(r.y0), 0, 0, Int32(r.x0), Int32(r.y0),
                                 Int32(r.width), Int32(r.height))
    }

    /// `mask` drawn as applyMask multiplies by it: a width x height raster, cleared (only `within`
    /// when given: nothing else of it is read).
    func maskRaster(_ mask: SampledLayer, width: Int, height: Int, localToRaster: Homography, within r: PixelRect?) -> RGBAImage {
        let m = RGBAImage(width: width, height: height, zeroed: r == nil)
        if let r { m.zero(r) }
        paintLayer(mask, parentToDest: localToRaster, frame: nil, alpha: 1, clip: .none, target: m)
        return m
    }

    /// Runs cairo drawing on `target` under the affine map `map` (a layer's bounds space to
    /// target pixels), inside `clip`, at `alpha` as one group. On the frame being rendered it is
    /// queued in the display list, in order with the composites; `drawing` (the layer, and
    /// whether this is its border) says what the body draws and where it can reach.
    func cairoDraw(_ target: RGBAImage, clip: Clip, map: Homography, alpha: Double, drawing: (layer: SampledLayer, border: Bool),
                   _ body: @escaping (OpaquePointer) -> Void) {
        guard map.isAffine, !clip.isEmpty else { return }
        let k = 1 / map.i
        let mx = cairo_matrix_t(xx: map.a * k, yx: map.b * k, xy: map.d * k, yy: map.e * k, x0: map.g * k, y0: map.h * k)
        var check = mx
        // cairo refuses a singular matrix (a layer seen edge-on draws nothing).
        guard cairo_matrix_invert(&check) == CAIRO_STATUS_SUCCESS else { return }
        let work = { [weak self] in
            let damage = self?.damageClip
            target.withCairo { cr in
                // Only the damage is drawn again (see Renderer+Damage): whole pixels, so
                // the pixels inside are those of the unclipped drawing.
                if let d = damage {
                    cairo_rectangle(cr, Double(d.x0), Double(d.y0), Double(d.width), Double(d.height))
                    cairo_clip(cr)
                }
                switch clip {
                case .none: break
                case .rect(let r):
                    cairo_rectangle(cr, Double(r.x0), Double(r.y0), Double(r.width), Double(r.height))
                    cairo_clip(cr)
                case .polygon(let p):
                    guard let f = p.first else { return }
                    cairo_move_to(cr, f.x, f.y)
                    for q in p.dropFirst() { cairo_line_to(cr, q.x, q.y) }
                    cairo_close_path(cr)
                    cairo_clip(cr)
                }
                if alpha < 1 { cairo_push_group(cr) }
                var m = mx
                cairo_set_matrix(cr, &m)
                body(cr)
                if alpha < 1 {
                    cairo_pop_group_to_source(cr)
                    cairo_identity_matrix(cr)
                    cairo_paint_with_alpha(cr, alpha)
                }
            }
        }
        if target === mainTarget {
            displayList.append(DisplayOp(run: work, coversTarget: false, box: Self.cairoBox(drawing.layer, map: map, clip: clip, canvas: canvasRect(target)),
                                         key: .cairo(drawing.layer.state, border: drawing.border, map: map, alpha: alpha, clip: clip),
                                         clippable: true, source: nil))
        } else {
            work()
        }
    }

    /// The target pixels cairo drawing of `layer` under `map` can touch: its extent (path,
    /// stroke and sublayers) mapped, two pixels wider for antialiasing, inside the clip.
    static func cairoBox(_ layer: SampledLayer, map: Homography, clip: Clip, canvas: PixelRect) -> PixelRect {
        var box = canvas
        switch clip {
        case .none: break
        case .rect(let r): box = r.intersection(canvas)
        case .polygon(let p): box = Polygon.bounds(p).intersection(canvas)
        }
        let (extent, bounded) = LayerGeometry.extent(layer)
        guard bounded else { return box }
        guard let e = extent, let m = LayerGeometry.mappedBox(e, map), let pixels = PixelRect(covering: m, margin: 2) else { return box }
        return pixels.intersection(box)
    }
}
