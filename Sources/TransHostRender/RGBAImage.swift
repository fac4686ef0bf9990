#if canImport(Glibc)
import Glibc
#endif
import CCairo
import CPixman
import CRenderKernels
import TransHostCore

/// One straight-alpha pixel.
public struct RGBA8: Equatable, Hashable, Sendable, CustomStringConvertible {
    public var r, g, b, a: UInt8
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) { self.r = r; self.g = g; self.b = b; self.a = a }
    public var description: String { "rgba(\(r), \(g), \(b), \(a))" }
}

/// A raster image: premultiplied ARGB32 in native byte order (cairo's and pixman's common
/// format), owned by this object and visible to both libraries without copies. Accessors give
/// straight RGBA.
public final class RGBAImage {
    public let width: Int
    public let height: Int
    /// Bytes per row.
    public let stride: Int
    let data: UnsafeMutableRawPointer
    /// The pixman image over `data` (never nil for a live image).
    let pixman: OpaquePointer

    /// A transparent image (all bytes zero).
    public convenience init(width: Int, height: Int) {
        self.init(width: width, height: height, zeroed: true)
    }

    /// An image whose bytes are zero, or (`zeroed` false, for a caller that writes every one
    /// of them before any is read) whatever its memory held.
    init(width: Int, height: Int, zeroed: Bool) {
        precondition(width > 0 && height > 0 && width <= 32767 && height <= 32767, "image size \(width)x\(height) out of range")
        self.width = width
        self.height = height
        stride = Int(cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, Int32(width)))
        let bytes = stride * height
        // Frame-sized rasters come and go every frame (groups, stretched snapshots). Mapped
        // directly (through RasterMemory, which reuses recently freed mappings), their pages
        // go back to the system; through malloc, whose mmap threshold grows after the first
        // such free, they stay in the heap and fragment it, so memory grew with every
        // transition rendered.
        if bytes >= Self.mappedBytes, let m = RasterMemory.shared.take(bytes: bytes, zeroed: zeroed) {
            data = m.pointer
            mappedCapacity = m.capacity
        } else {
            data = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
            if zeroed { data.initializeMemory(as: UInt8.self, repeating: 0, count: bytes) }
            mappedCapacity = 0
        }
        pixman = pixman_image_create_bits_no_clear(PIXMAN_a8r8g8b8, Int32(width), Int32(height),
                                                   data.assumingMemoryBound(to: UInt32.self), Int32(stride))!
        owner = nil
    }

    /// A window onto the pixels of `parent` from (x, y), width x height, without a copy: the
    /// same bytes as a crop, read through the parent's stride. Only for rasters that are no
    /// longer drawn into (finished groups): drawing into either would show in both.
    init(window parent: RGBAImage, x: Int, y: Int, width: Int, height: Int) {
        precondition(x >= 0 && y >= 0 && width > 0 && height > 0 && x + width <= parent.width && y + height <= parent.height,
                     "window \(x),\(y) \(width)x\(height) outside \(parent.width)x\(parent.height)")
        self.width = width
        self.height = height
        stride = parent.stride
        data = parent.data + y * parent.stride + x * 4
        mappedCapacity = 0
        owner = parent
        pixman = pixman_image_create_bits_no_clear(PIXMAN_a8r8g8b8, Int32(width), Int32(height),
                                                   data.assumingMemoryBound(to: UInt32.self), Int32(stride))!
    }

    /// The image whose pixels a window shows (kept alive by it); nil for an image of its own.
    private let owner: RGBAImage?

    /// The size of `data`'s mapping when it came from RasterMemory (see init); 0 when allocated.
    private let mappedCapacity: Int
    static let mappedBytes = 256 << 10

    deinit {
        pixman_image_unref(pixman)
        if owner != nil { return }
        if mappedCapacity > 0 { RasterMemory.shared.give(data, capacity: mappedCapacity) } else { data.deallocate() }
    }

    /// The premultiplied ARGB32 word at (x, y).
    public func premultipliedPixel(x: Int, y: Int) -> UInt32 {
        precondition(x >= 0 && y >= 0 && x < width && y < height, "pixel (\(x), \(y)) outside \(width)x\(height)")
        return data.load(fromByteOffset: y * stride + x * 4, as: UInt32.self)
    }

    /// The straight-alpha colour at (x, y).
    public func pixel(x: Int, y: Int) -> RGBA8 {
        let p = premultipliedPixel(x: x, y: y)
        var out = [UInt8](repeating: 0, count: 4)
        var word = p
        out.withUnsafeMutableBufferPointer { o in
            th_unpremultiply_to_rgba(&word, 4, 1, 1, o.baseAddress)
        }
        return RGBA8(r: out[0], g: out[1], b: out[2], a: out[3])
    }

    /// All pixels as straight RGBA bytes, row by row.
    public func rgbaBytes() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        out.withUnsafeMutableBufferPointer { o in
            th_unpremultiply_to_rgba(data.assumingMemoryBound(to: UInt32.self), stride, Int32(width), Int32(height), o.baseAddress)
        }
        return out
    }

    /// Sets every pixel to `color`.
    public func fill(_ color: Color) {
        var c = pixmanColor(color)
        let solid = pixman_image_create_solid_fill(&c)!
        pixman_image_composite32(PIXMAN_OP_SRC, solid, nil, pixman, 0, 0, 0, 0, 0, 0, Int32(width), Int32(height))
        pixman_image_unref(solid)
    }

    /// An independent copy.
    public func copy() -> RGBAImage {
        // Every byte is written below (a row's padding past `width` too, in a window's copy),
        // so the new image's memory is not cleared first.
        let c = RGBAImage(width: width, height: height, zeroed: false)
        if c.stride == stride {
            c.data.copyMemory(from: data, byteCount: stride * height)
        } else { // a window: its rows lie in a wider image
            for y in 0..<height {
                (c.data + y * c.stride).copyMemory(from: data + y * stride, byteCount: width * 4)
                (c.data + y * c.stride + width * 4).initializeMemory(as: UInt8.self, repeating: 0, count: c.stride - width * 4)
            }
        }
        return c
    }

    /// Sets the pixels of `r` (inside the image) to zero, or (`outside`) every other pixel.
    func zero(_ r: PixelRect, outside: Bool = false) {
        func rows(_ y0: Int, _ y1: Int, _ x0: Int, _ x1: Int) {
            guard x1 > x0 else { return }
            for y in y0..<y1 { (data + y * stride + x0 * 4).initializeMemory(as: UInt8.self, repeating: 0, count: (x1 - x0) * 4) }
        }
        guard outside else { return rows(r.y0, r.y1, r.x0, r.x1) }
        rows(0, r.y0, 0, width)
        rows(r.y0, r.y1, 0, r.x0)
        rows(r.y0, r.y1, r.x1, width)
        rows(r.y1, height, 0, width)
    }

    /// The pixels of `source` times the alpha of `mask` (both the same size) in `r`, over this
    /// image's: the bytes of copying them and compositing `mask` IN_REVERSE onto them, in one pass.
    func multiply(_ source: RGBAImage, byAlphaOf mask: RGBAImage, in r: PixelRect) {
        precondition(source.width == width && source.height == height && mask.width == width && mask.height == height,
                     "multiply between images of different sizes")
        guard !r.isEmpty else { return }
        func at(_ img: RGBAImage) -> UnsafeMutablePointer<UInt32> {
            (img.data + r.y0 * img.stride + r.x0 * 4).assumingMemoryBound(to: UInt32.self)
        }
        th_multiply_by_mask_alpha(at(source), source.stride, at(mask), mask.stride, at(self), stride, Int32(r.width), Int32(r.height))
    }

    /// Runs `body` with a cairo context drawing into this image, then flushes.
    func withCairo<T>(_ body: (OpaquePointer) throws -> T) rethrows -> T {
        let surface = cairo_image_surface_create_for_data(data.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                          Int32(width), Int32(height), Int32(stride))!
        let cr = cairo_create(surface)!
        defer {
            cairo_destroy(cr)
            cairo_surface_flush(surface)
            cairo_surface_destroy(surface)
        }
        return try body(cr)
    }

    /// Runs `body` with a cairo image surface over this image's pixels (no copy).
    func withCairoSurface<T>(_ body: (OpaquePointer) throws -> T) rethrows -> T {
        let surface = cairo_image_surface_create_for_data(data.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32,
                                                          Int32(width), Int32(height), Int32(stride))!
        defer { cairo_surface_destroy(surface) }
        return try body(surface)
    }
}

/// pixman's 16-bit premultiplied colour for a straight-alpha colour.
func pixmanColor(_ c: Color) -> pixman_color_t {
    func ch(_ v: Double) -> UInt16 { UInt16((min(max(v, 0), 1) * 65535).rounded()) }
    let a = min(max(c.alpha, 0), 1)
    return pixman_color_t(red: ch(c.red * a), green: ch(c.green * a), blue: ch(c.blue * a), alpha: ch(a))
}
