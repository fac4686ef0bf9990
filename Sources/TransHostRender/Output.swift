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
    /// The PNG cairo writes for `image`. An opaque image (every sheet, most frames) is encoded
    /// by CRenderKernels' th_png_encode_opaque, which writes cairo's and libpng's bytes with a
    /// fraction of the work: libpng tries its five row filters one after another, ours sums all
    /// five in one pass over the row and writes only the winner (the choice and the bytes are
    /// the same).
    public static func encode(_ image: RGBAImage) -> [UInt8] {
        let words = image.data.assumingMemoryBound(to: UInt32.self)
        if th_png_is_opaque(words, image.stride, Int32(image.width), Int32(image.height)) != 0 {
            // Left uninitialised: the bound is the size of the raw pixels, the file a few percent
            // of it, and only the pages the encoder writes are ever touched (zeroing them all
            // cost more page faults than the encoding's own memory).
            let out = [UInt8](unsafeUninitializedCapacity: th_png_opaque_bound(Int32(image.width), Int32(image.height))) { buffer, count in
                count = th_png_encode_opaque(words, image.stride, Int32(image.width), Int32(image.height), buffer.baseAddress)
            }
            if !out.isEmpty { return out }
        }
        return cairoEncode(image)
    }

    static func cairoEncode(_ image: RGBAImage) -> [UInt8] {
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
