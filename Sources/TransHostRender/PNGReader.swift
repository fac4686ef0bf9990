import CCairo
import TransHostSupport

/// Reads PNG files back into RGBAImages through cairo's reader (libpng), so goldens written by
/// PNGWriter can be compared pixel for pixel. A file that is missing, truncated or fails
/// libpng's checks (CRC, zlib) is an error naming the file, never a crash or a blank image.
public enum PNGReader {
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public let path: String
        public let reason: String
        public var description: String { "\(path) is not a readable PNG: \(reason); record it again or restore it from version control" }
    }

    public static func read(_ path: String) throws -> RGBAImage {
        let bytes: [UInt8]
        do { bytes = try FileIO.readAll(path) } catch let e as FileIO.Failure { throw Failure(path: path, reason: e.reason) }
        return try decode(bytes, path: path)
    }

    /// Decodes PNG bytes; `path` only names them in errors.
    public static func decode(_ bytes: [UInt8], path: String) throws -> RGBAImage {
        guard bytes.count >= 8, bytes.prefix(8).elementsEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) else {
            throw Failure(path: path, reason: "no PNG signature")
        }
        try checkChunks(bytes, path: path)
        final class Source { let bytes: [UInt8]; var offset = 0; init(_ b: [UInt8]) { bytes = b } }
        let source = Source(bytes)
        let box = Unmanaged.passRetained(source)
        defer { box.release() }
        let surface = cairo_image_surface_create_from_png_stream({ closure, data, length in
            let s = Unmanaged<Source>.fromOpaque(closure!).takeUnretainedValue()
            let n = Int(length)
            guard s.offset + n <= s.bytes.count, let data else { return CAIRO_STATUS_READ_ERROR }
            s.bytes.withUnsafeBufferPointer { b in data.update(from: b.baseAddress! + s.offset, count: n) }
            s.offset += n
            return CAIRO_STATUS_SUCCESS
        }, box.toOpaque())!
        defer { cairo_surface_destroy(surface) }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            // cairo reports libpng's complaints about the image data as a read error or as
            // "out of memory"; neither tells a user more than this.
            let reason = status == CAIRO_STATUS_READ_ERROR || status == CAIRO_STATUS_NO_MEMORY
                ? "its image data cannot be decoded" : String(cString: cairo_status_to_string(status))
            throw Failure(path: path, reason: reason)
        }
        cairo_surface_flush(surface)
        let w = Int(cairo_image_surface_get_width(surface)), h = Int(cairo_image_surface_get_height(surface))
        guard w > 0, h > 0, w <= 32767, h <= 32767 else { throw Failure(path: path, reason: "size \(w) x \(h) out of range") }
        let format = cairo_image_surface_get_format(surface)
        guard format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24 else {
            throw Failure(path: path, reason: "unsupported pixel format")
        }
        let image = RGBAImage(width: w, height: h)
        let stride = Int(cairo_image_surface_get_stride(surface))
        let src = UnsafeRawPointer(cairo_image_surface_get_data(surface)!)
        for y in 0..<h {
            let from = (src + y * stride).assumingMemoryBound(to: UInt32.self)
            let to = (image.data + y * image.stride).assumingMemoryBound(to: UInt32.self)
            if format == CAIRO_FORMAT_RGB24 {
                // RGB24 leaves the top byte undefined: these pixels are opaque.
                for x in 0..<w { to[x] = from[x] | 0xff00_0000 }
            } else {
                to.update(from: from, count: w)
            }
        }
        return image
    }

    /// Walks the chunks after the signature and checks each one's CRC, so a damaged file is
    /// named precisely ("chunk IDAT at byte 33 fails its CRC check") before libpng sees it.
    static func checkChunks(_ bytes: [UInt8], path: String) throws {
        var at = 8
        func u32(_ i: Int) -> Int { Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]) }
        while true {
            guard at + 8 <= bytes.count else { throw Failure(path: path, reason: "it ends at byte \(bytes.count) without an IEND chunk (truncated)") }
            let length = u32(at)
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            guard length <= bytes.count - at - 12 else {
                throw Failure(path: path, reason: "chunk \(type) at byte \(at) runs past the end of the file (truncated)")
            }
            let crc = UInt32(truncatingIfNeeded: u32(at + 8 + length))
            guard CRC32.checksum(bytes[(at + 4)..<(at + 8 + length)]) == crc else {
                throw Failure(path: path, reason: "chunk \(type) at byte \(at) fails its CRC check (the file is damaged)")
            }
            at += 12 + length
            if type == "IEND" { return }
        }
    }
}

/// The CRC-32 of PNG chunks and zlib (polynomial 0xEDB88320, reflected).
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        bytes.withUnsafeBufferPointer { b in
            table.withUnsafeBufferPointer { t in
                for byte in b { c = t[Int((c ^ UInt32(byte)) & 0xff)] ^ (c >> 8) }
            }
        }
        return c ^ 0xFFFF_FFFF
    }
}
