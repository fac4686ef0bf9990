import CCairo
import TransHostCore
import TransHostSupport

/// Draws a view's own look with cairo into a premultiplied ARGB32 raster of its bounds size in
/// pixels: background (rounded by cornerRadius), image (scaled to fill), text label, and the
/// border. Fonts go through cairo's toy text API with "DejaVu Sans" and fixed font options
/// (grey antialiasing, no hinting, no hinted metrics) so the same input gives the same pixels.
enum ContentRasterizer {
    struct Look: Hashable {
        var width: Double
        var height: Double
        var backgroundColor: Color?
        var cornerRadius: Double
        var content: ViewContent
        var clipsToBounds: Bool
    }

    enum Part { case body, border, all }

    /// Whether the look draws anything in `part`.
    static func draws(_ look: Look, _ part: Part) -> Bool {
        let border = look.content.borderWidth > 0 && look.content.borderColor.alpha > 0
        let body = (look.backgroundColor.map { $0.alpha > 0 } ?? false) || look.content.imagePath != nil
            || !(look.content.text?.string.isEmpty ?? true)
        switch part {
        case .body: return body
        case .border: return border
        case .all: return body || border
        }
    }

    /// Whether the body raster is opaque over its whole pixel rectangle.
    static func isOpaque(_ look: Look, scale: Int) -> Bool {
        guard let bg = look.backgroundColor, bg.alpha >= 1, look.cornerRadius <= 0 else { return false }
        let w = look.width * Double(scale), h = look.height * Double(scale)
        return w == w.rounded() && h == h.rounded()
    }

    /// The largest raster side, in pixels. A bigger view (a long scrolling list, or a plugin's
    /// absurd frame) is drawn only over its first `maxRasterSide` pixels on that axis rather
    /// than allocating without bound.
    static let maxRasterSide = 16384.0

    static func pixelSize(_ look: Look, scale: Int) -> (Int, Int) {
        func side(_ points: Double) -> Int {
            let px = points * Double(scale) - 1e-9
            guard px.isFinite, px > 0 else { return 1 }
            return Int(min(px, maxRasterSide).rounded(.up))
        }
        return (max(side(look.width), 1), max(side(look.height), 1))
    }

    static func rasterize(_ look: Look, part: Part, scale: Int, images: ImageCache) -> RGBAImage {
        let (pw, ph) = pixelSize(look, scale: scale)
        let img = RGBAImage(width: pw, height: ph)
        img.withCairo { cr in
            cairo_scale(cr, Double(scale), Double(scale))
            let w = look.width, h = look.height
            let r = min(look.cornerRadius, w / 2, h / 2)
            if part != .border {
                if let bg = look.backgroundColor, bg.alpha > 0 {
                    roundedRect(cr, 0, 0, w, h, r)
                    cairo_set_source_rgba(cr, bg.red, bg.green, bg.blue, bg.alpha)
                    cairo_fill(cr)
                }
                cairo_save(cr)
                if look.clipsToBounds && r > 0 {
                    roundedRect(cr, 0, 0, w, h, r)
                    cairo_clip(cr)
                }
                if let path = look.content.imagePath, let png = images.surface(path), w > 0, h > 0 {
                    let iw = Double(cairo_image_surface_get_width(png)), ih = Double(cairo_image_surface_get_height(png))
                    if iw > 0 && ih > 0 {
                        cairo_save(cr)
                        cairo_rectangle(cr, 0, 0, w, h)
                        cairo_clip(cr)
                        cairo_scale(cr, w / iw, h / ih)
                        cairo_set_source_surface(cr, png, 0, 0)
                        cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
                        cairo_paint(cr)
                        cairo_restore(cr)
                    }
                }
                if let text = look.content.text, !text.string.isEmpty {
                    drawText(cr, text, width: w, height: h)
                }
                cairo_restore(cr)
            }
            if part != .body, look.content.borderWidth > 0, look.content.borderColor.alpha > 0 {
                // Core Animation draws the border inside the bounds, following the corner radius.
                let bw = min(look.content.borderWidth, w / 2, h / 2)
                let c = look.content.borderColor
                roundedRect(cr, bw / 2, bw / 2, w - bw, h - bw, max(r - bw / 2, 0))
                cairo_set_line_width(cr, bw)
                cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha)
                cairo_stroke(cr)
            }
        }
        return img
    }

    static func roundedRect(_ cr: OpaquePointer, _ x: Double, _ y: Double, _ w: Double, _ h: Double, _ r: Double) {
        guard r > 0 else { cairo_rectangle(cr, x, y, w, h); return }
        let pi = Double.pi
        cairo_new_sub_path(cr)
        cairo_arc(cr, x + w - r, y + r, r, -pi / 2, 0)
        cairo_arc(cr, x + w - r, y + h - r, r, 0, pi / 2)
        cairo_arc(cr, x + r, y + h - r, r, pi / 2, pi)
        cairo_arc(cr, x + r, y + r, r, pi, 3 * pi / 2)
        cairo_close_path(cr)
    }

    /// Selects the label font with fixed options (deterministic glyph rasterization).
    static func selectFont(_ cr: OpaquePointer, size: Double, bold: Bool = false) {
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_font_size(cr, size)
        let opts = cairo_font_options_create()
        cairo_font_options_set_antialias(opts, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(opts, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(opts, CAIRO_HINT_METRICS_OFF)
        cairo_set_font_options(cr, opts)
        cairo_font_options_destroy(opts)
    }

    /// A label like UILabel's: lines split at "\n", the block centred vertically, each line
    /// aligned left, centre or right.
    static func drawText(_ cr: OpaquePointer, _ text: TextContent, width: Double, height: Double) {
        selectFont(cr, size: max(text.fontSize, 0.1))
        var fe = cairo_font_extents_t()
        cairo_font_extents(cr, &fe)
        let lines = text.string.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let lineHeight = fe.height
        let blockHeight = lineHeight * Double(lines.count)
        var baseline = (height - blockHeight) / 2 + fe.ascent
        cairo_set_source_rgba(cr, text.color.red, text.color.green, text.color.blue, text.color.alpha)
        for line in lines {
            var te = cairo_text_extents_t()
            cairo_text_extents(cr, line, &te)
            let x: Double
            switch text.alignment {
            case .left: x = 0
            case .center: x = (width - te.x_advance) / 2
            case .right: x = width - te.x_advance
            }
            cairo_move_to(cr, x, baseline)
            cairo_show_text(cr, line)
            baseline += lineHeight
        }
    }
}

/// Decoded PNG images by path (cairo image surfaces), loaded once per renderer.
final class ImageCache {
    private var surfaces: [String: OpaquePointer?] = [:]
    /// Paths that failed to load (reported once each).
    private(set) var failures: [String] = []

    func surface(_ path: String) -> OpaquePointer? {
        if let s = surfaces[path] { return s }
        // cairo would block on a FIFO and decode any size; only a regular PNG file within the
        // pixel budget is handed to it.
        guard FileIO.regularFileProblem(path) == nil, Self.dimensionsFit(path) else {
            failures.append(path)
            surfaces[path] = .some(nil)
            return nil
        }
        var result: OpaquePointer? = cairo_image_surface_create_from_png(path)
        if let s = result, cairo_surface_status(s) != CAIRO_STATUS_SUCCESS {
            cairo_surface_destroy(s)
            result = nil
            failures.append(path)
        }
        surfaces[path] = result
        return result
    }

    /// Decoded images may hold at most this many pixels (4 bytes each); the scenario reader
    /// refuses larger ones, this guards images that changed since.
    static let maxPixels = 16 << 20

    static func dimensionsFit(_ path: String) -> Bool {
        guard let (w, h) = FileIO.pngSize(path) else { return true } // not a PNG: cairo reports it
        return w <= maxPixels && h <= maxPixels && w * h <= maxPixels
    }

    deinit {
        for case let s? in surfaces.values { cairo_surface_destroy(s) }
    }
}
