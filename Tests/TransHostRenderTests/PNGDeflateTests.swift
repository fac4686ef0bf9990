import XCTest
import CRenderKernels

/// transhost's deflate (th_png_deflate path 0, what contact sheets are written with) writes the
/// bytes the system zlib writes at libpng's settings (path 1), whatever the data and however it
/// is fed: noise (stored blocks), long runs of zeros (a sheet's filtered rows), text (long hash
/// chains, distances past the 32 KiB window), small alphabets (code-length limits), and inputs
/// from a byte to well past the window, fed at once, a PNG row at a time, or in odd pieces.
final class PNGDeflateTests: XCTestCase {
    private func deflate(_ data: [UInt8], piece: Int, path: Int32) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: data.count + data.count / 8 + 1024)
        let cap = out.count
        let n = data.withUnsafeBufferPointer { d in
            out.withUnsafeMutableBufferPointer { o in th_png_deflate(d.baseAddress, d.count, piece, path, o.baseAddress, cap) }
        }
        return Array(out[0..<n])
    }

    private func inputs() -> [(String, [UInt8])] {
        var seed: UInt64 = 0x2545_f491_4f6c_dd1d
        func next() -> UInt32 {
            seed = seed &* 6364136223846793005 &+ 1442695040888963407
            return UInt32(truncatingIfNeeded: seed >> 33)
        }
        let text = Array("A push slides the new view in from the right while the old one moves a third of the way left. ".utf8)
        var out: [(String, [UInt8])] = []
        for n in [1, 2, 3, 4, 7, 300, 5000, 40000, 70000, 200000] {
            out.append(("noise \(n)", (0..<n).map { _ in UInt8(truncatingIfNeeded: next()) }))
            out.append(("zeros \(n)", [UInt8](repeating: 0, count: n)))
            out.append(("sheet-like \(n)", (0..<n).map { i in i % 2041 < 1900 ? 0 : UInt8(next() % 7) }))
            out.append(("text \(n)", (0..<n).map { i in text[(i * 7 + Int(next() % 3)) % text.count] }))
            out.append(("four symbols \(n)", (0..<n).map { _ in UInt8(next() % 4) }))
            var runs = [UInt8](repeating: 0, count: n)
            for i in 1..<max(n, 1) { runs[i] = next() % 100 < 97 ? runs[i - 1] : UInt8(truncatingIfNeeded: next()) }
            out.append(("runs \(n)", runs))
        }
        return out
    }

    func testOurDeflateWritesZlibsBytes() {
        var compared = 0
        for (name, data) in inputs() {
            for piece in [0, 2041, 777] {
                let zlib = deflate(data, piece: piece, path: 1), ours = deflate(data, piece: piece, path: 0)
                XCTAssertGreaterThan(zlib.count, 0, "\(name): zlib wrote nothing")
                if ours != zlib {
                    let at = zip(ours, zlib).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(ours.count, zlib.count)
                    XCTFail("\(name), pieces of \(piece): \(ours.count) bytes against zlib's \(zlib.count), first differing at \(at)")
                }
                compared += 1
            }
        }
        XCTAssertEqual(compared, 180)
    }

    /// Too little room is a failure (0 bytes), not a short stream.
    func testTooLittleRoomWritesNothing() {
        let data = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 2654435761 >> 13) }
        var out = [UInt8](repeating: 0, count: 100)
        let n = data.withUnsafeBufferPointer { d in out.withUnsafeMutableBufferPointer { o in th_png_deflate(d.baseAddress, d.count, 0, 0, o.baseAddress, 100) } }
        XCTAssertEqual(n, 0)
    }
}
