import CCairo
import CPixman
import CRenderKernels
import Glibc
import TransHostCore

// Shadows (CALayer's shadowColor, shadowOpacity, shadowOffset, shadowRadius, shadowPath).
//
// The shadow's shape is `shadowPath` filled, or else the alpha of what the layer draws (its
// background, content, sublayers and subviews). It is blurred by a Gaussian of standard
// deviation `shadowRadius` points (three box blurs of matching sizes), coloured with
// shadowColor at shadowOpacity (times the layer's opacity), moved by `shadowOffset` in the
// layer's own space (so it turns with the layer) and drawn beneath the layer. With
// masksToBounds (clipsToBounds) it is clipped to the rounded bounds too, as Core Animation
// clips everything the layer draws, so such a layer shows no shadow outside its bounds.
extension Renderer {
    /// A coloured, blurred shadow raster in a layer's bounds space, offset included; nil when
    /// there is nothing to cast. `source` is the layer's drawing (ignored with a path), in
    /// the same space; `visible` the part of that space the target shows (nil: unbounded), so a
    /// large shadow mostly off screen costs only what shows.
    func shadowRaster(_ shadow: Shadow, source: Group?, bounds: Rect, cornerRadius: Double, masksToBounds: Bool,
                      visible: Rect?) -> Group? {
        guard let color = shadow.color, shadow.isVisible else { return nil }
        let sigma = shadow.radius.isFinite ? max(shadow.radius, 0) : 0
        let pad = (3 * sigma * 100).rounded(.up) / 100 + 1 / Double(scale)
        var shape: Rect?
        if let p = shadow.path, !p.isEmpty, p.isFinite {
            shape = p.boundingBox
        } else if let s = source {
            shape = LayerGeometry.mappedBox(Rect(x: 0, y: 0, width: Double(s.image.width), height: Double(s.image.height)), s.rasterToLocal)
        }
        let dx = shadow.offset.width.isFinite ? shadow.offset.width : 0
        let dy = shadow.offset.height.isFinite ? shadow.offset.height : 0
        guard let box = shape, box.width >= 0, box.height >= 0 else { return nil }
        var region = Rect(x: box.minX - pad, y: box.minY - pad, width: box.width + 2 * pad, height: box.height + 2 * pad)
        if let v = visible {
            // What shows at v comes from v moved back by the offset, blurred from pad around it.
            let needed = Rect(x: v.minX - dx - pad, y: v.minY - dy - pad, width: v.width + 2 * pad, height: v.height + 2 * pad)
            guard let r = LayerGeometry.intersection(region, needed) else { return nil }
            region = r
        }
        guard let (img, localToRaster) = raster(covering: region) else { return nil }
        if let p = shadow.path, !p.isEmpty, p.isFinite {
            let k = localToRaster
            img.withCairo { cr in
                var m = cairo_matrix_t(xx: k.a, yx: k.b, xy: k.d, yy: k.e, x0: k.g, y0: k.h)
                cairo_set_matrix(cr, &m)
                PathDrawing.add(cr, p)
                cairo_set_source_rgba(cr, 0, 0, 0, 1)
                cairo_fill(cr)
            }
        } else if let s = source {
            // Whole-pixel offset: both rasters sit on the same pixel grid of the layer's space
            // (the part of the source outside the shadow raster is clipped by pixman).
            let o = s.rasterToLocal.then(localToRaster)
            // A copy, whatever transform and filter compositing the source last left on it.
            pixman_image_set_transform(s.image.pixman, nil)
            pixman_image_set_filter(s.image.pixman, PIXMAN_FILTER_NEAREST, nil, 0)
            pixman_image_composite32(PIXMAN_OP_SRC, s.image.pixman, nil, img.pixman, 0, 0, 0, 0,
                                     Int32(o.g.rounded()), Int32(o.h.rounded()), Int32(s.image.width), Int32(s.image.height))
        }
        blurAlpha(img, sigmaPixels: sigma * Double(scale))
        // Colour: shadowColor at shadowOpacity through the blurred alpha.
        let a8 = pixman_image_create_bits(PIXMAN_a8, Int32(img.width), Int32(img.height), nil, 0)!
        defer { pixman_image_unref(a8) }
        pixman_image_composite32(PIXMAN_OP_SRC, img.pixman, nil, a8, 0, 0, 0, 0, 0, 0, Int32(img.width), Int32(img.height))
        var c = pixmanColor(Color(red: color.red, green: color.green, blue: color.blue, alpha: color.alpha * min(max(shadow.opacity, 0), 1)))
        let solid = pixman_image_create_solid_fill(&c)!
        pixman_image_composite32(PIXMAN_OP_SRC, solid, a8, img.pixman, 0, 0, 0, 0, 0, 0, Int32(img.width), Int32(img.height))
        pixman_image_unref(solid)
        let rasterToLocal = (localToRaster.inverse ?? .identity).then(.translation(dx, dy))
        if masksToBounds {
            // The clip is the layer's rounded bounds, which do not move with the offset.
            let clip = RGBAImage(width: img.width, height: img.height)
            let toRaster = rasterToLocal.inverse ?? .identity
            clip.withCairo { cr in
                var m = cairo_matrix_t(xx: toRaster.a, yx: toRaster.b, xy: toRaster.d, yy: toRaster.e, x0: toRaster.g, y0: toRaster.h)
                cairo_set_matrix(cr, &m)
                ContentRasterizer.roundedRect(cr, bounds.minX, bounds.minY, bounds.width, bounds.height,
                                              RoundedOutline.effectiveRadius(bounds: bounds, cornerRadius: cornerRadius))
                cairo_set_source_rgba(cr, 0, 0, 0, 1)
                cairo_fill(cr)
            }
            pixman_image_composite32(PIXMAN_OP_IN_REVERSE, clip.pixman, nil, img.pixman, 0, 0, 0, 0, 0, 0, Int32(img.width), Int32(img.height))
        }
        return Group(image: img, opaque: false, rasterToLocal: rasterToLocal)
    }

    /// Three box blurs approximating a Gaussian of `sigmaPixels` on the image's alpha (its
    /// colour channels are rebuilt from the alpha afterwards).
    func blurAlpha(_ img: RGBAImage, sigmaPixels requested: Double) {
        guard requested >= 0.25 else { return }
        let w = img.width, h = img.height
        // A blur wider than the raster spreads it almost evenly anyway; bounding it keeps the
        // box sizes (and their sums) in range for any shadowRadius a plugin sets.
        let sigma = min(requested, Double(max(w, h)))
        let stride = (w + 3) & ~3 // pixman's rows are whole 32-bit words
        var plane = [UInt8](repeating: 0, count: stride * h)
        var scratch = [UInt8](repeating: 0, count: max(w, h))
        plane.withUnsafeMutableBufferPointer { p in
            let a8 = pixman_image_create_bits(PIXMAN_a8, Int32(w), Int32(h), UnsafeMutableRawPointer(p.baseAddress!).assumingMemoryBound(to: UInt32.self), Int32(stride))!
            pixman_image_composite32(PIXMAN_OP_SRC, img.pixman, nil, a8, 0, 0, 0, 0, 0, 0, Int32(w), Int32(h))
            scratch.withUnsafeMutableBufferPointer { s in
                for r in Self.boxRadii(sigma: sigma) { th_box_blur_a8(p.baseAddress, stride, Int32(w), Int32(h), Int32(r), s.baseAddress) }
            }
            // Back into the image as black at that alpha (the colour comes later).
            var black = pixman_color_t(red: 0, green: 0, blue: 0, alpha: 65535)
            let solid = pixman_image_create_solid_fill(&black)!
            pixman_image_composite32(PIXMAN_OP_SRC, solid, a8, img.pixman, 0, 0, 0, 0, 0, 0, Int32(w), Int32(h))
            pixman_image_unref(solid)
            pixman_image_unref(a8)
        }
    }

    /// Radii of three centred boxes whose successive blur has variance sigma^2 (box widths
    /// w = 2r + 1 with sum (w^2 - 1) / 12 = sigma^2, widths differing by at most 2).
    static func boxRadii(sigma: Double) -> [Int] {
        let n = 3.0
        let ideal = (12 * sigma * sigma / n + 1).squareRoot()
        var wl = Int(ideal.rounded(.down))
        if wl % 2 == 0 { wl -= 1 }
        wl = max(wl, 1)
        let wu = wl + 2
        let m = Int(((12 * sigma * sigma - n * Double(wl * wl) - 4 * n * Double(wl) - 3 * n) / (-4 * Double(wl) - 4)).rounded())
        return (0..<3).map { ($0 < m ? wl : wu) / 2 }
    }

    /// The shadow of a standalone layer, beneath it.
    func paintLayerShadow(_ l: SampledLayer, localToDest m: Homography, alpha: Double, clip: Clip, target: RGBAImage) {
        let s = l.state
        var source: Group? = nil
        if s.style.shadow.path == nil {
            let (ext, bounded) = LayerGeometry.extent(l)
            guard bounded, let r = ext, let (img, localToRaster) = raster(covering: r) else { return }
            paintLayerContents(l, localToDest: localToRaster, alpha: 1, clip: .none, target: img)
            if let mask = l.mask { applyMask(mask, to: img, localToRaster: localToRaster) }
            source = Group(image: img, opaque: false, rasterToLocal: localToRaster.inverse ?? .identity)
        }
        guard let g = shadowRaster(s.style.shadow, source: source, bounds: s.bounds, cornerRadius: s.cornerRadius,
                                   masksToBounds: s.masksToBounds, visible: visibleRegion(m, target: target)) else { return }
        composite(g.image, opaque: false, rasterToDest: g.rasterToLocal.then(m), alpha: alpha, clip: clip, target: target)
    }
}
