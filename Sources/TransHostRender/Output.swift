#if canImport(Glibc)
import Glibc
#endif
import CCairo
import CGif
import CRenderKernels
import TransHostCore
import TransHostSupport

public enum RenderOutputError: Error, CustomStringConvertible, Equatable {
    case io(path: String, reason: String)
    case encode(path: String, reason: String)
    case invalidArgument(String)

    public var description: String {
        switch self {
        case .io(let p, let r): return "cannot write \(p): \(r)"
        case .encode(let p, let r): return "cannot encode \(p): \(r)"
        case .invalidArgument(let s): return s
        }
    }
}

/// Writes files atomically (TransHostSupport.FileIO: a temporary file beside the destination,
/// then rename(2)), with errors as RenderOutputError.
public enum AtomicFile {
    /// Calls `body` with a temporary path to write to, then renames it over `path`; on any
    /// failure the temporary file is removed and `path` is untouched.
    public static func write(to path: String, _ body: (String) throws -> Void) throws {
        do { try FileIO.writeAtomically(path, body: body) } catch let e as FileIO.Failure {
            throw RenderOutputError.io(path: path, reason: e.reason)
        }
    }

    /// Writes `bytes` to `path` atomically.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        do { try FileIO.writeAtomically(path, bytes) } catch let e as FileIO.Failure {
            throw RenderOutputError.io(path: path, reason: e.reason)
        }
    }
}

// MARK: - PNG

/// PNG through cairo's writer (libpng; no timestamps or other varying chunks), so the same
/// image always gives the same bytes.
public enum PNGWriter {
    public static func encode(_ image: RGBAImage) -> [UInt8] {
        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        let box = Unmanaged.passRetained(sink)
        defer { box.release() }
        let status = image.withCairoSurface { surface -> cairo_status_t in
            cairo_surface_write_to_png_stream(surface, { closure, data, length in
                let s = Unmanaged<Sink>.fromOpaque(closure!).takeUnretainedValue()
                s.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                return CAIRO_STATUS_SUCCESS
            }, box.toOpaque())
        }
        precondition(status == CAIRO_STATUS_SUCCESS, "cairo PNG encoding failed: \(String(cString: cairo_status_to_string(status)))")
        return sink.bytes
    }

    public static func write(_ image: RGBAImage, to path: String) throws {
        try AtomicFile.write(encode(image), to: path)
    }
}

// MARK: - GIF

/// Animated GIFs through giflib 5.2 (MIT licence).
///
/// Palette: a fixed 6 x 7 x 6 colour cube (252 colours, padded to the 256 entries
/// GifMakeMapObject needs) with 8x8 ordered (Bayer) dithering, done in CRenderKernels. Chosen
/// over giflib's deprecated GifQuantizeBuffer and over libimagequant (GPL-3.0+, which would
/// force the licence of the whole program): a fixed palette is deterministic, licence-free,
/// shared by every frame (no palette flicker between frames) and ordered dithering does not
/// crawl between frames the way error diffusion does. Frames are composited over `background`
/// first (GIF has no partial transparency).
///
/// Timing: GIF delays are whole centiseconds; `delays(for:)` rounds the running total, so each
/// delay carries the previous rounding error and the delays add up to the real duration.
/// Browsers play delays of 0 or 1 cs as 10 cs, so 60 fps GIFs play slower there than in
/// viewers that honour the file; pass fps <= 50 when the GIF is meant for a browser.
public enum GIFWriter {
    /// The smallest rectangle (x0, y0, x1, y1), ends exclusive, holding every index that differs
    /// between two frames; a 1 x 1 rectangle at the origin when none does (GIF frames cannot be
    /// empty).
    static func changedRect(_ a: [UInt8], _ b: [UInt8], width w: Int, height h: Int) -> (Int, Int, Int, Int) {
        var x0 = w, y0 = h, x1 = 0, y1 = 0
        a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                for y in 0..<h {
                    let row = y * w
                    var first = -1
                    for x in 0..<w where pa[row + x] != pb[row + x] { first = x; break }
                    guard first >= 0 else { continue }
                    var last = first
                    var x = w - 1
                    while x > first { if pa[row + x] != pb[row + x] { last = x; break }; x -= 1 }
                    x0 = min(x0, first); x1 = max(x1, last + 1)
                    y0 = min(y0, y); y1 = y + 1
                }
            }
        }
        return x1 > x0 ? (x0, y0, x1, y1) : (0, 0, 1, 1)
    }

    /// Whole-centisecond delays for frame durations in seconds, carrying the rounding error.
    public static func delays(for durations: [Double]) -> [Int] {
        var out: [Int] = []
        var total = 0.0, emitted = 0
        for d in durations {
            total += max(d, 0)
            let target = Int((total * 100).rounded())
            out.append(target - emitted)
            emitted = target
        }
        return out
    }

    /// Durations spreading `duration` evenly over `count` frames (each shown duration / count).
    public static func evenDurations(count: Int, duration: Double) -> [Double] {
        count > 0 ? Array(repeating: duration / Double(count), count: count) : []
    }

    /// Writes frames that together last `duration` seconds, each shown for an equal share.
    public static func write(frames: [RGBAImage], duration: Double, to path: String,
                             background: Color = .white, loopCount: Int = 0) throws {
        try write(frames: frames, frameDurations: evenDurations(count: frames.count, duration: duration), to: path,
                  background: background, loopCount: loopCount)
    }

    /// Writes frames with explicit durations (seconds). `loopCount` 0 loops forever.
    public static func write(frames: [RGBAImage], frameDurations: [Double], to path: String,
                             background: Color = .white, loopCount: Int = 0) throws {
        guard let first = frames.first else { throw RenderOutputError.invalidArgument("a GIF needs at least one frame") }
        guard frameDurations.count == frames.count else {
            throw RenderOutputError.invalidArgument("\(frames.count) frames but \(frameDurations.count) durations")
        }
        try write(width: first.width, height: first.height, frameDurations: frameDurations, to: path,
                  background: background, loopCount: loopCount) { frames[$0] }
    }

    /// Streams frames into a GIF: `frame(k)` is asked for each frame in order and may reuse one
    /// image, so a long transition never holds all its frames in memory.
    public static func write(width w: Int, height h: Int, frameDurations: [Double], to path: String,
                             background: Color = .white, loopCount: Int = 0,
                             frame: (Int) throws -> RGBAImage) throws {
        guard !frameDurations.isEmpty else { throw RenderOutputError.invalidArgument("a GIF needs at least one frame") }
        guard w > 0, h > 0, w <= 65535, h <= 65535 else {
            throw RenderOutputError.invalidArgument("GIF frames must be 1 to 65535 pixels on a side, not \(w) x \(h)")
        }
        let delays = delays(for: frameDurations)
        func u8(_ v: Double) -> UInt8 { UInt8((min(max(v, 0), 1) * 255).rounded()) }
        let bg = (u8(background.red), u8(background.green), u8(background.blue))

        try AtomicFile.write(to: path) { tmp in
            var err: Int32 = 0
            guard let gif = EGifOpenFileName(tmp, false, &err) else {
                throw RenderOutputError.io(path: path, reason: String(cString: GifErrorString(err)))
            }
            var closed = false
            defer { if !closed { var e: Int32 = 0; EGifCloseFile(gif, &e) } }
            func check(_ r: Int32, _ what: String) throws {
                if r != GIF_OK { throw RenderOutputError.encode(path: path, reason: "\(what): \(String(cString: GifErrorString(gif.pointee.Error)))") }
            }
            var rgb = [UInt8](repeating: 0, count: Int(TH_PAL_SIZE) * 3)
            th_fixed_palette(&rgb)
            var colors = (0..<Int(TH_PAL_SIZE)).map { GifColorType(Red: rgb[$0 * 3], Green: rgb[$0 * 3 + 1], Blue: rgb[$0 * 3 + 2]) }
            guard let map = GifMakeMapObject(Int32(TH_PAL_SIZE), &colors) else {
                throw RenderOutputError.encode(path: path, reason: "GifMakeMapObject failed")
            }
            defer { GifFreeMapObject(map) }
            // GIF89a: needed for the loop and graphics-control extensions; set before the
            // screen descriptor, which writes the version.
            EGifSetGifVersion(gif, true)
            try check(EGifPutScreenDesc(gif, Int32(w), Int32(h), 8, 0, map), "screen descriptor")
            var loop: [UInt8] = [1, UInt8(loopCount & 0xff), UInt8((loopCount >> 8) & 0xff)]
            try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE), "loop extension")
            try check(EGifPutExtensionBlock(gif, 11, Array("NETSCAPE2.0".utf8)), "loop extension")
            try check(EGifPutExtensionBlock(gif, 3, &loop), "loop extension")
            try check(EGifPutExtensionTrailer(gif), "loop extension")
            var indices = [UInt8](repeating: 0, count: w * h)
            var previous = [UInt8](repeating: 0, count: w * h)
            for k in 0..<frameDurations.count {
                let frame = try frame(k)
                guard frame.width == w && frame.height == h else {
                    throw RenderOutputError.invalidArgument("GIF frames must all have one size")
                }
                var gcb = GraphicsControlBlock(DisposalMode: DISPOSE_DO_NOT, UserInputFlag: false,
                                               DelayTime: Int32(min(delays[k], 65535)), TransparentColor: NO_TRANSPARENT_COLOR)
                var ext = [UInt8](repeating: 0, count: 4)
                let len = EGifGCBToExtension(&gcb, &ext)
                try check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(len), ext), "graphics control")
                indices.withUnsafeMutableBufferPointer { o in
                    th_dither_fixed_palette(frame.data.assumingMemoryBound(to: UInt32.self), frame.stride, Int32(w), Int32(h),
                                            bg.0, bg.1, bg.2, o.baseAddress)
                }
                // Frames after the first carry only the rectangle that changed (the previous frame
                // stays: disposal "do not dispose"). The ordered dither depends on the pixel's
                // position only, so an unchanged region gives unchanged indices.
                var (x0, y0, x1, y1) = (0, 0, w, h)
                if k > 0 {
                    (x0, y0, x1, y1) = Self.changedRect(indices, previous, width: w, height: h)
                }
                try check(EGifPutImageDesc(gif, Int32(x0), Int32(y0), Int32(x1 - x0), Int32(y1 - y0), false, nil), "image descriptor")
                try indices.withUnsafeMutableBufferPointer { o in
                    for y in y0..<y1 {
                        try check(EGifPutLine(gif, o.baseAddress! + y * w + x0, Int32(x1 - x0)), "image data")
                    }
                }
                swap(&indices, &previous)
            }
            closed = true
            var e: Int32 = 0
            if EGifCloseFile(gif, &e) != GIF_OK {
                throw RenderOutputError.io(path: path, reason: String(cString: GifErrorString(e)))
            }
            // giflib creates its file with mode 0600; give it the usual 0644 like the PNGs.
            chmod(tmp, 0o644)
        }
    }
}

// MARK: - Contact sheet

/// A grid of frames, each scaled to a thumbnail and labelled with its time ("0.250 s").
public enum ContactSheet {
    public static func make(frames: [(image: RGBAImage, time: Double)], columns: Int = 4, thumbnailWidth: Int = 160,
                            background: Color = .white) -> RGBAImage {
        let cols = max(1, min(columns, max(frames.count, 1)))
        let rows = max(1, (frames.count + cols - 1) / cols)
        let aspect = frames.first.map { Double($0.image.height) / Double($0.image.width) } ?? 1
        let tw = max(thumbnailWidth, 16), th = max(Int((Double(tw) * aspect).rounded()), 1)
        let pad = 8, label = 22
        let cellW = tw + pad, cellH = th + label + pad
        let sheet = RGBAImage(width: cols * cellW + pad, height: rows * cellH + pad)
        sheet.fill(background)
        sheet.withCairo { cr in
            for (k, f) in frames.enumerated() {
                let x = Double(pad + (k % cols) * cellW), y = Double(pad + (k / cols) * cellH)
                f.image.withCairoSurface { surface in
                    cairo_save(cr)
                    cairo_translate(cr, x, y)
                    cairo_rectangle(cr, 0, 0, Double(tw), Double(th))
                    cairo_clip(cr)
                    cairo_scale(cr, Double(tw) / Double(f.image.width), Double(th) / Double(f.image.height))
                    cairo_set_source_surface(cr, surface, 0, 0)
                    cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_GOOD)
                    cairo_paint(cr)
                    cairo_restore(cr)
                }
                cairo_set_source_rgb(cr, 0.6, 0.6, 0.6)
                cairo_set_line_width(cr, 1)
                cairo_rectangle(cr, x - 0.5, y - 0.5, Double(tw) + 1, Double(th) + 1)
                cairo_stroke(cr)
                let text = timeLabel(f.time)
                ContentRasterizer.selectFont(cr, size: 13)
                var te = cairo_text_extents_t()
                cairo_text_extents(cr, text, &te)
                cairo_set_source_rgb(cr, 0.1, 0.1, 0.1)
                cairo_move_to(cr, x + (Double(tw) - te.x_advance) / 2, y + Double(th) + 16)
                cairo_show_text(cr, text)
            }
        }
        return sheet
    }

    /// "0.250 s": milliseconds precision, fixed format.
    public static func timeLabel(_ t: Double) -> String {
        let ms = Int((t * 1000).rounded())
        let sign = ms < 0 ? "-" : ""
        let a = abs(ms)
        let frac = String(a % 1000)
        return "\(sign)\(a / 1000).\(String(repeating: "0", count: 3 - frac.count))\(frac) s"
    }

    public static func write(frames: [(image: RGBAImage, time: Double)], columns: Int = 4, thumbnailWidth: Int = 160,
                             to path: String) throws {
        try PNGWriter.write(make(frames: frames, columns: columns, thumbnailWidth: thumbnailWidth), to: path)
    }
}
