#if canImport(Glibc)
import Glibc
#endif
import CRenderKernels
import TransHostCore

/// Animated GIFs, written by our own code: the container (GIF89a, the loop extension, a
/// graphics-control block and an image descriptor per frame) and the LZW coding
/// (CRenderKernels' th_gif_lzw_encode, which codes exactly as giflib 5.2's encoder does, so the
/// files are the ones giflib would write, in a fraction of the time).
///
/// Palette: every frame gets its own, built from the pixels it changes (CRenderKernels'
/// th_gifq_encode, our own code; libimagequant is GPL-3.0+ and giflib's GifQuantizeBuffer is
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
    /// (quantise), and LZW coding and output (encode).
    public final class StageTimes {
        public var quantiseNanoseconds: UInt64 = 0
        public var encodeNanoseconds: UInt64 = 0
        public init() {}
    }

    /// Streams frames into a GIF: `frame(k)` is asked for each frame in order and may reuse one
    /// image, so a long transition never holds all its frames in memory. `times`, when given,
    /// is credited with the quantise and encode stages. `repeats(k)`, when given, says frame k
    /// (k > 0) shows exactly frame k - 1's pixels, which spares comparing them (the file is the
    /// same either way). `changed(k)`, asked just after `frame(k)`, may give a rectangle outside
    /// which frame k's pixels are frame k - 1's (what a renderer drew again in between,
    /// Renderer.lastDamage; unused for the first frame): only it is compared. The file is the
    /// same either way. `pipelined`: while a core is free, a frame is encoded on a second
    /// thread as the next one is drawn (GIFEncodeThread); `frame`'s image may then be drawn
    /// into again as soon as `frame` is next called. The file is the same either way.
    public static func write(width w: Int, height h: Int, frameDurations: [Double], to path: String,
                             background: Color = .white, loopCount: Int = 0, times: StageTimes? = nil,
                             repeats: ((Int) -> Bool)? = nil, changed: ((Int) -> PixelRect)? = nil, pipelined: Bool = true,
                             frame: (Int) throws -> RGBAImage) throws {
        try write(width: w, height: h, frameDurations: frameDurations, to: path, background: background, loopCount: loopCount,
                  times: times, repeats: repeats, changed: changed, handsOver: { _ in pipelined && GIFEncodeThread.coreIsFree },
                  frame: frame)
    }

    /// As above; `handsOver(k)` says whether frame k (not a repeat) goes to the second thread.
    static func write(width w: Int, height h: Int, frameDurations: [Double], to path: String,
                      background: Color, loopCount: Int, times: StageTimes?, repeats: ((Int) -> Bool)?, changed: ((Int) -> PixelRect)?,
                      handsOver: (Int) -> Bool, frame: (Int) throws -> RGBAImage) throws {
        guard !frameDurations.isEmpty else { throw RenderOutputError.invalidArgument("a GIF needs at least one frame") }
        guard w > 0, h > 0, w <= 65535, h <= 65535 else {
            throw RenderOutputError.invalidArgument("GIF frames must be 1 to 65535 pixels on a side, not \(w) x \(h)")
        }
        let delays = delays(for: frameDurations)
        func u8(_ v: Double) -> UInt8 { UInt8((min(max(v, 0), 1) * 255).rounded()) }
        let bg = (u8(background.red), u8(background.green), u8(background.blue))
        guard let (quantizer, coder) = GIFCoders.shared.take() else {
            throw RenderOutputError.encode(path: path, reason: "out of memory for the palette and code tables")
        }
        defer { GIFCoders.shared.give(quantizer, coder) }

        try AtomicFile.write(to: path) { tmp in
            guard let file = fopen(tmp, "wb") else { throw RenderOutputError.io(path: path, reason: String(cString: strerror(errno))) }
            var closed = false
            defer { if !closed { fclose(file) } }
            func put(_ bytes: UnsafeRawBufferPointer) throws {
                guard bytes.count == 0 || fwrite(bytes.baseAddress, 1, bytes.count, file) == bytes.count else {
                    throw RenderOutputError.io(path: path, reason: String(cString: strerror(errno)))
                }
            }
            func put(_ bytes: [UInt8]) throws { try bytes.withUnsafeBytes { try put($0) } }
            func word(_ v: Int) -> [UInt8] { [UInt8(v & 0xff), UInt8((v >> 8) & 0xff)] }
            // What the GIF shows so far (packed RGB): th_gifq_encode compares each frame with it
            // and writes in only the pixels that changed.
            // None needs clearing: the first frame writes every pixel of `shown`, and each
            // frame's indices and codes are written before they are read.
            let shownMemory = ScratchMemory(bytes: w * h * 4, zeroed: false), indexMemory = ScratchMemory(bytes: w * h, zeroed: false)
            let codedMemory = ScratchMemory(bytes: th_gif_lzw_bound(w * h), zeroed: false)
            // Held to the end: the pointers below are all that is used of them.
            defer { withExtendedLifetime((shownMemory, indexMemory, codedMemory)) {} }
            let shown = shownMemory.pointer.assumingMemoryBound(to: UInt32.self)
            let indices = indexMemory.pointer.assumingMemoryBound(to: UInt8.self)
            let coded = codedMemory.pointer.assumingMemoryBound(to: UInt8.self)
            var palette = [UInt8](repeating: 0, count: 256 * 3)
            /// Frame k, read from `image` only inside `hint` (all of it for nil; not at all when
            /// it repeats the frame before).
            func encode(_ k: Int, _ image: RGBAImage, repeated: Bool, hint: [Int32]?) throws {
                let t0 = times == nil ? 0 : StageClock.nanoseconds()
                var rect: [Int32] = [0, 0, 1, 1]
                let result = repeated
                    ? th_gifq_frame(quantizer, shown, shown, Int32(w), Int32(h), 0, 0, 1, 1, &palette, indices)
                    : th_gifq_encode(quantizer, image.data.assumingMemoryBound(to: UInt32.self), image.stride, Int32(w), Int32(h),
                                     bg.0, bg.1, bg.2, shown, k == 0 ? 1 : 0, hint, &rect, &palette, indices)
                guard result.colors > 0 else {
                    throw RenderOutputError.encode(path: path, reason: "out of memory for the changed pixels of frame \(k)")
                }
                let t1 = times == nil ? 0 : StageClock.nanoseconds()
                times?.quantiseNanoseconds += t1 - t0
                let (bits, table) = colorTable(palette, count: Int(result.colors))
                if k == 0 {
                    // GIF89a (for the loop and graphics-control extensions), the logical screen
                    // with the first frame's palette as the global one, and the loop extension.
                    try put(Array("GIF89a".utf8) + word(w) + word(h) + [0x80 | UInt8((bits - 1) << 4) | UInt8(bits - 1), 0, 0] + table)
                    try put([0x21, 0xff, 11] + Array("NETSCAPE2.0".utf8) + [3, 1] + word(loopCount) + [0])
                }
                // Graphics control: "do not dispose", the delay, the transparent index if any.
                let transparent = result.transparent >= 0
                try put([0x21, 0xf9, 4, (transparent ? 1 : 0) | (1 << 2)] + word(min(delays[k], 65535))
                        + [transparent ? UInt8(result.transparent) : 0xff, 0])
                let rw = Int(rect[2] - rect[0]), rh = Int(rect[3] - rect[1])
                try put([0x2c] + word(Int(rect[0])) + word(Int(rect[1])) + word(rw) + word(rh)
                        + (k == 0 ? [0] : [0x80 | UInt8(bits - 1)] + table))
                let n = th_gif_lzw_encode(coder, indices, rw * rh, Int32(bits), coded)
                try put(UnsafeRawBufferPointer(start: coded, count: n))
                times?.encodeNanoseconds += (times == nil ? 0 : StageClock.nanoseconds()) - t1
            }
            // Stopped (after the frame it holds) before the file is closed, on every path out.
            let encoder = GIFEncodeThread(width: w, height: h)
            defer { encoder.stop() }
            for k in 0..<frameDurations.count {
                let image = try frame(k)
                guard image.width == w && image.height == h else {
                    throw RenderOutputError.invalidArgument("GIF frames must all have one size")
                }
                // A repeated frame is its predecessor again: what th_gifq_encode would find for
                // two equal frames (nothing changed; a 1 x 1 rectangle at the origin).
                let repeated = k > 0 && repeats?(k) == true
                var hint: [Int32]? = nil
                if let r = changed?(k), k > 0 { hint = [Int32(r.x0), Int32(r.y0), Int32(r.x1), Int32(r.y1)] }
                try encoder.waitIdle()
                if !repeated && handsOver(k) {
                    // Only what the encoder will read is copied.
                    var read: [Int32] = [0, 0, 0, 0]
                    th_gifq_read_extent(hint, k == 0 ? 1 : 0, Int32(w), Int32(h), &read)
                    let rect = PixelRect(x0: Int(read[0]), y0: Int(read[1]), x1: Int(read[2]), y1: Int(read[3]))
                    if encoder.handOver(image, rect: rect, { try encode(k, $0, repeated: false, hint: hint) }) { continue }
                }
                try encode(k, image, repeated: repeated, hint: hint)
            }
            try encoder.finish()
            try put([0x3b])
            closed = true
            guard fclose(file) == 0 else { throw RenderOutputError.io(path: path, reason: String(cString: strerror(errno))) }
            chmod(tmp, 0o644)
        }
    }

    /// A colour table of the next power of two entries (at least 2) holding the first `count`
    /// colours, and its size in bits; the padding repeats black, which no index points at.
    private static func colorTable(_ rgb: [UInt8], count: Int) -> (bits: Int, table: [UInt8]) {
        var size = 2, bits = 1
        while size < count { size *= 2; bits += 1 }
        var table = [UInt8](repeating: 0, count: size * 3)
        for i in 0..<min(count, size) * 3 { table[i] = rgb[i] }
        return (bits, table)
    }
}

/// The palette and code tables of GIFs written one after another, kept for the next GIF: a
/// quantizer's few megabytes of tables were otherwise faulted in afresh for every transition.
/// A quantizer taken again is reset to a new one's state (th_gifq_reset); the LZW coder resets
/// its own tables at the start of every frame. Thread-safe (one pair per GIF being written).
final class GIFCoders: @unchecked Sendable {
    static let shared = GIFCoders()
    private let lock = RenderLock()
    private var idle: [(OpaquePointer, OpaquePointer)] = []

    func take() -> (OpaquePointer, OpaquePointer)? {
        if let pair = lock.locked({ idle.popLast() }) {
            th_gifq_reset(pair.0)
            return pair
        }
        guard let q = th_gifq_create() else { return nil }
        guard let z = th_gif_lzw_create() else { th_gifq_destroy(q); return nil }
        return (q, z)
    }

    /// The pairs kept now (for tests).
    var idleCount: Int { lock.locked { idle.count } }

    /// Frees every pair kept.
    func releaseIdle() {
        for (q, z) in lock.locked({ () -> [(OpaquePointer, OpaquePointer)] in defer { idle = [] }; return idle }) {
            th_gifq_destroy(q)
            th_gif_lzw_destroy(z)
        }
    }

    /// At most one pair a core is kept; others are freed.
    func give(_ quantizer: OpaquePointer, _ coder: OpaquePointer) {
        let kept = lock.locked { () -> Bool in
            guard idle.count < Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) else { return false }
            idle.append((quantizer, coder))
            return true
        }
        if !kept { th_gifq_destroy(quantizer); th_gif_lzw_destroy(coder) }
    }
}

