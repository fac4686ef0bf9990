import XCTest
import CPixman
import CRenderKernels
@testable import TransHostRender

/// A masked view's raster is its group times the mask's alpha, made in one pass by
/// th_multiply_by_mask_alpha (RGBAImage.multiply). Pictures are compared byte for byte across
/// releases, so it must give the bytes of what it replaced: copying the group, then compositing
/// the mask onto the copy with pixman's IN_REVERSE.
final class MaskMultiplyTests: XCTestCase {
    /// Random pixels; with `runs`, in runs of one pixel (as a mask's inside and outside are).
    private func fill(_ img: RGBAImage, _ noise: inout PixelNoise, runs: Bool) {
        let words = img.data.assumingMemoryBound(to: UInt32.self)
        var p = noise.pixel(opaque: false), left = 0
        for y in 0..<img.height {
            for x in 0..<img.width {
                if !runs || left == 0 { p = noise.pixel(opaque: false); left = Int(noise.next() % 13) }
                left -= 1
                words[y * img.stride / 4 + x] = p
            }
        }
    }

    func testMatchesACopyMaskedByPixmanInReverse() {
        var noise = PixelNoise(s: 19)
        for k in 0..<60 {
            let w = 1 + Int(noise.next() % 70), h = 1 + Int(noise.next() % 20)
            let group = RGBAImage(width: w, height: h), mask = RGBAImage(width: w, height: h)
            fill(group, &noise, runs: false)
            fill(mask, &noise, runs: k % 2 == 0)
            let x0 = Int(noise.next()) % w, y0 = Int(noise.next()) % h
            let r = PixelRect(x0: x0, y0: y0, x1: x0 + 1 + Int(noise.next()) % (w - x0), y1: y0 + 1 + Int(noise.next()) % (h - y0))

            let ours = RGBAImage(width: w, height: h), theirs = RGBAImage(width: w, height: h)
            fill(ours, &noise, runs: false)
            func set(_ img: RGBAImage, _ x: Int, _ y: Int, _ v: UInt32) { img.data.storeBytes(of: v, toByteOffset: y * img.stride + x * 4, as: UInt32.self) }
            for y in 0..<h { for x in 0..<w { set(theirs, x, y, ours.premultipliedPixel(x: x, y: y)) } }
            ours.multiply(group, byAlphaOf: mask, in: r)
            for y in r.y0..<r.y1 { for x in r.x0..<r.x1 { set(theirs, x, y, group.premultipliedPixel(x: x, y: y)) } }
            pixman_image_composite32(PIXMAN_OP_IN_REVERSE, mask.pixman, nil, theirs.pixman, Int32(r.x0), Int32(r.y0), 0, 0,
                                     Int32(r.x0), Int32(r.y0), Int32(r.width), Int32(r.height))
            for y in 0..<h {
                for x in 0..<w where ours.premultipliedPixel(x: x, y: y) != theirs.premultipliedPixel(x: x, y: y) {
                    return XCTFail("case \(k), \(w)x\(h), rect \(r): pixel (\(x), \(y)) is "
                        + String(ours.premultipliedPixel(x: x, y: y), radix: 16) + ", pixman gives "
                        + String(theirs.premultipliedPixel(x: x, y: y), radix: 16))
                }
            }
        }
    }
}
