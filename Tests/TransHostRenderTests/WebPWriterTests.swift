import CWebP
import XCTest
import TransHostCore
import TransHostTestSupport
@testable import TransHostRender

/// Lossless animated WebP: read back with libwebp's own decoder, every pixel of every frame is
/// what the renderer drew, and the frames last what they were given.
final class WebPWriterTests: XCTestCase {
    private func frames() -> [RGBAImage] {
        (0..<4).map { k in
            let img = RGBAImage(width: 64, height: 48)
            for y in 0..<48 { for x in 0..<64 {
                // A gradient (thousands of colours) with a moving iOS-grey block.
                let grey = x >= k * 10 && x < k * 10 + 20 && y >= 10 && y < 30
                let c: UInt32 = grey ? 0xefeff4 : UInt32(x * 4) << 16 | UInt32(y * 5) << 8 | UInt32((x + y) & 255)
                img.data.storeBytes(of: 0xff00_0000 | c, toByteOffset: y * img.stride + x * 4, as: UInt32.self)
            } }
            return img
        }
    }

    func testEveryPixelOfEveryFrameSurvivesAndTheTimingAddsUp() throws {
        let dir = try TestProcess.temporaryDirectory(self, prefix: "transhost-webp")
        let imgs = frames()
        try WebPWriter.write(width: 64, height: 48, frameDurations: [0.1, 0.05, 0.0333, 0.5], to: dir + "/a.webp") { imgs[$0] }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: dir + "/a.webp"))
        XCTAssertEqual(String(decoding: bytes.prefix(4), as: UTF8.self), "RIFF")
        XCTAssertEqual(String(decoding: bytes[8..<12], as: UTF8.self), "WEBP")

        var options = WebPAnimDecoderOptions()
        XCTAssertNotEqual(WebPAnimDecoderOptionsInitInternal(&options, WEBP_DEMUX_ABI_VERSION), 0)
        options.color_mode = MODE_RGBA
        options.use_threads = 0
        let decoded: [([UInt8], Int32)] = try bytes.withUnsafeBytes { raw in
            var data = WebPData(bytes: raw.baseAddress!.assumingMemoryBound(to: UInt8.self), size: raw.count)
            guard let dec = WebPAnimDecoderNewInternal(&data, &options, WEBP_DEMUX_ABI_VERSION) else { throw NSError(domain: "webp", code: 1) }
            defer { WebPAnimDecoderDelete(dec) }
            var info = WebPAnimInfo()
            XCTAssertNotEqual(WebPAnimDecoderGetInfo(dec, &info), 0)
            XCTAssertEqual([info.canvas_width, info.canvas_height, info.frame_count, info.loop_count], [64, 48, 4, 0])
            var out: [([UInt8], Int32)] = []
            while WebPAnimDecoderHasMoreFrames(dec) != 0 {
                var buf: UnsafeMutablePointer<UInt8>?
                var ts: Int32 = 0
                XCTAssertNotEqual(WebPAnimDecoderGetNext(dec, &buf, &ts), 0)
                out.append((Array(UnsafeBufferPointer(start: buf, count: 64 * 48 * 4)), ts))
            }
            return out
        }
        XCTAssertEqual(decoded.map(\.1), [100, 150, 183, 683], "end timestamps in ms, rounding carried")
        for (k, (rgba, _)) in decoded.enumerated() {
            XCTAssertTrue(rgba == imgs[k].rgbaBytes(), "frame \(k) is exact")
        }
        try WebPWriter.write(width: 64, height: 48, frameDurations: [0.1, 0.05, 0.0333, 0.5], to: dir + "/b.webp") { imgs[$0] }
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/b.webp")), bytes, "the same frames give the same bytes")
    }
}
