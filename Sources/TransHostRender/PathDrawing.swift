import CCairo
import Glibc
import TransHostCore

/// Draws paths with cairo as a CAShapeLayer does: the fill (non-zero or even-odd), then the
/// stroke centred on the path with its width, caps, joins, miter limit and dashes, limited to
/// the part of the path's length between strokeStart and strokeEnd.
///
/// Cairo's matrix at the call maps the path's coordinates (the layer's points) to pixels; its
/// flattening tolerance (0.1 pixel) and antialiasing decide the edge pixels, as for every other
/// shape the renderer draws.
enum PathDrawing {
    /// Adds `path` to cairo's current path. Quadratic curves become the equal cubic; a subpath
    /// that starts without a move starts at the previous end point, as in Core Graphics.
    static func add(_ cr: OpaquePointer, _ path: Path) {
        var current = Point.zero
        var start = Point.zero
        var open = false
        func ensureStarted() { if !open { cairo_move_to(cr, current.x, current.y); start = current; open = true } }
        for e in path.elements {
            switch e {
            case .moveTo(let p):
                cairo_move_to(cr, p.x, p.y); current = p; start = p; open = true
            case .lineTo(let p):
                ensureStarted(); cairo_line_to(cr, p.x, p.y); current = p
            case .quadCurveTo(let p, let c):
                ensureStarted()
                let c1 = Point(x: current.x + 2 / 3 * (c.x - current.x), y: current.y + 2 / 3 * (c.y - current.y))
                let c2 = Point(x: p.x + 2 / 3 * (c.x - p.x), y: p.y + 2 / 3 * (c.y - p.y))
                cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y); current = p
            case .curveTo(let p, let c1, let c2):
                ensureStarted(); cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y); current = p
            case .closeSubpath:
                if open { cairo_close_path(cr); current = start; open = false }
            }
        }
    }

    static func set(_ cr: OpaquePointer, _ c: Color, alpha: Double = 1) {
        cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha * alpha)
    }

    /// Fills and strokes `shape` (nothing without a path, or with non-finite points).
    static func draw(_ cr: OpaquePointer, _ shape: ShapeStyle) {
        guard let path = shape.path, !path.isEmpty, path.isFinite else { return }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        if let fill = shape.fillColor, fill.alpha > 0 {
            cairo_new_path(cr)
            add(cr, path)
            cairo_set_fill_rule(cr, shape.fillRule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
            set(cr, fill)
            cairo_fill(cr)
        }
        stroke(cr, shape, path)
    }

    static func stroke(_ cr: OpaquePointer, _ shape: ShapeStyle, _ path: Path) {
        guard let color = shape.strokeColor, color.alpha > 0, shape.lineWidth.isFinite, shape.lineWidth > 0 else { return }
        let from = clamp(shape.strokeStart), to = clamp(shape.strokeEnd)
        guard to > from else { return }
        cairo_new_path(cr)
        add(cr, path)
        if from > 0 || to < 1 {
            let pieces = trimmed(flattened(cr), from: from, to: to)
            cairo_new_path(cr)
            for piece in pieces {
                guard let first = piece.points.first else { continue }
                cairo_move_to(cr, first.x, first.y)
                for p in piece.points.dropFirst() { cairo_line_to(cr, p.x, p.y) }
                if piece.closed { cairo_close_path(cr) }
            }
        }
        cairo_set_line_width(cr, shape.lineWidth)
        switch shape.lineCap {
        case .butt: cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT)
        case .round: cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND)
        case .square: cairo_set_line_cap(cr, CAIRO_LINE_CAP_SQUARE)
        }
        switch shape.lineJoin {
        case .miter: cairo_set_line_join(cr, CAIRO_LINE_JOIN_MITER)
        case .round: cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND)
        case .bevel: cairo_set_line_join(cr, CAIRO_LINE_JOIN_BEVEL)
        }
        cairo_set_miter_limit(cr, shape.miterLimit.isFinite && shape.miterLimit >= 1 ? shape.miterLimit : 10)
        if let dashes = shape.lineDashPattern, !dashes.isEmpty, dashes.allSatisfy({ $0.isFinite && $0 >= 0 }),
           dashes.contains(where: { $0 > 0 }) {
            cairo_set_dash(cr, dashes, Int32(dashes.count), shape.lineDashPhase.isFinite ? shape.lineDashPhase : 0)
        }
        set(cr, color)
        cairo_stroke(cr)
    }

    static func clamp(_ v: Double) -> Double { v.isFinite ? min(max(v, 0), 1) : 0 }

    struct Polyline { var points: [Point]; var closed: Bool }

    /// Cairo's current path flattened into polylines (in user coordinates); a closed subpath
    /// repeats its first point at the end so its closing edge counts towards the length.
    static func flattened(_ cr: OpaquePointer) -> [Polyline] {
        guard let flat = cairo_copy_path_flat(cr) else { return [] }
        defer { cairo_path_destroy(flat) }
        var out: [Polyline] = []
        var current: Polyline? = nil
        let data = flat.pointee.data!
        var i = 0
        let n = Int(flat.pointee.num_data)
        while i < n {
            let header = data[i].header
            let len = Int(header.length)
            switch header.type {
            case CAIRO_PATH_MOVE_TO:
                if let c = current, c.points.count > 1 { out.append(c) }
                current = Polyline(points: [Point(x: data[i + 1].point.x, y: data[i + 1].point.y)], closed: false)
            case CAIRO_PATH_LINE_TO:
                current?.points.append(Point(x: data[i + 1].point.x, y: data[i + 1].point.y))
            case CAIRO_PATH_CLOSE_PATH:
                if var c = current, let f = c.points.first {
                    c.points.append(f); c.closed = true; out.append(c)
                    current = Polyline(points: [f], closed: false)
                }
            default: break
            }
            i += max(len, 1)
        }
        if let c = current, c.points.count > 1 { out.append(c) }
        return out
    }

    /// The pieces of `lines` between the fractions `from` and `to` of their total length (Core
    /// Animation measures strokeStart and strokeEnd over the whole path, every subpath in turn).
    /// A closed polyline kept whole stays closed, so its corner keeps its join.
    static func trimmed(_ lines: [Polyline], from: Double, to: Double) -> [Polyline] {
        func length(_ l: Polyline) -> Double {
            zip(l.points, l.points.dropFirst()).reduce(0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
        }
        let total = lines.reduce(0) { $0 + length($1) }
        guard total > 0 else { return [] }
        let a = from * total, b = to * total
        var out: [Polyline] = []
        var offset = 0.0
        for line in lines {
            let len = length(line)
            defer { offset += len }
            guard offset + len > a, offset < b else { continue }
            if offset >= a && offset + len <= b { out.append(line); continue }
            var piece: [Point] = []
            var s = offset
            for (p, q) in zip(line.points, line.points.dropFirst()) {
                let d = hypot(q.x - p.x, q.y - p.y)
                let lo = max(a, s), hi = min(b, s + d)
                if hi > lo || (d == 0 && s >= a && s <= b) {
                    let t0 = d > 0 ? (lo - s) / d : 0, t1 = d > 0 ? (hi - s) / d : 0
                    let p0 = Point(x: p.x + (q.x - p.x) * t0, y: p.y + (q.y - p.y) * t0)
                    if piece.isEmpty { piece.append(p0) }
                    piece.append(Point(x: p.x + (q.x - p.x) * t1, y: p.y + (q.y - p.y) * t1))
                }
                s += d
            }
            if piece.count > 1 { out.append(Polyline(points: piece, closed: false)) }
        }
        return out
    }

    /// Where the stroke can reach beyond the path's control-point box: half the width, times
    /// the miter limit for miter joins, times sqrt 2 for square caps.
    static func strokeOutset(_ shape: ShapeStyle) -> Double {
        guard let c = shape.strokeColor, c.alpha > 0, shape.lineWidth.isFinite, shape.lineWidth > 0 else { return 0 }
        var k = shape.lineCap == .square ? 2.0.squareRoot() : 1
        if shape.lineJoin == .miter { k = max(k, shape.miterLimit.isFinite ? min(max(shape.miterLimit, 1), 100) : 10) }
        return shape.lineWidth / 2 * k
    }
}
