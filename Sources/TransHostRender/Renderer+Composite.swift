import CPixman
import CRenderKernels
import Dispatch
import TransHostCore

// Compositing: how a raster reaches the target under a layer's map (see CompositePath).
extension Renderer {
    /// Composites `src` (premultiplied) OVER `target` through the raster->destination map.
    /// `masking`: src is `group` times `mask` (see Renderer+Damage), drawn afresh every frame.
    func composite(_ src: RGBAImage, opaque: Bool, rasterToDest h0: Homography, alpha: Double, clip: Clip, target: RGBAImage,
                   masking: Masking? = nil) {
        let h = Self.normalized(h0)
        let sw = Double(src.width), sh = Double(src.height)
        var poly = [Vec2(0, 0), Vec2(sw, 0), Vec2(sw, sh), Vec2(0, sh)]
        var needMask = false
        if !h.isAffine {
            let ws = poly.map { h.w($0.x, $0.y) }
            let wmax = ws.max()!
            guard wmax > 0 else { return }
            if ws.min()! <= wmax * Self.wEpsilon {
                poly = Polygon.clip(poly) { h.w($0.x, $0.y) - wmax * Self.wEpsilon }
                needMask = true
            }
        }
        let canvas = canvasRect(target)
        var dest = Polygon.clip(poly.map(h.apply), toRect: canvas)
        switch clip {
        case .none: break
        case .rect(let r): dest = Polygon.clip(dest, toRect: r)
        case .polygon(let p):
            dest = Polygon.intersect(dest, p)
            needMask = true
        }
        guard dest.count >= 3 else { return }
        let box = Polygon.bounds(dest).intersection(canvas)
        guard !box.isEmpty, let inv = h.inverse else { return }
        let isTranslation = Self.isWholePixelTranslation(h)
        let work = { [self] in
            compositeNow(src, opaque: opaque, h: h, inv: inv, dest: dest, box: box, needMask: needMask,
                         isTranslation: isTranslation, alpha: alpha, target: target)
        }
        if target === mainTarget {
            // Deferred: a later opaque full-frame blit makes everything before it invisible.
            let covers = opaque && alpha >= 1 && !needMask && box == canvas && compositePath != .pixmanProjective
                && (isTranslation || (h.isAffine && Self.interiorCovers(inv, src: src, canvas: canvas)))
            // pixman draws it (and the target's clip region confines it) unless a span loop does.
            let clippable = compositePath != .automatic || isTranslation || (h.isAffine && !Self.usesAffineSpans(h))
            let source: RGBAImage = masking?.group ?? src
            displayList.append(DisplayOp(run: work, coversTarget: covers, box: box,
                                         key: .composite(source: ObjectIdentifier(source), opaque: opaque, map: h, alpha: alpha, clip: clip),
                                         clippable: clippable, source: source, mask: masking?.mask,
                                         maskBox: masking.flatMap { Self.maskBox($0, rasterToDest: h, box: box) },
                                         overwrites: opaque && alpha >= 1 && !needMask && masking == nil
                                             ? Self.opaqueInterior(h, inv: inv, isTranslation: isTranslation, src: src, box: box) : nil))
        } else {
            work()
        }
    }

    /// The pixels of `box` an opaque raster composited under `h` paints opaquely (so OVER sets
    /// them to its own pixels): all of them for a whole-pixel move (a copy); for a scale or a
    /// fractional move, along each axis moved by whole pixels all of them too (one tap, of full
    /// weight), along the others those whose bilinear footprint lies inside the raster (taps one
    /// texel in from its edges), a pixel narrower on each side for safety; under perspective, a
    /// rectangle inside the image of the raster two texels in (see perspectiveInterior); none
    /// (nil) for rotations.
    static func opaqueInterior(_ h: Homography, inv: Homography, isTranslation: Bool, src: RGBAImage, box: PixelRect) -> PixelRect? {
        if isTranslation { return box }
        if !h.isAffine { return perspectiveInterior(h, inv: inv, src: src, box: box) }
        guard h.b == 0, h.d == 0, h.a > 0, h.e > 0 else { return nil }
        /// Destination pixels [lo, hi) along one axis: scale `k`, offset `o`, raster length `n`.
        func axis(_ k: Double, _ o: Double, _ n: Int, _ b0: Int, _ b1: Int) -> (Int, Int)? {
            if k == 1 && o == o.rounded() { return (b0, b1) }
            // Pixel centres X + 0.5 whose source point lies in [1, n - 1].
            let lo = k + o, hi = k * Double(n - 1) + o
            guard lo.isFinite, hi.isFinite, abs(lo) < 1e9, abs(hi) < 1e9 else { return nil }
            return (Int((lo - 0.5).rounded(.up)) + 1, Int((hi - 0.5).rounded(.down)))
        }
        guard let (x0, x1) = axis(h.a, h.g, src.width, box.x0, box.x1), let (y0, y1) = axis(h.e, h.h, src.height, box.y0, box.y1)
        else { return nil }
        let r = PixelRect(x0: x0, y0: y0, x1: x1, y1: y1).intersection(box)
        return r.isEmpty ? nil : r
    }

    /// Under a perspective map, destination pixels an opaque raster paints opaquely: the raster
    /// two texels in from its edges maps (W > 0 at its corners, so everywhere on it) to a convex
    /// quadrilateral; the rectangle between its left and right corners' inner x and its top and
    /// bottom corners' inner y, a pixel narrower on each side, is taken when its four corners map
    /// back into that inset raster (so, the quadrilateral being convex, all of it does). Every
    /// pixel there has its bilinear footprint a texel or more inside the raster, which the span
    /// loops' 1/32-texel positions keep: four opaque taps, so OVER sets the raster's colour.
    /// Nil for a raster turned past a quarter, mirrored or too small.
    static func perspectiveInterior(_ h: Homography, inv: Homography, src: RGBAImage, box: PixelRect) -> PixelRect? {
        let m = 2.0, sw = Double(src.width), sh = Double(src.height)
        guard sw > 4 * m, sh > 4 * m else { return nil }
        let inset = [Vec2(m, m), Vec2(sw - m, m), Vec2(sw - m, sh - m), Vec2(m, sh - m)]
        guard inset.allSatisfy({ h.w($0.x, $0.y) > 0 }) else { return nil }
        let q = inset.map(h.apply)   // top left, top right, bottom right, bottom left
        let x0 = max(q[0].x, q[3].x), x1 = min(q[1].x, q[2].x), y0 = max(q[0].y, q[1].y), y1 = min(q[2].y, q[3].y)
        guard x0.isFinite, x1.isFinite, y0.isFinite, y1.isFinite, abs(x0) < 1e7, abs(x1) < 1e7, abs(y0) < 1e7, abs(y1) < 1e7 else { return nil }
        let r = PixelRect(x0: Int(x0.rounded(.up)) + 1, y0: Int(y0.rounded(.up)) + 1, x1: Int(x1.rounded(.down)) - 1, y1: Int(y1.rounded(.down)) - 1)
        guard r.x1 > r.x0, r.y1 > r.y0 else { return nil }
        for (x, y) in [(r.x0, r.y0), (r.x1, r.y0), (r.x1, r.y1), (r.x0, r.y1)] {
            let s = inv.apply(Double(x), Double(y))
            guard s.x >= m, s.x <= sw - m, s.y >= m, s.y <= sh - m else { return nil }
        }
        let out = r.intersection(box)
        return out.isEmpty ? nil : out
    }

    /// An affine map with its last entry 1 (as composite uses it); others unchanged.
    static func normalized(_ h: Homography) -> Homography {
        guard h.isAffine else { return h }
        let k = 1 / h.i
        return Homography(a: h.a * k, b: h.b * k, c: 0, d: h.d * k, e: h.e * k, f: 0, g: h.g * k, h: h.h * k, i: 1)
    }

    /// Whether the normalized map `h` moves by whole pixels only (composite then blits, by
    /// (h.g, h.h) rounded).
    static func isWholePixelTranslation(_ h: Homography) -> Bool {
        h.isAffine && h.a == 1 && h.b == 0 && h.d == 0 && h.e == 1
            && abs(h.g - h.g.rounded()) < 1e-9 && abs(h.h - h.h.rounded()) < 1e-9
    }

    /// Sets every pixel of the frame to the clear colour (RGBAImage.fill's bytes, in two bands).
    func clear(_ target: RGBAImage) {
        var c = pixmanColor(clearColor)
        let solid = pixman_image_create_solid_fill(&c)!
        PixmanBands.composite(PIXMAN_OP_SRC, solid, nil, target.pixman, src: (0, 0), mask: (0, 0), rect: canvasRect(target))
        pixman_image_unref(solid)
    }

    /// Whether every destination pixel of `canvas` samples the source's interior under the
    /// affine destination->source map `inv` (a bilinear footprint at least half a texel inside
    /// each edge), so an opaque source paints every one of them opaquely. The canvas is convex
    /// and the map affine: its four corners decide.
    static func interiorCovers(_ inv: Homography, src: RGBAImage, canvas: PixelRect) -> Bool {
        let sw = Double(src.width), sh = Double(src.height)
        for (x, y) in [(canvas.x0, canvas.y0), (canvas.x1, canvas.y0), (canvas.x1, canvas.y1), (canvas.x0, canvas.y1)] {
            let p = inv.apply(Double(x), Double(y))
            guard p.x >= 1, p.y >= 1, p.x <= sw - 1, p.y <= sh - 1 else { return false }
        }
        return true
    }

    func compositeNow(_ src: RGBAImage, opaque: Bool, h: Homography, inv: Homography, dest: [Vec2], box: PixelRect,
                              needMask: Bool, isTranslation: Bool, alpha: Double, target: RGBAImage) {
        // The mask: the clipped polygon (antialiased) times alpha, or a solid alpha, or none.
        var mask: OpaquePointer? = nil
        var maskOrigin = (x: 0, y: 0)
        let solidAlpha: UInt16? = !needMask && alpha < 1 ? UInt16((alpha * 65535).rounded()) : nil
        if needMask {
            mask = polygonMask(dest, box: box, alpha: alpha)
            maskOrigin = (box.x0, box.y0)
        } else if let a = solidAlpha {
            var c = pixman_color_t(red: 0, green: 0, blue: 0, alpha: a)
            mask = pixman_image_create_solid_fill(&c)
        }
        defer { if let m = mask { pixman_image_unref(m) } }

        if isTranslation && compositePath != .pixmanProjective {
            pixman_image_set_transform(src.pixman, nil)
            pixman_image_set_filter(src.pixman, PIXMAN_FILTER_NEAREST, nil, 0)
            let op = (opaque && mask == nil) ? PIXMAN_OP_SRC : PIXMAN_OP_OVER
            let tx = Int(h.g.rounded()), ty = Int(h.h.rounded())
            PixmanBands.composite(op, src.pixman, mask, target.pixman, src: (box.x0 - tx, box.y0 - ty),
                                  mask: (box.x0 - maskOrigin.x, box.y0 - maskOrigin.y), rect: box)
            count(box)
            return
        }
        pixman_image_set_filter(src.pixman, PIXMAN_FILTER_BILINEAR, nil, 0)
        switch compositePath {
        case .pixmanProjective:
            draw(src, map: inv, rect: box, projective: true, mask: mask, maskOrigin: maskOrigin, target: target)
        case .pixmanAffine:
            let a = h.isAffine ? inv : ProjectiveTiler.affineFit(inv, box)
            draw(src, map: a, rect: box, projective: false, mask: mask, maskOrigin: maskOrigin, target: target)
        case .automatic:
            if h.isAffine && !Self.usesAffineSpans(h) {
                draw(src, map: inv, rect: box, projective: false, mask: mask, maskOrigin: maskOrigin, target: target, solidMask: solidAlpha)
            } else if h.isAffine {
                affineSpans(src, opaque: opaque, map: inv, rect: box, polygonMask: needMask ? mask : nil, maskOrigin: maskOrigin,
                            alpha: alpha, target: target)
            } else {
                spans(src, map: inv, rect: box, polygonMask: needMask ? mask : nil, maskOrigin: maskOrigin, alpha: alpha, target: target)
            }
        case .affineTiles:
            if h.isAffine {
                draw(src, map: inv, rect: box, projective: false, mask: mask, maskOrigin: maskOrigin, target: target)
            } else {
                for t in ProjectiveTiler.tiles(inverse: inv, forward: h, rect: box, maxError: maxTileError) {
                    if let a = t.affine {
                        stats.affineTiles += 1
                        draw(src, map: a, rect: t.rect, projective: false, mask: mask, maskOrigin: maskOrigin, target: target)
                    } else {
                        draw(src, map: inv, rect: t.rect, projective: true, mask: mask, maskOrigin: maskOrigin, target: target)
                    }
                }
            }
        }
    }

    /// Exact projective composite with the C span loop (see th_composite_projective_bilinear).
    func spans(_ src: RGBAImage, map: Homography, rect: PixelRect, polygonMask: OpaquePointer?,
                       maskOrigin: (x: Int, y: Int), alpha: Double, target: RGBAImage) {
        var m = [map.a, map.d, map.g, map.b, map.e, map.h, map.c, map.f, map.i]
        let (a, maskPtr, maskStride) = Self.spanCoverage(polygonMask: polygonMask, maskOrigin: maskOrigin, rect: rect, alpha: alpha)
        th_composite_projective_bilinear(src.data.assumingMemoryBound(to: UInt32.self), src.stride, Int32(src.width), Int32(src.height),
                                         target.data.assumingMemoryBound(to: UInt32.self), target.stride,
                                         Int32(rect.x0), Int32(rect.y0), Int32(rect.x1), Int32(rect.y1),
                                         &m, maskPtr, maskStride, a)
        count(rect)
        stats.spanComposites += 1
    }

    /// What both span loops take besides the map: the layer's alpha in 1/256 (a polygon mask
    /// carries it instead), and the mask's first byte for `rect` with its stride.
    static func spanCoverage(polygonMask: OpaquePointer?, maskOrigin: (x: Int, y: Int), rect: PixelRect,
                             alpha: Double) -> (UInt32, UnsafePointer<UInt8>?, Int) {
        let a: UInt32 = polygonMask != nil ? 256 : UInt32((min(max(alpha, 0), 1) * 256).rounded())
        guard let pm = polygonMask else { return (a, nil, 0) }
        let stride = Int(pixman_image_get_stride(pm))
        let base = UnsafeRawPointer(pixman_image_get_data(pm)!)
        return (a, (base + (rect.y0 - maskOrigin.y) * stride + (rect.x0 - maskOrigin.x)).assumingMemoryBound(to: UInt8.self), stride)
    }

    /// Whether an affine layer goes through the C affine span loop rather than pixman: maps
    /// that rotate or shear. Pure scales (plus translation) stay on pixman, whose scaled
    /// bilinear paths are fast.
    static func usesAffineSpans(_ h: Homography) -> Bool {
        h.isAffine && (h.b != 0 || h.d != 0)
    }

    /// Affine composite with the C span loop (see th_composite_affine_bilinear).
    func affineSpans(_ src: RGBAImage, opaque: Bool, map: Homography, rect: PixelRect, polygonMask: OpaquePointer?,
                             maskOrigin: (x: Int, y: Int), alpha: Double, target: RGBAImage) {
        let k = 1 / map.i
        var m = [map.a * k, map.d * k, map.g * k, map.b * k, map.e * k, map.h * k]
        let (a, maskPtr, maskStride) = Self.spanCoverage(polygonMask: polygonMask, maskOrigin: maskOrigin, rect: rect, alpha: alpha)
        th_composite_affine_bilinear(src.data.assumingMemoryBound(to: UInt32.self), src.stride, Int32(src.width), Int32(src.height),
                                     target.data.assumingMemoryBound(to: UInt32.self), target.stride,
                                     Int32(rect.x0), Int32(rect.y0), Int32(rect.x1), Int32(rect.y1),
                                     &m, maskPtr, maskStride, a, opaque ? 1 : 0)
        count(rect)
        stats.affineSpanComposites += 1
    }

    func count(_ r: PixelRect) {
        stats.compositeCalls += 1
        stats.compositedPixels += r.area
    }

    /// One pixman call over `rect` with the destination->source map `map`, expressed relative
    /// to the rectangle's origin so the 16.16 entries stay small.
    /// `solidMask`: the 16-bit alpha of `mask` when it is a solid fill.
    func draw(_ src: RGBAImage, map: Homography, rect: PixelRect, projective: Bool, mask: OpaquePointer?,
              maskOrigin: (x: Int, y: Int), target: RGBAImage, solidMask: UInt16? = nil) {
        var t = Homography.translation(Double(rect.x0), Double(rect.y0)).then(map).pixmanTransform(forcingProjective: projective)
        if compositePath == .automatic, !projective, mask == nil || solidMask != nil, Self.onlyScales(t) {
            scaledBilinear(src, transform: t, rect: rect, solidMask: solidMask, target: target)
            return
        }
        pixman_image_set_transform(src.pixman, &t)
        if projective { stats.projectiveComposites += 1 }
        PixmanBands.composite(PIXMAN_OP_OVER, src.pixman, mask, target.pixman, src: (0, 0),
                              mask: (rect.x0 - maskOrigin.x, rect.y0 - maskOrigin.y), rect: rect)
        count(rect)
    }

    /// An A8 image of `box`'s size with the convex polygon's antialiased coverage times alpha.
    func polygonMask(_ poly: [Vec2], box: PixelRect, alpha: Double) -> OpaquePointer {
        let m = pixman_image_create_bits(PIXMAN_a8, Int32(box.width), Int32(box.height), nil, 0)!
        func fx(_ v: Double) -> pixman_fixed_t { pixman_fixed_t((v * 65536).rounded()) }
        var tris: [pixman_triangle_t] = []
        for j in 1..<(poly.count - 1) {
            let p0 = poly[0], p1 = poly[j], p2 = poly[j + 1]
            tris.append(pixman_triangle_t(p1: pixman_point_fixed_t(x: fx(p0.x), y: fx(p0.y)),
                                          p2: pixman_point_fixed_t(x: fx(p1.x), y: fx(p1.y)),
                                          p3: pixman_point_fixed_t(x: fx(p2.x), y: fx(p2.y))))
        }
        pixman_add_triangles(m, Int32(-box.x0), Int32(-box.y0), Int32(tris.count), tris)
        if alpha < 1 {
            var c = pixman_color_t(red: 0, green: 0, blue: 0, alpha: UInt16((alpha * 65535).rounded()))
            let solid = pixman_image_create_solid_fill(&c)!
            pixman_image_composite32(PIXMAN_OP_IN, solid, nil, m, 0, 0, 0, 0, 0, 0, Int32(box.width), Int32(box.height))
            pixman_image_unref(solid)
        }
        return m
    }

    /// Whether a pixman transform (16.16) only scales each axis by a positive factor and
    /// translates, which th_composite_scaled_bilinear (th_composite_translate_bilinear at unit
    /// scale) draws with pixman's bytes.
    static func onlyScales(_ t: pixman_transform_t) -> Bool {
        let m = t.matrix
        return m.0.0 > 0 && m.0.1 == 0 && m.1.0 == 0 && m.1.1 > 0 && m.2 == (0, 0, 65536)
    }

    /// What pixman draws for `draw` under `t` (relative to the rectangle's origin), within the
    /// damage being redrawn. pixman maps a pixel's centre, (i + 0.5) in 16.16, through the
    /// matrix, rounding the product's fraction once, and steps back half a texel: pixel i
    /// samples at m02 + i m00 + ((m00 + 1) >> 1) - 0.5 (in 16.16), and likewise down.
    /// Where pixman's bilinear paths sample pixel (i, j) of a composite (counted from its
    /// rectangle's origin, which maps from the source's) under a scale-and-translate `t`, in 16.16.
    static func pixmanSample(_ t: pixman_transform_t, pixel: (i: Int, j: Int)) -> (Int64, Int64) {
        let ux = Int64(t.matrix.0.0), uy = Int64(t.matrix.1.1)
        return (Int64(t.matrix.0.2) + ((ux + 1) >> 1) - 32768 + Int64(pixel.i) * ux,
                Int64(t.matrix.1.2) + ((uy + 1) >> 1) - 32768 + Int64(pixel.j) * uy)
    }

    func scaledBilinear(_ src: RGBAImage, transform t: pixman_transform_t, rect: PixelRect, solidMask: UInt16?, target: RGBAImage) {
        let r = damageClip.map { rect.intersection($0) } ?? rect
        count(rect)
        guard !r.isEmpty else { return }
        let ux = Int64(t.matrix.0.0), uy = Int64(t.matrix.1.1)
        let (vx, vy) = Self.pixmanSample(t, pixel: (r.x0 - rect.x0, r.y0 - rect.y0))
        let s = src.data.assumingMemoryBound(to: UInt32.self), d = target.data.assumingMemoryBound(to: UInt32.self)
        if ux == 65536 && uy == 65536 && solidMask == nil {
            stats.translateComposites += 1
            th_composite_translate_bilinear(s, src.stride, Int32(src.width), Int32(src.height), d, target.stride,
                                            Int32(r.x0), Int32(r.y0), Int32(r.x1), Int32(r.y1), vx, vy)
        } else {
            stats.scaledComposites += 1
            // pixman holds a solid mask's alpha in 8 bits: the 16-bit value's top byte.
            th_composite_scaled_bilinear(s, src.stride, Int32(src.width), Int32(src.height), d, target.stride,
                                         Int32(r.x0), Int32(r.y0), Int32(r.x1), Int32(r.y1), vx, vy, ux, uy, UInt32(solidMask.map { $0 >> 8 } ?? 255))
        }
    }
}
