import CPixman
import TransHostCore

// Redrawing only what changed. A frame's drawing into its target is a display list of
// operations (clear, fills, composites, cairo drawing), each touching only the pixels of its
// box. When the target still holds the previous frame, a pixel outside every box of an
// operation that differs from last frame's (by position in the list) is touched by the same
// operations in the same order, so it already holds its new value. Only the damage, the
// bounding rectangle of those boxes, is cleared and drawn again.
//
// pixman operations are clipped to the damage by the target's clip region, which splits a
// composite as row bands do (each destination pixel is sampled on its own, so the bytes are
// those of the whole call); cairo drawing by a clip to the damage's whole pixels. The span
// loops are not clipped: one of them that reaches into the damage widens it to its whole box,
// so it runs as in a full frame over pixels all drawn again.

/// What a display-list operation draws, compared with the operation at the same position in
/// the previous frame. Sources compare by identity: a raster is never drawn into after it is
/// handed to a composite, and the previous frame's sources are kept alive until the next
/// frame is compared, so an identity is not reused meanwhile.
enum DisplayOpKey: Equatable {
    case clear(Color)
    case composite(source: ObjectIdentifier, opaque: Bool, map: Homography, alpha: Double, clip: Clip)
    case fill(UInt32, width: Int, height: Int, map: Homography, clip: Clip)
    case cairo(LayerState, border: Bool, map: Homography, alpha: Double, clip: Clip)
}

/// One deferred operation on the frame being rendered.
struct DisplayOp {
    var run: () -> Void
    /// Whether it paints every pixel of the target opaquely (everything before it is hidden).
    var coversTarget: Bool
    /// The pixels it may touch; nil when unknown (the whole target).
    var box: PixelRect?
    /// nil: never equal to another operation.
    var key: DisplayOpKey?
    /// Whether the damage confines it: the target's clip region (pixman draws it) or a cairo
    /// clip (Renderer.damageClip).
    var clippable: Bool
    /// The raster it reads, kept alive while its identity is compared.
    var source: AnyObject?
    /// For a masked view's raster (its key names the unmasked group): the mask, part of what
    /// the operation draws, and the pixels a change of the mask alone can reach (the old and
    /// the new mask's extents both count; nil when unknown).
    var mask: SampledLayer? = nil
    var maskBox: PixelRect? = nil
    /// Pixels it sets to values that do not depend on what the target held there (an opaque
    /// raster's interior, a fill); nil when none are known.
    var overwrites: PixelRect? = nil
}

/// A view's group raster drawn through its mask: the raster, the mask, and the mask's extent
/// in the raster's pixels (nil when it has none).
struct Masking {
    var group: RGBAImage
    var mask: SampledLayer
    var rasterBox: Rect?
}

/// The operations that drew the target's pixels last (see Renderer.reusesTargetPixels).
struct LastFrame {
    weak var target: RGBAImage?
    var ops: ArraySlice<DisplayOp>
}

extension PixelRect {
    func union(_ o: PixelRect) -> PixelRect {
        if isEmpty { return o }
        if o.isEmpty { return self }
        return PixelRect(x0: min(x0, o.x0), y0: min(y0, o.y0), x1: max(x1, o.x1), y1: max(y1, o.y1))
    }

    func contains(_ o: PixelRect) -> Bool { o.isEmpty || (x0 <= o.x0 && y0 <= o.y0 && x1 >= o.x1 && y1 >= o.y1) }

    /// The whole pixels `r` touches once widened by `margin` on every side; nil when not finite.
    init?(covering r: Rect, margin: Double) {
        guard r.minX.isFinite, r.minY.isFinite, r.maxX.isFinite, r.maxY.isFinite else { return nil }
        self = Polygon.bounds([Vec2(r.minX - margin, r.minY - margin), Vec2(r.maxX + margin, r.maxY + margin)])
    }
}

extension Renderer {
    /// The rectangle of `ops` to draw when `target` still shows the frame drawn by `previous`:
    /// .empty when nothing changed, the whole canvas when everything may have.
    static func damage(_ ops: ArraySlice<DisplayOp>, previous: ArraySlice<DisplayOp>, canvas: PixelRect) -> PixelRect {
        var d = PixelRect.empty
        func box(_ op: DisplayOp) -> PixelRect { op.box?.intersection(canvas) ?? canvas }
        let common = min(ops.count, previous.count)
        for i in 0..<max(ops.count, previous.count) {
            let new = i < ops.count ? ops[ops.startIndex + i] : nil
            let old = i < previous.count ? previous[previous.startIndex + i] : nil
            if i < common, let k = new!.key, k == old!.key {
                if new!.mask == old!.mask { continue }
                // A mask that changes over the same raster changes only what either mask reaches.
                if let a = new!.maskBox, let b = old!.maskBox {
                    d = d.union(a.intersection(canvas)).union(b.intersection(canvas))
                    continue
                }
            }
            if let new { d = d.union(box(new)) }
            if let old { d = d.union(box(old)) }
            if d == canvas { return canvas }
        }
        guard !d.isEmpty else { return .empty }
        // An operation the clip region cannot confine runs whole: its box joins the damage.
        var grown = true
        while grown {
            grown = false
            for op in ops where !op.clippable {
                let b = box(op)
                guard !b.isEmpty, !b.intersection(d).isEmpty, !d.contains(b) else { continue }
                d = d.union(b)
                grown = true
            }
        }
        return d
    }

    /// The destination pixels of `box` that the mask's extent (in raster pixels) can reach
    /// through `rasterToDest`: two raster pixels wider (antialiased edges, the bilinear
    /// footprint), mapped, and two destination pixels wider again.
    static func maskBox(_ m: Masking, rasterToDest: Homography, box: PixelRect) -> PixelRect? {
        guard let r = m.rasterBox, let d = LayerGeometry.mappedBox(Rect(x: r.minX - 2, y: r.minY - 2, width: r.width + 4, height: r.height + 4),
                                                                   rasterToDest),
              let pixels = PixelRect(covering: d, margin: 2) else { return nil }
        return pixels.intersection(box)
    }

    /// Runs the frame's display list (from its last covering operation) into `target`,
    /// redrawing only the damage when the target still holds the previous frame.
    func runDisplayList(into target: RGBAImage) {
        let start = displayList.lastIndex { $0.coversTarget } ?? 0
        stats.occludedOperations += start
        let ops = displayList[start...]
        let canvas = canvasRect(target)
        var rect = canvas
        if reusesTargetPixels, let last = lastFrame, let shown = last.target, shown === target {
            rect = Self.damage(ops, previous: last.ops, canvas: canvas)
        }
        lastDamage = rect
        stats.damagedPixels += rect.area
        if rect == canvas {
            runClearingLess(ops, within: rect, into: target)
        } else if !rect.isEmpty {
            var region = pixman_region32_t()
            pixman_region32_init_rect(&region, Int32(rect.x0), Int32(rect.y0), UInt32(rect.width), UInt32(rect.height))
            pixman_image_set_clip_region32(target.pixman, &region)
            damageClip = rect
            runClearingLess(ops.filter { !($0.box ?? canvas).intersection(rect).isEmpty }[...], within: rect, into: target)
            damageClip = nil
            pixman_image_set_clip_region32(target.pixman, nil)
            pixman_region32_fini(&region)
        }
        // Only what is compared next frame is kept (the closures hold the frame's tree).
        lastFrame = reusesTargetPixels
            ? LastFrame(target: target, ops: ops.map { var op = $0; op.run = {}; return op }[...])
            : nil
    }

    /// Runs `ops` over `rect`, except that each operation the clip can confine skips the
    /// columns (or rows) of its box that later operations overwrite whole, whatever they held:
    /// the window's background under a push's two opaque pages, and the page a slide uncovers
    /// where the page above still hides it. The operations in between may then blend over
    /// stale pixels there, but the overwriting one replaces what they leave, so every pixel
    /// ends as before.
    func runClearingLess(_ ops: ArraySlice<DisplayOp>, within rect: PixelRect, into target: RGBAImage) {
        // What each operation may skip, found from the last one back: the pixels overwritten
        // by the operations after it.
        var skips = [[PixelRect]?](repeating: nil, count: ops.count)
        var covered: [PixelRect] = []
        for (k, op) in ops.enumerated().reversed() {
            if culls, op.clippable, !covered.isEmpty {
                let box = (op.box ?? rect).intersection(rect)
                if box.area >= Self.cullingMinimumPixels {
                    // Whole columns or rows, or the box less every cover when that leaves fewer
                    // pixels (a cover not spanning the box: a perspective page's interior).
                    var skip = Self.uncoveredBands(box, by: covered)
                    if !skip.isEmpty {
                        let holes = Self.uncoveredRects(box, by: covered)
                        if holes.count <= Self.cullingMaximumRects && area(holes) < area(skip) { skip = holes }
                    }
                    if skip != [box] { skips[k] = skip }
                }
            }
            // A bounded list, of large rectangles only (any subset is safe: it only skips less),
            // so a list of thousands of operations is not compared with thousands each.
            if covered.count < Self.cullingMaximumCovers, let o = op.overwrites?.intersection(rect), o.area >= Self.cullingMinimumPixels {
                covered.append(o)
            }
        }
        let fullClip = damageClip
        for (k, op) in ops.enumerated() {
            let box = (op.box ?? rect).intersection(rect)
            let drawn = skips[k]?.reduce(0) { $0 + $1.area } ?? box.area
            if k == 0 { stats.backgroundPixels += drawn } else { stats.culledPixels += box.area - drawn }
            guard let bands = skips[k] else { op.run(); continue }
            if bands.isEmpty { continue }
            // pixman is confined by the target's clip region, a cairo drawing or a C loop by
            // damageClip (one rectangle: the bands' bounds); both are put back after.
            var boxes = bands.map { pixman_box32_t(x1: Int32($0.x0), y1: Int32($0.y0), x2: Int32($0.x1), y2: Int32($0.y1)) }
            var region = pixman_region32_t()
            pixman_region32_init_rects(&region, &boxes, Int32(boxes.count))
            pixman_image_set_clip_region32(target.pixman, &region)
            pixman_region32_fini(&region)
            damageClip = bands.dropFirst().reduce(bands[0]) { $0.union($1) }
            op.run()
            damageClip = fullClip
            if rect == canvasRect(target) {
                pixman_image_set_clip_region32(target.pixman, nil)
            } else {
                var whole = pixman_region32_t()
                pixman_region32_init_rect(&whole, Int32(rect.x0), Int32(rect.y0), UInt32(rect.width), UInt32(rect.height))
                pixman_image_set_clip_region32(target.pixman, &whole)
                pixman_region32_fini(&whole)
            }
        }
    }

    /// The area of disjoint rectangles.
    func area(_ rects: [PixelRect]) -> Int { rects.reduce(0) { $0 + $1.area } }

    /// The most rectangles an operation is drawn in when it skips covers that do not span it.
    static let cullingMaximumRects = 16

    /// `box` less every rectangle of `covered`, as disjoint rectangles (pixman's region bands).
    static func uncoveredRects(_ box: PixelRect, by covered: [PixelRect]) -> [PixelRect] {
        var region = pixman_region32_t()
        pixman_region32_init_rect(&region, Int32(box.x0), Int32(box.y0), UInt32(box.width), UInt32(box.height))
        defer { pixman_region32_fini(&region) }
        for c in covered {
            let i = c.intersection(box)
            guard !i.isEmpty else { continue }
            var cut = pixman_region32_t()
            pixman_region32_init_rect(&cut, Int32(i.x0), Int32(i.y0), UInt32(i.width), UInt32(i.height))
            withUnsafeMutablePointer(to: &region) { r in _ = pixman_region32_subtract(r, r, &cut) }
            pixman_region32_fini(&cut)
        }
        var n: Int32 = 0
        guard let rects = pixman_region32_rectangles(&region, &n) else { return [] }
        return (0..<Int(n)).map { PixelRect(x0: Int(rects[$0].x1), y0: Int(rects[$0].y1), x1: Int(rects[$0].x2), y1: Int(rects[$0].y2)) }
    }

    /// Operations smaller than this are run whole (finding what they could skip costs more),
    /// and overwrites smaller than this hide nothing of the others.
    static let cullingMinimumPixels = 4096
    /// The most overwrites (the topmost first) the operations below them are compared with.
    static let cullingMaximumCovers = 32

    /// The columns of `box` that no rectangle of `covered` spanning its whole height covers, or
    /// its rows that none spanning its whole width covers, whichever leaves fewer pixels; as
    /// bands of `box` (none when all of it is covered).
    static func uncoveredBands(_ box: PixelRect, by covered: [PixelRect]) -> [PixelRect] {
        let tall = covered.filter { $0.y0 <= box.y0 && $0.y1 >= box.y1 && $0.x1 > box.x0 && $0.x0 < box.x1 }.map { $0.x0..<$0.x1 }
        let wide = covered.filter { $0.x0 <= box.x0 && $0.x1 >= box.x1 && $0.y1 > box.y0 && $0.y0 < box.y1 }.map { $0.y0..<$0.y1 }
        if tall.isEmpty && wide.isEmpty { return [box] }
        let columns = uncovered(box.x0..<box.x1, by: tall)
        let rows = uncovered(box.y0..<box.y1, by: wide)
        if columns.reduce(0, { $0 + $1.count }) * box.height <= rows.reduce(0, { $0 + $1.count }) * box.width {
            return columns.map { PixelRect(x0: $0.lowerBound, y0: box.y0, x1: $0.upperBound, y1: box.y1) }
        }
        return rows.map { PixelRect(x0: box.x0, y0: $0.lowerBound, x1: box.x1, y1: $0.upperBound) }
    }

    /// The parts of `whole` that no range of `parts` covers, in order.
    static func uncovered(_ whole: Range<Int>, by parts: [Range<Int>]) -> [Range<Int>] {
        var out: [Range<Int>] = [], at = whole.lowerBound
        for p in parts.sorted(by: { $0.lowerBound < $1.lowerBound }) where p.upperBound > at {
            if p.lowerBound > at { out.append(at..<min(p.lowerBound, whole.upperBound)) }
            at = max(at, p.upperBound)
            if at >= whole.upperBound { break }
        }
        if at < whole.upperBound { out.append(at..<whole.upperBound) }
        return out
    }
}
