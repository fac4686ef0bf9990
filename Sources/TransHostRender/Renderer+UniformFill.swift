import CPixman
import TransHostCore

// A view whose own drawing is just an opaque, unrounded background on whole pixels (a window,
// a page, a table row behind its label) has a content raster of one colour. Copied to the
// target at whole pixels, it writes that colour over its rectangle: the same bytes as filling
// the rectangle with it, without drawing, keeping and reading a raster of the view's size (at
// @3x the window alone was a 6.5 MB copy every frame).
extension Renderer {
    /// The one colour of `look`'s `part` raster, when it is a single opaque colour.
    func uniformColor(_ look: ContentRasterizer.Look, _ part: ContentRasterizer.Part) -> UInt32? {
        guard part != .border, let bg = look.backgroundColor, ContentRasterizer.isOpaque(look, scale: scale),
              look.content.imagePath == nil, look.content.text?.string.isEmpty ?? true,
              part == .body || !ContentRasterizer.draws(look, .border) else { return nil }
        if let c = uniformColors[bg] { return c }
        // cairo's own pixel for the colour: a one-point look drawn as every raster of it is.
        let probe = ContentRasterizer.Look(width: 1, height: 1, backgroundColor: bg, cornerRadius: 0, content: ViewContent(), clipsToBounds: false)
        let c = ContentRasterizer.rasterize(probe, part: .body, scale: scale, images: ImageCache()).premultipliedPixel(x: 0, y: 0)
        uniformColors[bg] = c
        return c
    }

    /// What composite(raster, opaque: true, ...) does for a width x height raster of the one
    /// colour `c`, when the map moves by whole pixels and no mask is needed (alpha 1, no
    /// polygon clip): the rectangle filled with `c`. false when that does not apply.
    func compositeUniform(_ c: UInt32, width: Int, height: Int, rasterToDest h0: Homography, alpha: Double, clip: Clip,
                          target: RGBAImage) -> Bool {
        let h = Self.normalized(h0)
        guard compositePath != .pixmanProjective, alpha >= 1, Self.isWholePixelTranslation(h) else { return false }
        if case .polygon = clip { return false }
        let sw = Double(width), sh = Double(height)
        let canvas = canvasRect(target)
        var dest = Polygon.clip([Vec2(0, 0), Vec2(sw, 0), Vec2(sw, sh), Vec2(0, sh)].map(h.apply), toRect: canvas)
        if case .rect(let r) = clip { dest = Polygon.clip(dest, toRect: r) }
        guard dest.count >= 3 else { return true }
        let box = Polygon.bounds(dest).intersection(canvas)
        guard !box.isEmpty else { return true }
        // The blit reads the raster at box moved back by the translation; any pixel of box
        // outside the raster would be copied as transparent.
        let tx = Int(h.g.rounded()), ty = Int(h.h.rounded())
        let inside = box.intersection(PixelRect(x0: tx, y0: ty, x1: tx + width, y1: ty + height))
        let work = { [self] in
            if inside != box { fill(box, 0, target) }
            if !inside.isEmpty { fill(inside, c, target) }
            count(box)
        }
        if target === mainTarget {
            displayList.append(DisplayOp(run: work, coversTarget: inside == canvas, box: box,
                                         key: .fill(c, width: width, height: height, map: h, clip: clip), clippable: true, source: nil,
                                         overwrites: box))
        } else {
            work()
        }
        return true
    }

    /// Sets every pixel of `rect` to the premultiplied word `c`.
    private func fill(_ rect: PixelRect, _ c: UInt32, _ target: RGBAImage) {
        func ch(_ v: UInt32) -> UInt16 { UInt16(v & 255) * 257 }
        var color = pixman_color_t(red: ch(c >> 16), green: ch(c >> 8), blue: ch(c), alpha: ch(c >> 24))
        let solid = pixman_image_create_solid_fill(&color)!
        PixmanBands.composite(PIXMAN_OP_SRC, solid, nil, target.pixman, src: (0, 0), mask: (0, 0), rect: rect)
        pixman_image_unref(solid)
    }
}
