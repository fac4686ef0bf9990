import CCairo
import CRenderKernels
import TransHostCore

/// A grid of frames, each scaled to a thumbnail and labelled with its time ("0.250 s"), under
/// an optional caption saying which transition it is: who animated it, from and to which
/// controller types, its duration and how it ended. A cancelled transition gets an orange
/// badge and frame, one that broke the transition contract a red badge, frame and the first
/// breaches, so neither can pass for a normal one at a glance. Text is at least 12 px high
/// in the sheet's own pixels (legible at 100 %).
public enum ContactSheet {
    /// What the sheet's header says about its transition.
    public struct Caption: Equatable, Sendable {
        /// "fade-scale/fade-scale", or "default animator" when the host animated it.
        public var animator: String
        /// "#0 navigation push".
        public var transition: String
        /// "A → B".
        public var fromTo: String
        public var duration: Double
        /// "completed" or "cancelled".
        public var outcome: String
        public var interactive: Bool
        /// Human sentences, one per breach of the transition contract.
        public var breaches: [String]

        public init(animator: String, transition: String, fromTo: String, duration: Double, outcome: String,
                    interactive: Bool = false, breaches: [String] = []) {
            self.animator = animator; self.transition = transition; self.fromTo = fromTo
            self.duration = duration; self.outcome = outcome; self.interactive = interactive; self.breaches = breaches
        }

        public var isCancelled: Bool { outcome == "cancelled" }
        public var isBreached: Bool { !breaches.isEmpty }

        /// The second header line: "fade-scale/fade-scale · 0.25 s · completed".
        var detailLine: String {
            var parts = [animator, "\(ContactSheet.seconds(duration)) s"]
            if interactive { parts.append("interactive") }
            parts.append(outcome)
            return parts.joined(separator: "  ·  ")
        }
    }

    static let orange = (0.90, 0.45, 0.0)
    static let red = (0.80, 0.10, 0.10)

    public static func make(frames: [(image: RGBAImage, time: Double)], caption: Caption? = nil, columns: Int = 4,
                            thumbnailWidth: Int = 160, background: Color = .white) -> RGBAImage {
        let first = frames.first?.image
        let builder = Builder(count: frames.count, frameWidth: first?.width ?? 1, frameHeight: first?.height ?? 1, caption: caption,
                              columns: columns, thumbnailWidth: thumbnailWidth, background: background)
        for f in frames { builder.add(f.image, time: f.time) }
        return builder.finish()
    }

    /// A sheet filled one frame at a time, in order, so a transition's frames are drawn into it
    /// as they are rendered and never held: the same pixels as `make` with all of them at once
    /// (each thumbnail, border and label touches only its own cell). Its cells are where
    /// `ContactSheet.layout` says (the HTML report crops by that), as a test checks.
    public final class Builder {
        public let sheet: RGBAImage
        private let caption: Caption?
        private let cols: Int, tw: Int, th: Int, pad = 8, cellW: Int, cellH: Int, header: Int
        private var added = 0

        /// A sheet for `count` frames of frameWidth x frameHeight pixels.
        public init(count: Int, frameWidth: Int, frameHeight: Int, caption: Caption? = nil, columns: Int = 4,
                    thumbnailWidth: Int = 160, background: Color = .white) {
            cols = max(1, min(columns, max(count, 1)))
            let rows = max(1, (count + cols - 1) / cols)
            let aspect = count > 0 ? Double(frameHeight) / Double(frameWidth) : 1
            tw = max(thumbnailWidth, 16)
            th = max(Int((Double(tw) * aspect).rounded()), 1)
            let label = 22
            cellW = tw + pad
            cellH = th + label + pad
            let shownBreaches = min(caption?.breaches.count ?? 0, 3)
            header = caption.map { c in 52 + (c.isBreached ? 18 * shownBreaches + 4 : 0) } ?? 0
            let width = cols * cellW + pad
            self.caption = caption
            sheet = RGBAImage(width: width, height: header + rows * cellH + pad)
            sheet.fill(background)
            if let c = caption {
                sheet.withCairo { cr in drawCaption(c, cr: cr, width: Double(width), shownBreaches: shownBreaches) }
            }
        }

        /// Draws the next frame's thumbnail and its time label.
        public func add(_ image: RGBAImage, time: Double) {
            let k = added
            added += 1
            let (tw, th, cols, cellW, cellH, header, pad) = (tw, th, cols, cellW, cellH, header, pad)
            let cellX = pad + (k % cols) * cellW, cellY = header + pad + (k / cols) * cellH
            // A whole-number shrink (a frame 4x the thumbnail's size) is drawn by our own loop,
            // which gives cairo's GOOD filter's pixels tens of times faster; any other
            // scale goes through cairo.
            let drawn = th_box_downscale_over(image.data.assumingMemoryBound(to: UInt32.self), image.stride,
                                              Int32(image.width), Int32(image.height),
                                              sheet.data.assumingMemoryBound(to: UInt32.self), sheet.stride,
                                              Int32(sheet.width), Int32(sheet.height),
                                              Int32(cellX), Int32(cellY), Int32(tw), Int32(th)) != 0
            sheet.withCairo { cr in
                let x = Double(cellX), y = Double(cellY)
                if !drawn { ContactSheet.cairoThumbnail(image, cr: cr, x: cellX, y: cellY, width: tw, height: th) }
                cairo_set_source_rgb(cr, 0.6, 0.6, 0.6)
                cairo_set_line_width(cr, 1)
                cairo_rectangle(cr, x - 0.5, y - 0.5, Double(tw) + 1, Double(th) + 1)
                cairo_stroke(cr)
                let text = timeLabel(time)
                ContentRasterizer.selectFont(cr, size: 13)
                var te = cairo_text_extents_t()
                cairo_text_extents(cr, text, &te)
                cairo_set_source_rgb(cr, 0.1, 0.1, 0.1)
                cairo_move_to(cr, x + (Double(tw) - te.x_advance) / 2, y + Double(th) + 16)
                cairo_show_text(cr, text)
            }
        }

        /// The sheet, with its cancelled or breached frame round it.
        public func finish() -> RGBAImage {
            if let c = caption, c.isBreached || c.isCancelled {
                // A frame round the whole sheet: the mark survives being shrunk in a list.
                let (r, g, b) = c.isBreached ? red : orange
                sheet.withCairo { cr in
                    cairo_set_source_rgb(cr, r, g, b)
                    cairo_set_line_width(cr, 4)
                    cairo_rectangle(cr, 2, 2, Double(sheet.width) - 4, Double(sheet.height) - 4)
                    cairo_stroke(cr)
                }
            }
            return sheet
        }
    }

    /// `image` shrunk into the cell at (x, y) with cairo's GOOD filter, clipped to the cell:
    /// what th_box_downscale_over reproduces, and what draws every other scale.
    static func cairoThumbnail(_ image: RGBAImage, cr: OpaquePointer, x: Int, y: Int, width: Int, height: Int) {
        image.withCairoSurface { surface in
            cairo_save(cr)
            cairo_translate(cr, Double(x), Double(y))
            cairo_rectangle(cr, 0, 0, Double(width), Double(height))
            cairo_clip(cr)
            cairo_scale(cr, Double(width) / Double(image.width), Double(height) / Double(image.height))
            cairo_set_source_surface(cr, surface, 0, 0)
            cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
            cairo_paint(cr)
            cairo_restore(cr)
        }
    }

    fileprivate static func drawCaption(_ c: Caption, cr: OpaquePointer, width: Double, shownBreaches: Int) {
        let left = 10.0, right = width - 10
        // Badges at the right of the first line; the text on their left is cut to fit.
        var badges: [(String, (Double, Double, Double))] = []
        if c.isBreached { badges.append(("BREACH \u{00D7}\(c.breaches.count)", red)) }
        if c.isCancelled { badges.append(("CANCELLED", orange)) }
        var x = right
        ContentRasterizer.selectFont(cr, size: 12, bold: true)
        for (text, colour) in badges {
            var te = cairo_text_extents_t()
            cairo_text_extents(cr, text, &te)
            let w = te.x_advance + 12
            x -= w
            cairo_set_source_rgb(cr, colour.0, colour.1, colour.2)
            cairo_rectangle(cr, x, 8, w, 20)
            cairo_fill(cr)
            cairo_set_source_rgb(cr, 1, 1, 1)
            cairo_move_to(cr, x + 6, 22)
            cairo_show_text(cr, text)
            x -= 6
        }
        ContentRasterizer.selectFont(cr, size: 15, bold: true)
        cairo_set_source_rgb(cr, 0.05, 0.05, 0.05)
        cairo_move_to(cr, left, 23)
        cairo_show_text(cr, fit("\(c.transition)   \(c.fromTo)", cr: cr, width: x - left - 8))
        ContentRasterizer.selectFont(cr, size: 13)
        cairo_set_source_rgb(cr, 0.25, 0.25, 0.25)
        cairo_move_to(cr, left, 43)
        cairo_show_text(cr, fit(c.detailLine, cr: cr, width: right - left))
        guard c.isBreached else { return }
        ContentRasterizer.selectFont(cr, size: 12)
        cairo_set_source_rgb(cr, red.0, red.1, red.2)
        for (k, b) in c.breaches.prefix(shownBreaches).enumerated() {
            var line = "breach: \(b)"
            if k == shownBreaches - 1 && c.breaches.count > shownBreaches { line += "  (+\(c.breaches.count - shownBreaches) more)" }
            cairo_move_to(cr, left, 62 + Double(k) * 18)
            cairo_show_text(cr, fit(line, cr: cr, width: right - left))
        }
    }

    /// `text` cut at a character boundary, with an ellipsis, so it is at most `width` wide in
    /// the current font.
    static func fit(_ text: String, cr: OpaquePointer, width: Double) -> String {
        func advance(_ s: String) -> Double {
            var te = cairo_text_extents_t()
            cairo_text_extents(cr, s, &te)
            return te.x_advance
        }
        guard advance(text) > width else { return text }
        var chars = Array(text)
        while !chars.isEmpty && advance(String(chars) + "\u{2026}") > width { chars.removeLast() }
        return String(chars) + "\u{2026}"
    }

    /// "0.250 s": milliseconds precision, fixed format.
    public static func timeLabel(_ t: Double) -> String {
        let ms = Int((t * 1000).rounded())
        let sign = ms < 0 ? "-" : ""
        let a = abs(ms)
        let frac = String(a % 1000)
        return "\(sign)\(a / 1000).\(String(repeating: "0", count: 3 - frac.count))\(frac) s"
    }

    /// A duration with up to three decimals and no trailing zeros: 0.25, 1.3, 2.
    static func seconds(_ t: Double) -> String {
        var s = timeLabel(t).dropLast(2)
        while s.hasSuffix("0") { s = s.dropLast() }
        if s.hasSuffix(".") { s = s.dropLast() }
        return String(s)
    }

    public static func write(frames: [(image: RGBAImage, time: Double)], caption: Caption? = nil, columns: Int = 4,
                             thumbnailWidth: Int = 160, to path: String) throws {
        try PNGWriter.write(make(frames: frames, caption: caption, columns: columns, thumbnailWidth: thumbnailWidth), to: path)
    }
}
