#if canImport(Glibc)
import Glibc
#endif
import CGif
import CRenderKernels
import TransHostCore

/// Animated GIFs through giflib 5.2 (MIT licence).
///
/// Palette: every frame gets its own, built from the pixels it changes (CRenderKernels'
/// th_gifq_frame, our own code; libimagequant is GPL-3.0+ and giflib's GifQuantizeBuffer is
/// deprecated). When those colours fit in 256 they are all kept exactly, so a flat UI colour
/// such as iOS's grey (239, 239, 244) comes out as itself. When they do not, the colours that
/// cover the most pixels keep exact entries, median cut shares out the rest, and only pixels in
/// a smooth gradient are dithered (8x8 ordered, which depends on the position only, so it does
/// not crawl between frames); flat areas and hard edges take the nearest colour undithered.
///
/// Frames after the first carry only the rectangle that changed, and inside it the pixels that
/// did not change are transparent (disposal "do not dispose"), so the decoder keeps exactly
/// what the previous frame showed there. Frames are composited over `background` first (GIF has
/// no partial transparency).
///
/// Timing: GIF delays are whole centiseconds; `delays(for:)` rounds the running total, so each
/// delay carries the previous rounding error and the delays add up to the real duration.
/// Browsers play delays of 0 or 1 cs as 10 cs, so 60 fps GIFs play slower there than in
/// viewers that honour the file; pass fps <= 50 when the GIF is meant for a browser.
public enum GIFWriter {
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

    /// Where a GIF's time went, for benchmarks: flattening, change detection and palettes
    /// (quantise), and giflib's LZW coding and output (encode).
    public final class StageTimes {
        public var quantiseNanoseconds: UInt64 = 0
        public var encodeNanoseconds: UInt64 = 0
        public init() {}
    }

    /// Streams frames into a GIF: `frame(k)` is asked for each frame in order and may reuse one
    /// image, so a long transition never holds all its frames in memory. `times`, when given,
    /// is credited with the quantise and encode stages.
    public static func write(width w: Int, height h: Int, frameDurations: [Double], to path: String,
                             background: Color = .white, loopCount: Int = 0, times: StageTimes? = nil,
                             frame: (Int) throws -> RGBAImage) throws {
        guard !frameDurations.isEmpty else { throw RenderOutputError.invalidArgument("a GIF needs at least one frame") }
        guard w > 0, h > 0, w <= 65535, h <= 65535 else {
            throw RenderOutputError.invalidArgument("GIF frames must be 1 to 65535 pixels on a side, not \(w) x \(h)")
        }
        let delays = delays(for: frameDurations)
        func u8(_ v: Double) -> UInt8 { UInt8((min(max(v, 0), 1) * 255).rounded()) }
        let bg = (u8(background.red), u8(background.green), u8(background.blue))
        guard let quantizer = th_gifq_create() else { throw RenderOutputError.encode(path: path, reason: "out of memory for the palette tables") }
        defer { th_gifq_destroy(quantizer) }

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
            var current = [UInt32](repeating: 0, count: w * h)
            var previous = [UInt32](repeating: 0, count: w * h)
            var indices = [UInt8](repeating: 0, count: w * h)
            var palette = [UInt8](repeating: 0, count: 256 * 3)
            for k in 0..<frameDurations.count {
                let image = try frame(k)
                guard image.width == w && image.height == h else {
                    throw RenderOutputError.invalidArgument("GIF frames must all have one size")
                }
                let t0 = times == nil ? 0 : StageClock.nanoseconds()
                current.withUnsafeMutableBufferPointer { c in
                    th_flatten_rgb(image.data.assumingMemoryBound(to: UInt32.self), image.stride, Int32(w), Int32(h),
                                   bg.0, bg.1, bg.2, c.baseAddress)
                }
                var rect: [Int32] = [0, 0, Int32(w), Int32(h)]
                if k > 0 { th_changed_rect(current, previous, Int32(w), Int32(h), &rect) }
                let result = current.withUnsafeBufferPointer { c in
                    previous.withUnsafeBufferPointer { p in
                        th_gifq_frame(quantizer, c.baseAddress, k > 0 ? p.baseAddress : nil, Int32(w), Int32(h),
                                      rect[0], rect[1], rect[2], rect[3], &palette, &indices)
                    }
                }
                let t1 = times == nil ? 0 : StageClock.nanoseconds()
                times?.quantiseNanoseconds += t1 - t0
                defer { times?.encodeNanoseconds += (times == nil ? 0 : StageClock.nanoseconds()) - t1 }
                let map = try colorMap(palette, count: Int(result.colors), path: path)
                defer { GifFreeMapObject(map) }
                if k == 0 {
                    // GIF89a: needed for the loop and graphics-control extensions; set before the
                    // screen descriptor, which writes the version. The first frame's palette is
                    // the global one.
                    EGifSetGifVersion(gif, true)
                    try check(EGifPutScreenDesc(gif, Int32(w), Int32(h), Int32(map.pointee.BitsPerPixel), 0, map), "screen descriptor")
                    var loop: [UInt8] = [1, UInt8(loopCount & 0xff), UInt8((loopCount >> 8) & 0xff)]
                    try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE), "loop extension")
                    try check(EGifPutExtensionBlock(gif, 11, Array("NETSCAPE2.0".utf8)), "loop extension")
                    try check(EGifPutExtensionBlock(gif, 3, &loop), "loop extension")
                    try check(EGifPutExtensionTrailer(gif), "loop extension")
                }
                var gcb = GraphicsControlBlock(DisposalMode: DISPOSE_DO_NOT, UserInputFlag: false,
                                               DelayTime: Int32(min(delays[k], 65535)),
                                               TransparentColor: result.transparent >= 0 ? result.transparent : NO_TRANSPARENT_COLOR)
                var ext = [UInt8](repeating: 0, count: 4)
                let len = EGifGCBToExtension(&gcb, &ext)
                try check(EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(len), ext), "graphics control")
                let rw = Int(rect[2] - rect[0]), rh = Int(rect[3] - rect[1])
                try check(EGifPutImageDesc(gif, rect[0], rect[1], Int32(rw), Int32(rh), false, k == 0 ? nil : map), "image descriptor")
                try indices.withUnsafeMutableBufferPointer { o in
                    for y in 0..<rh {
                        try check(EGifPutLine(gif, o.baseAddress! + y * rw, Int32(rw)), "image data")
                    }
                }
                swap(&current, &previous)
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

    /// A giflib colour map of the next power of two (at least 2) holding the first `count`
    /// entries; the padding repeats black, which no index points at.
    private static func colorMap(_ rgb: [UInt8], count: Int, path: String) throws -> UnsafeMutablePointer<ColorMapObject> {
        var size = 2
        while size < count { size *= 2 }
        var colors = (0..<size).map { i in
            i < count ? GifColorType(Red: rgb[i * 3], Green: rgb[i * 3 + 1], Blue: rgb[i * 3 + 2]) : GifColorType(Red: 0, Green: 0, Blue: 0)
        }
        guard let map = GifMakeMapObject(Int32(size), &colors) else {
            throw RenderOutputError.encode(path: path, reason: "GifMakeMapObject failed")
        }
        return map
    }
}
