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
