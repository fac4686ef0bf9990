import XCTest
import CRenderKernels

/// A pixel whose colour has no exact palette entry takes the nearest entry (squared distance
/// weighted 3, 4, 2 for red, green, blue; the first of equal entries). The coder searches with
/// AVX2 where the CPU has it, else SSE2, else one entry at a time, and the GIF must not depend
/// on which: every path finds the entry a plain search finds.
final class GIFNearestTests: XCTestCase {
    func reference(_ palette: [UInt8], _ r: Int, _ g: Int, _ b: Int) -> Int {
        var best = 0, bestDistance = Int.max
        for i in 0..<(palette.count / 3) {
            let dr = r - Int(palette[3 * i]), dg = g - Int(palette[3 * i + 1]), db = b - Int(palette[3 * i + 2])
            let d = 3 * dr * dr + 4 * dg * dg + 2 * db * db
            if d < bestDistance { bestDistance = d; best = i }
        }
        return best
    }

    func testEverySearchFindsTheNearestEntryAndTheFirstOfEquals() {
        var noise = PixelNoise(s: 0x2545_f491_4f6c_dd1d)
        func next() -> Int { Int(noise.next()) }
        var paths = [0]
        #if arch(x86_64)
        paths.append(1)
        #endif
        if th_gifq_nearest([0, 0, 0], 1, 0, 0, 0, 2) >= 0 {
            paths.append(2)
        } else {
            print("GIFNearestTests: this CPU has no AVX2; its search is not checked here")
        }
        var checked = 0
        // Every size from 1 to 256 entries (the searches step 4 or 8 entries at a time, so each
        // remainder is met); every third palette is coarse, so equal entries and ties are common.
        for n in 1...256 {
            let coarse = n % 3 == 0
            let palette = (0..<(3 * n)).map { _ in UInt8(coarse ? (next() % 4) * 85 : next() & 255) }
            for _ in 0..<40 {
                let r = next() & 255, g = next() & 255, b = next() & 255
                let expected = reference(palette, r, g, b)
                for path in paths {
                    let found = Int(th_gifq_nearest(palette, Int32(n), Int32(r), Int32(g), Int32(b), Int32(path)))
                    XCTAssertEqual(found, expected, "path \(path), \(n) entries, colour (\(r), \(g), \(b))")
                    checked += 1
                }
            }
        }
        XCTAssertEqual(checked, 256 * 40 * paths.count)
        XCTAssertEqual(th_gifq_nearest([1, 2, 3], 0, 0, 0, 0, 0), -1, "no entries: no answer")
    }
}
