import XCTest
import TransHostCore
import TransHostTestSupport
@testable import TransHostRender

/// While a core is free, a GIF's frames are encoded on a second thread as the next ones are
/// drawn into the same image (GIFEncodeThread). Whichever frames go there and whichever are
/// encoded by the drawing thread, the file must be the one a single thread writes.
final class GIFEncodeThreadTests: XCTestCase {
    /// Frames drawn one after another into one reused image (as the exporter's target is),
    /// each moving one block and saying where it drew: an odd width, so the encoder's reads
    /// (rounded out to 16 pixels) reach past what was drawn.
    private func write(to path: String, frames count: Int, handsOver: @escaping (Int) -> Bool) throws {
        let w = 173, h = 97
        let image = RGBAImage(width: w, height: h)
        var seed: UInt64 = 0x2545_f491_4f6c_dd1d
        func next(_ n: Int) -> Int {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return Int(seed >> 33) % n
        }
        func fill(_ r: PixelRect, _ colour: UInt32) {
            for y in r.y0..<r.y1 {
                let row = (image.data + y * image.stride).assumingMemoryBound(to: UInt32.self)
                for x in r.x0..<r.x1 { row[x] = colour }
            }
        }
        let whole = PixelRect(x0: 0, y0: 0, x1: w, y1: h)
        var blocks = (0..<5).map { _ in PixelRect(x0: next(150), y0: next(80), x1: 0, y1: 0) }.map {
            PixelRect(x0: $0.x0, y0: $0.y0, x1: $0.x0 + 5 + next(20), y1: $0.y0 + 3 + next(15)).intersection(whole)
        }
        var changed = whole
        func draw() {
            fill(whole, 0xff20_4060)
            for (i, b) in blocks.enumerated() { fill(b, [0xfff0_e0d0, 0x8040_2010, 0xff00_ff00, 0xffff_ffff, 0x40ff_0000][i]) }
        }
        draw()
        try GIFWriter.write(width: w, height: h, frameDurations: Array(repeating: 0.02, count: count), to: path,
                            background: .white, loopCount: 0, times: nil, repeats: { $0 % 7 == 6 }, changed: { _ in changed },
                            handsOver: handsOver) { k in
            guard k > 0 else { return image }
            if k % 7 == 6 { changed = .empty; return image } // the same pixels again
            let i = next(blocks.count)
            let old = blocks[i]
            let dx = next(31) - 15, dy = next(21) - 10
            blocks[i] = PixelRect(x0: old.x0 + dx, y0: old.y0 + dy, x1: old.x1 + dx, y1: old.y1 + dy).intersection(whole)
            draw()
            changed = old.union(blocks[i])
            return image
        }
    }

    func testAFileIsTheSameWhicheverFramesTheSecondThreadEncodes() throws {
        let dir = try TestProcess.temporaryDirectory(self, prefix: "transhost-gif-thread")
        try write(to: dir + "/one-thread.gif", frames: 60) { _ in false }
        let expected = try Data(contentsOf: URL(fileURLWithPath: dir + "/one-thread.gif"))
        XCTAssertGreaterThan(expected.count, 1000)
        var bits: UInt64 = 0x9e37_79b9_7f4a_7c15
        let patterns: [(String, (Int) -> Bool)] = [
            ("every frame", { _ in true }), ("every other frame", { $0 % 2 == 1 }), ("every third frame", { $0 % 3 == 0 }),
            ("the first frame only", { $0 == 0 }), ("at random", { _ in bits = bits &* 6364136223846793005 &+ 1; return bits >> 63 == 1 }),
        ]
        for (name, pattern) in patterns {
            try write(to: dir + "/split.gif", frames: 60, handsOver: pattern)
            let got = try Data(contentsOf: URL(fileURLWithPath: dir + "/split.gif"))
            XCTAssertTrue(got == expected, "\(name): the file differs from the one a single thread writes")
        }
    }

    /// A frame whose drawing fails ends the GIF with that error, and the second thread with it.
    func testAnErrorWhileDrawingEndsTheFile() throws {
        let dir = try TestProcess.temporaryDirectory(self, prefix: "transhost-gif-thread-error")
        struct Stop: Error {}
        let image = RGBAImage(width: 40, height: 30)
        XCTAssertThrowsError(try GIFWriter.write(width: 40, height: 30, frameDurations: [0.1, 0.1, 0.1], to: dir + "/broken.gif",
                                                 background: .white, loopCount: 0, times: nil, repeats: nil, changed: nil,
                                                 handsOver: { _ in true }) { k in
            if k == 2 { throw Stop() }
            return image
        }) { XCTAssertTrue($0 is Stop) }
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir + "/broken.gif"), "nothing is left under the GIF's name")
    }
}
