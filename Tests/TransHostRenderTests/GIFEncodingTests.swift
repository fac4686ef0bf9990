import XCTest
import CGif
import TransHostCore
import TransHostTestSupport
@testable import TransHostRender

/// Our GIF encoder writes the files giflib would: decoded by giflib and written again by
/// giflib's own encoder (EGifSpew), a GIF comes back byte for byte. The frames exercise what the
/// LZW coder must get right: code-width growth, the table filling up (clear codes), long runs,
/// long strings met again and again (the coder's paths of first children grow, move and are
/// cleared), palettes of every size, transparent unchanged pixels and an unchanged frame.
final class GIFEncodingTests: XCTestCase {
    private func frames() -> [RGBAImage] {
        var seed: UInt64 = 0x9e37_79b9_7f4a_7c15
        func next() -> UInt32 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return UInt32(truncatingIfNeeded: seed >> 33)
        }
        let w = 180, h = 120
        var out: [RGBAImage] = []
        // Noise over every colour (quantised; the string table fills many times), then two
        // colours, then a change to a corner only, then no change at all, then 5 colours, then
        // runs of one colour 61 to 183 pixels long between stretches of noise (the coder's
        // memo of runs grows long, and the table is cleared in the middle of it), then 200
        // colours in a cycle that each pair of rows shows shifted by one (the strings along it
        // grow a pixel each time they are met).
        let kinds: [(Int, Int) -> UInt32] = [
            { _, _ in next() & 0xffffff },
            { x, y in (x / 7 + y / 5) % 2 == 0 ? 0x102030 : 0xf0e0d0 },
            { x, y in x < 40 && y < 30 ? 0x00ff00 : ((x / 7 + y / 5) % 2 == 0 ? 0x102030 : 0xf0e0d0) },
            { x, y in x < 40 && y < 30 ? 0x00ff00 : ((x / 7 + y / 5) % 2 == 0 ? 0x102030 : 0xf0e0d0) },
            { x, y in [0x000000, 0xffffff, 0xff0000, 0x00ff00, 0x0000ff][(x * x + y) % 5] },
            { x, y in
                let segment = (y * w + x) / 61
                return segment % 4 == 0 ? next() & 0xffffff : [0x336699, 0xf0f0f0, 0x102030][segment % 3]
            },
            { x, y in
                let k = UInt32((x + y / 2) % 200)
                return (k * 37 % 256) << 16 | (k * 91 % 256) << 8 | k
            },
        ]
        for kind in kinds {
            let img = RGBAImage(width: w, height: h)
            for y in 0..<h {
                let row = (img.data + y * img.stride).assumingMemoryBound(to: UInt32.self)
                for x in 0..<w { row[x] = 0xff00_0000 | kind(x, y) }
            }
            out.append(img)
        }
        return out
    }

    /// A frame the caller knows repeats its predecessor (frames 2 and 3 here) skips the pixel
    /// comparison; the file must be the one written without that knowledge. The caller may even
    /// hand over the previous image again (as the exporter's reused target is).
    func testARepeatedFrameWritesTheSameFile() throws {
        let dir = try TestProcess.temporaryDirectory(self, prefix: "transhost-gif-repeats")
        let images = frames()
        let durations = [0.02, 0.5, 0.013, 1, 700, 0.1, 0.04]
        try GIFWriter.write(frames: images, frameDurations: durations, to: dir + "/compared.gif")
        try GIFWriter.write(width: images[0].width, height: images[0].height, frameDurations: durations, to: dir + "/told.gif",
                            repeats: { $0 == 3 }, frame: { k in images[k == 3 ? 2 : k] })
        let compared = try Data(contentsOf: URL(fileURLWithPath: dir + "/compared.gif"))
        let told = try Data(contentsOf: URL(fileURLWithPath: dir + "/told.gif"))
        XCTAssertEqual(told, compared)
        XCTAssertGreaterThan(told.count, 100)
    }

    /// GIFs written one after another reuse the palette and code tables (GIFCoders): a GIF
    /// written after a different one is the same file as before it.
    func testAGIFIsTheSameAfterAnotherWasWritten() throws {
        let dir = try TestProcess.temporaryDirectory(self, prefix: "transhost-gif-reuse")
        let images = frames()
        let durations = [0.02, 0.5, 0.013, 1, 700, 0.1, 0.04]
        try GIFWriter.write(frames: images, frameDurations: durations, to: dir + "/first.gif")
        let other = images.reversed().map { img -> RGBAImage in
            let c = img.copy()
            c.fill(Color(red: 0.1, green: 0.7, blue: 0.4, alpha: 0.5))
            return c
        }
        try GIFWriter.write(frames: Array(images.reversed()) + other, frameDurations: durations + durations, to: dir + "/other.gif")
        try GIFWriter.write(frames: images, frameDurations: durations, to: dir + "/again.gif")
        let first = try Data(contentsOf: URL(fileURLWithPath: dir + "/first.gif"))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/again.gif")), first)
        XCTAssertNotEqual(try Data(contentsOf: URL(fileURLWithPath: dir + "/other.gif")), first)
    }

    func testGiflibReadsAndRewritesOurGIFsByteForByte() throws {
        let dir = try TestProcess.temporaryDirectory(self, prefix: "transhost-gif-encoding")
        let path = dir + "/frames.gif"
        try GIFWriter.write(frames: frames(), frameDurations: [0.02, 0.5, 0.013, 1, 700, 0.1, 0.04], to: path)
        let ours = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))

        var err: Int32 = 0
        guard let input = DGifOpenFileName(path, &err) else { return XCTFail("giflib cannot open it: \(err)") }
        XCTAssertEqual(DGifSlurp(input), GIF_OK, "giflib decodes it")
        XCTAssertEqual(input.pointee.ImageCount, 7)

        final class Sink { var bytes: [UInt8] = [] }
        let sink = Sink()
        let box = Unmanaged.passRetained(sink)
        defer { box.release() }
        guard let output = EGifOpen(box.toOpaque(), { gif, data, length in
            let s = Unmanaged<Sink>.fromOpaque(gif!.pointee.UserData!).takeUnretainedValue()
            s.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return length
        }, &err) else { return XCTFail("giflib cannot open an output: \(err)") }
        output.pointee.SWidth = input.pointee.SWidth
        output.pointee.SHeight = input.pointee.SHeight
        output.pointee.SColorResolution = input.pointee.SColorResolution
        output.pointee.SBackGroundColor = input.pointee.SBackGroundColor
        output.pointee.AspectByte = input.pointee.AspectByte
        output.pointee.SColorMap = input.pointee.SColorMap
        output.pointee.ImageCount = input.pointee.ImageCount
        output.pointee.SavedImages = input.pointee.SavedImages
        output.pointee.ExtensionBlockCount = input.pointee.ExtensionBlockCount
        output.pointee.ExtensionBlocks = input.pointee.ExtensionBlocks
        // EGifSpew closes the output and frees what it was handed: the input must not free it again.
        input.pointee.SColorMap = nil
        input.pointee.SavedImages = nil
        input.pointee.ImageCount = 0
        input.pointee.ExtensionBlocks = nil
        input.pointee.ExtensionBlockCount = 0
        XCTAssertEqual(EGifSpew(output), GIF_OK)
        DGifCloseFile(input, &err)

        XCTAssertEqual(sink.bytes.count, ours.count, "giflib writes as many bytes")
        if let first = zip(sink.bytes, ours).enumerated().first(where: { $0.element.0 != $0.element.1 }) {
            XCTFail("the files first differ at byte \(first.offset): giflib \(first.element.0), ours \(first.element.1)")
        }
    }
}
