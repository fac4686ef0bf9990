import CCairo
import TransHostCore

/// A standalone layer's own drawing with cairo, in its bounds space: the background filling the
/// bounds rounded by the corner radius, then the shape (CAShapeLayer) or the axial gradient
/// (CAGradientLayer), and separately the border (drawn above the sublayers, as Core Animation
/// does).
enum LayerContent {
    static func drawsBody(_ s: LayerState) -> Bool {
        if let bg = s.backgroundColor, bg.alpha > 0, s.bounds.width > 0, s.bounds.height > 0 { return true }
        if let shape = s.shape, shape.path.map({ !$0.isEmpty }) ?? false { return true }
        if let g = s.gradient, !g.colors.isEmpty, s.bounds.width > 0, s.bounds.height > 0 { return true }
        return false
    }

    static func drawsBorder(_ s: LayerState) -> Bool {
        s.style.borderWidth > 0 && s.style.borderWidth.isFinite && (s.style.borderColor?.alpha ?? 0) > 0
            && s.bounds.width > 0 && s.bounds.height > 0
    }

    static func radius(_ s: LayerState) -> Double { RoundedOutline.effectiveRadius(bounds: s.bounds, cornerRadius: s.cornerRadius) }

    static func drawBody(_ cr: OpaquePointer, _ s: LayerState) {
        let b = s.bounds
        if let bg = s.backgroundColor, bg.alpha > 0, b.width > 0, b.height > 0 {
            ContentRasterizer.roundedRect(cr, b.minX, b.minY, b.width, b.height, radius(s))
            PathDrawing.set(cr, bg)
            cairo_fill(cr)
        }
        if let g = s.gradient, b.width > 0, b.height > 0 { drawGradient(cr, g, s) }
        if let shape = s.shape { PathDrawing.draw(cr, shape) }
    }

    /// CAGradientLayer: colours along the line from startPoint to endPoint (unit coordinates of
    /// the bounds), at `effectiveLocations`, constant beyond both ends, over the bounds rounded
    /// by the corner radius. A single colour fills the bounds.
    static func drawGradient(_ cr: OpaquePointer, _ g: GradientStyle, _ s: LayerState) {
        let b = s.bounds
        guard !g.colors.isEmpty else { return }
        let x0 = b.minX + g.startPoint.x * b.width, y0 = b.minY + g.startPoint.y * b.height
        let x1 = b.minX + g.endPoint.x * b.width, y1 = b.minY + g.endPoint.y * b.height
        guard [x0, y0, x1, y1].allSatisfy(\.isFinite) else { return }
        ContentRasterizer.roundedRect(cr, b.minX, b.minY, b.width, b.height, radius(s))
        if g.colors.count == 1 || (x0 == x1 && y0 == y1) {
            PathDrawing.set(cr, g.colors[g.colors.count - 1])
            cairo_fill(cr)
            return
        }
        let pattern = cairo_pattern_create_linear(x0, y0, x1, y1)!
        defer { cairo_pattern_destroy(pattern) }
        var last = 0.0
        for (c, l) in zip(g.colors, g.effectiveLocations) {
            // Core Animation expects increasing locations; a smaller one acts as the previous.
            let at = max(l.isFinite ? min(max(l, 0), 1) : 0, last)
            last = at
            cairo_pattern_add_color_stop_rgba(pattern, at, c.red, c.green, c.blue, c.alpha)
        }
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        cairo_set_source(cr, pattern)
        cairo_fill(cr)
    }

    static func drawBorder(_ cr: OpaquePointer, _ s: LayerState) {
        guard let c = s.style.borderColor else { return }
        let b = s.bounds
        let bw = min(s.style.borderWidth, b.width / 2, b.height / 2)
        ContentRasterizer.roundedRect(cr, b.minX + bw / 2, b.minY + bw / 2, b.width - bw, b.height - bw, max(radius(s) - bw / 2, 0))
        cairo_set_line_width(cr, bw)
        PathDrawing.set(cr, c)
        cairo_stroke(cr)
    }
}
