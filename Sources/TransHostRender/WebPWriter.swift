import CRenderKernels
import CWebP
import TransHostCore

/// Lossless animated WebP through libwebp's WebPAnimEncoder (BSD-3-Clause): every frame keeps
/// every colour exactly (no palette, no dithering), usually in a smaller file than the GIF.
/// Frames are composited over `background` first, as for the GIF, so both show the same
/// pictures. Timestamps are whole milliseconds with the rounding carried, so the durations add
/// up to the real time. Single-threaded encoding at a fixed effort: the same frames give the
/// same bytes.
public enum WebPWriter {
    /// Streams frames into an animated WebP: `frame(k)` is asked for each frame in order and
    /// may reuse one image. `loopCount` 0 loops forever.
    public static func write(width w: Int, height h: Int, frameDurations: [Double], to path: String,
                             background: Color = .white, loopCount: Int = 0,
                             frame: (Int) throws -> RGBAImage) throws {
        guard !frameDurations.isEmpty else { throw RenderOutputError.invalidArgument("a WebP needs at least one frame") }
        guard w > 0, h > 0, w <= 16383, h <= 16383 else {
            throw RenderOutputError.invalidArgument("WebP frames must be 1 to 16383 pixels on a side, not \(w) x \(h)")
        }
        func u8(_ v: Double) -> UInt8 { UInt8((min(max(v, 0), 1) * 255).rounded()) }
        let bg = (u8(background.red), u8(background.green), u8(background.blue))
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInitInternal(&options, WEBP_MUX_ABI_VERSION) != 0 else {
            throw RenderOutputError.encode(path: path, reason: "libwebp's mux library does not match its headers")
        }
        options.anim_params.loop_count = Int32(loopCount)
        options.anim_params.bgcolor = 0xffff_ffff
        options.allow_mixed = 0
        guard let encoder = WebPAnimEncoderNewInternal(Int32(w), Int32(h), &options, WEBP_MUX_ABI_VERSION) else {
            throw RenderOutputError.encode(path: path, reason: "WebPAnimEncoderNew failed (out of memory?)")
        }
        defer { WebPAnimEncoderDelete(encoder) }
        var config = WebPConfig()
        guard WebPConfigInitInternal(&config, WEBP_PRESET_DEFAULT, 75, WEBP_ENCODER_ABI_VERSION) != 0 else {
            throw RenderOutputError.encode(path: path, reason: "libwebp does not match its headers")
        }
        config.lossless = 1
        config.method = 1
        config.quality = 25
        config.thread_level = 0
        var picture = WebPPicture()
        guard WebPPictureInitInternal(&picture, WEBP_ENCODER_ABI_VERSION) != 0 else {
            throw RenderOutputError.encode(path: path, reason: "libwebp does not match its headers")
        }
        picture.use_argb = 1
        picture.width = Int32(w)
        picture.height = Int32(h)
        guard WebPPictureAlloc(&picture) != 0 else { throw RenderOutputError.encode(path: path, reason: "out of memory for a \(w) x \(h) frame") }
        defer { WebPPictureFree(&picture) }
        var elapsed = 0.0
        var timestamp = 0
        for k in 0..<frameDurations.count {
            let image = try frame(k)
            guard image.width == w && image.height == h else {
                throw RenderOutputError.invalidArgument("WebP frames must all have one size")
            }
            th_flatten_rgb(image.data.assumingMemoryBound(to: UInt32.self), image.stride, Int32(w), Int32(h),
                           bg.0, bg.1, bg.2, picture.argb)
            // th_flatten_rgb leaves the alpha byte zero; the frames are opaque.
            let stride = Int(picture.argb_stride)
            for y in 0..<h { let row = picture.argb + y * stride; for x in 0..<w { row[x] |= 0xff00_0000 } }
            guard WebPAnimEncoderAdd(encoder, &picture, Int32(timestamp), &config) != 0 else {
                throw RenderOutputError.encode(path: path, reason: "frame \(k): \(String(cString: WebPAnimEncoderGetError(encoder)))")
            }
            elapsed += max(frameDurations[k], 0)
            timestamp = max(Int((elapsed * 1000).rounded()), timestamp + 1)
        }
        guard WebPAnimEncoderAdd(encoder, nil, Int32(timestamp), nil) != 0 else {
            throw RenderOutputError.encode(path: path, reason: String(cString: WebPAnimEncoderGetError(encoder)))
        }
        var data = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &data) != 0, let bytes = data.bytes else {
            throw RenderOutputError.encode(path: path, reason: String(cString: WebPAnimEncoderGetError(encoder)))
        }
        defer { WebPFree(UnsafeMutableRawPointer(mutating: bytes)) }
        try AtomicFile.write(Array(UnsafeBufferPointer(start: bytes, count: data.size)), to: path)
    }
}
