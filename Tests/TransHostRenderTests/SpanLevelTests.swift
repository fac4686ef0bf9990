import XCTest
import Foundation
import CRenderKernels

/// The projective and the affine span loops pick their vector code at run time (scalar, SSE2,
/// AVX2), and pictures are compared byte for byte across releases and machines: every level
/// the CPU has must draw exactly the scalar level's bytes. Random sources (opaque, translucent,
/// clear, flat runs, a few words that are not premultiplied), destinations, masks, alphas and
/// maps, including ones that put most of the rectangle inside the source (the loops' interiors)
/// and, for perspective, ones whose W is close to 0 or negative over part of the rectangle.
final class SpanLevelTests: XCTestCase {
    /// One composite's inputs; `words` are the pixels, rows `stride` words apart.
    private struct Case {
        var sw = 0, sh = 0, sstride = 0, dw = 0, dh = 0, dstride = 0
        var x0 = 0, y0 = 0, x1 = 0, y1 = 0
        var src: [UInt32] = [], dst: [UInt32] = []
        var mask: [UInt8]? = nil
        var mstride = 0
        var alpha: UInt32 = 256
        var m: [Double] = []
        var opaque = false
    }

    private func makeCase(_ k: Int, affine: Bool, _ n: inout PixelNoise) -> Case {
        var c = Case()
        let big = k % 97 == 0
        c.sw = 1 + n.below(big ? 420 : 72); c.sh = 1 + n.below(big ? 360 : 56)
        c.dw = 1 + n.below(big ? 440 : 90); c.dh = 1 + n.below(big ? 380 : 64)
        c.sstride = c.sw + n.below(3); c.dstride = c.dw + n.below(3)
        c.opaque = k % 3 == 0
        let flat = k % 4 == 1
        var last: UInt32 = 0
        c.src = (0..<(c.sstride * c.sh)).map { _ in
            if !flat || n.below(64) == 0 { last = n.pixel(opaque: c.opaque, loose: true) }
            return last
        }
        c.dst = (0..<(c.dstride * c.dh)).map { _ in n.pixel(opaque: k % 5 == 0, loose: true) }
        c.x0 = n.below(c.dw); c.y0 = n.below(c.dh)
        c.x1 = c.x0 + 1 + n.below(c.dw - c.x0); c.y1 = c.y0 + 1 + n.below(c.dh - c.y0)
        if k % 3 == 2 {
            c.mstride = c.x1 - c.x0 + n.below(4)
            c.mask = (0..<(c.mstride * (c.y1 - c.y0))).map { _ -> UInt8 in
                switch n.below(4) { case 0: 0; case 1: 255; default: UInt8(truncatingIfNeeded: n.next()) }
            }
        }
        c.alpha = k % 7 < 4 ? 256 : UInt32(n.below(257))
        // Destination -> source: rotation, scale, shear, then a perspective row.
        let angle = n.range(-3.2, 3.2), scale = n.below(2) == 0 ? n.range(0.9, 1.1) : n.range(0.3, 3), shear = n.range(-0.5, 0.5)
        var m = [scale * cos(angle), -scale * sin(angle) + shear, n.range(-60, 60),
                 scale * sin(angle), scale * cos(angle), n.range(-40, 40), 0, 0, 1]
        let cx = Double(c.x0 + c.x1) / 2, cy = Double(c.y0 + c.y1) / 2
        switch n.below(4) {
        case 0: m[6] = n.range(-0.02, 0.02); m[7] = n.range(-0.02, 0.02); m[8] = n.range(0.2, 1.5)
        case 1: m[7] = n.range(-0.02, 0.02); m[8] = n.range(0.5, 1.5)  // one W per row
        case 2: m[6] = n.range(-0.02, 0.02); m[1] = 0; m[8] = n.range(0.5, 1.5)  // one W per column
        default: // W crosses 0 near the middle of the rectangle
            m[6] = n.range(-0.05, 0.05); m[7] = n.range(-0.05, 0.05); m[8] = -(m[6] * cx + m[7] * cy) + n.range(-0.01, 0.01)
        }
        if affine && n.below(4) == 0 { m[0] = n.range(-0.1, 0.1); m[4] = n.range(-0.1, 0.1) }
        if n.below(3) != 0 { // the rectangle's centre onto the source's: most pixels inside
            let w = affine ? 1 : m[6] * cx + m[7] * cy + m[8]
            m[2] = (Double(c.sw) / 2 + n.range(-2, 2)) * w - m[0] * cx - m[1] * cy
            m[5] = (Double(c.sh) / 2 + n.range(-2, 2)) * w - m[3] * cx - m[4] * cy
        }
        if k % 5 == 4 {
            // One opaque colour with a few odd texels, under a map close to the identity, at full
            // alpha without a mask: the perspective loop's flat-span test must find every odd
            // texel wherever it lies in a span's footprint.
            c.opaque = true
            c.mask = nil
            c.alpha = 256
            let flatColour = n.pixel(opaque: true)
            c.src = c.src.map { _ in n.below(90) == 0 ? n.pixel(opaque: true) : flatColour }
            m = [n.range(0.97, 1.03), n.range(-0.02, 0.02), n.range(-3, 3), n.range(-0.02, 0.02), n.range(0.97, 1.03), n.range(-3, 3),
                 n.range(-0.002, 0.002), n.below(2) == 0 ? 0 : n.range(-0.002, 0.002), 1]
        }
        c.m = affine ? Array(m[0..<6]) : m
        return c
    }

    private func draw(_ c: Case, affine: Bool) -> [UInt32] {
        var out = c.dst
        c.src.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { d in
                c.m.withUnsafeBufferPointer { m in
                    func go(_ mask: UnsafePointer<UInt8>?) {
                        if affine {
                            th_composite_affine_bilinear(s.baseAddress!, c.sstride * 4, Int32(c.sw), Int32(c.sh), d.baseAddress!, c.dstride * 4,
                                                         Int32(c.x0), Int32(c.y0), Int32(c.x1), Int32(c.y1), m.baseAddress!,
                                                         mask, c.mstride, c.alpha, c.opaque ? 1 : 0)
                        } else {
                            th_composite_projective_bilinear(s.baseAddress!, c.sstride * 4, Int32(c.sw), Int32(c.sh), d.baseAddress!, c.dstride * 4,
                                                             Int32(c.x0), Int32(c.y0), Int32(c.x1), Int32(c.y1), m.baseAddress!,
                                                             mask, c.mstride, c.alpha)
                        }
                    }
                    if let mask = c.mask { mask.withUnsafeBufferPointer { go($0.baseAddress!) } } else { go(nil) }
                }
            }
        }
        return out
    }

    override func tearDown() {
        th_span_bilinear_level(-1)
    }

    private func checkLevels(affine: Bool, cases: Int, seed: UInt64) {
        let best = th_span_bilinear_level(-1)
        let name = affine ? "affine" : "projective"
        XCTAssertEqual(th_span_bilinear_level(0), 0, "the scalar level is always there")
        var noise = PixelNoise(s: seed)
        var drawn = 0
        for k in 0..<cases {
            let c = makeCase(k, affine: affine, &noise)
            th_span_bilinear_level(0)
            let want = draw(c, affine: affine)
            if want != c.dst { drawn += 1 }
            guard best >= 1 else { continue }
            for level in 1...best {
                XCTAssertEqual(th_span_bilinear_level(level), level)
                let got = draw(c, affine: affine)
                guard let i = got.indices.first(where: { got[$0] != want[$0] }) else { continue }
                return XCTFail("\(name) loop, level \(level), case \(k) (source \(c.sw)x\(c.sh), rectangle (\(c.x0), \(c.y0))-(\(c.x1), \(c.y1)), "
                               + "alpha \(c.alpha), mask \(c.mask != nil), map \(c.m)): pixel (\(i % c.dstride), \(i / c.dstride)) is "
                               + "\(String(got[i], radix: 16)), the scalar level draws \(String(want[i], radix: 16))")
            }
        }
        // Most cases must draw something (perspective maps skip more), or the comparison would prove nothing.
        XCTAssertGreaterThan(drawn, cases / 2, "\(name) cases that changed the destination")
    }

    func testProjectiveLoopDrawsTheSameBytesAtEveryLevel() {
        checkLevels(affine: false, cases: 600, seed: 19)
    }

    /// The perspective loop draws runs of spans in one go where it proves the span search would
    /// keep each span whole, and fills a run whose footprints all lie in one opaque colour: at
    /// every level it must draw the bytes of searching every span. Besides the random cases,
    /// turns about the vertical axis (split-modal's halves) at strengths either side of where
    /// spans start being halved, on flat sources with scattered odd texels or with odd texels
    /// in the footprints of pixels where runs start and end.
    func testProjectiveSpanRunsDrawTheBytesOfTheSpanSearch() {
        defer { th_projective_span_runs(1) }
        let best = th_span_bilinear_level(-1)
        var noise = PixelNoise(s: 31)
        var cases = (0..<600).map { makeCase($0, affine: false, &noise) }
        for k in 0..<240 {
            var c = Case()
            c.dw = 60 + noise.below(340); c.dh = 30 + noise.below(60); c.dstride = c.dw
            c.x0 = noise.below(8); c.y0 = noise.below(8); c.x1 = c.dw - noise.below(8); c.y1 = c.dh - noise.below(8)
            // A turn about Y: W = m6 X + m8 per column, v scaled by 1 / W about a centre row;
            // a shear in some (the rows' texel columns drift).
            let m6 = (k % 3 == 0 ? 1 : -1) * 0.0001 * pow(20, noise.unit()), cy = Double(c.y0 + c.y1) / 2
            let m8 = 1 - m6 * Double(c.x0 + c.x1) / 2
            c.m = [noise.range(0.8, 1.2), k % 4 >= 2 ? noise.range(-0.3, 0.3) : 0, noise.range(-20, 20),
                   noise.range(-0.05, 0.05) + m6 * cy * noise.range(-1, 1), (k % 8 < 4 ? 1 : -1) * noise.range(0.8, 1.2), 0, m6, 0, m8]
            // The source covers most of the rectangle's footprints in most cases (upside down in
            // some: the rows walk up the source).
            func corners() -> [(Double, Double)] {
                [(c.x0, c.y0), (c.x1, c.y0), (c.x0, c.y1), (c.x1, c.y1)].map { (x, y) -> (Double, Double) in
                    let w = c.m[6] * Double(x) + c.m[7] * Double(y) + c.m[8]
                    return ((c.m[0] * Double(x) + c.m[1] * Double(y) + c.m[2]) / w, (c.m[3] * Double(x) + c.m[4] * Double(y) + c.m[5]) / w)
                }
            }
            c.m[2] += noise.range(-3, 3) - corners().map(\.0).min()!
            c.m[5] += noise.range(-3, 3) - corners().map(\.1).min()!
            let far = (corners().map(\.0).max()!, corners().map(\.1).max()!)
            c.sw = max(2, Int(far.0) + noise.below(8) - (k % 4 == 0 ? 40 : 0)); c.sh = max(2, Int(far.1) + noise.below(8))
            c.sstride = c.sw
            let flatColour = noise.pixel(opaque: true)
            c.src = (0..<(c.sw * c.sh)).map { _ in k % 4 == 0 && noise.below(400) == 0 ? noise.pixel(opaque: noise.below(3) != 0, loose: true) : flatColour }
            c.dst = (0..<(c.dstride * c.dh)).map { _ in noise.pixel(opaque: true) }
            c.alpha = k % 5 == 0 ? UInt32(noise.below(256)) : 256
            if k % 4 != 0 {
                // A few odd texels, each in the footprint of a pixel where a run or a part of one
                // starts or ends (every 16th pixel from x0, the one before, the last column): a
                // run filled from a rectangle one texel short, or trusting a flat rectangle of
                // the rows above that is a column narrower, would miss it.
                for _ in 0..<(1 + noise.below(4)) {
                    let j = noise.below((c.x1 - c.x0) / 16 + 1), e = noise.below(3)
                    let end = e == 2 ? c.x1 - 1 : min(c.x0 + 16 * j - e, c.x1 - 1)
                    let px = Double(max(end, c.x0)) + 0.5, py = Double(c.y0 + noise.below(c.y1 - c.y0)) + 0.5
                    let w = c.m[6] * px + c.m[7] * py + c.m[8]
                    let u = (c.m[0] * px + c.m[1] * py + c.m[2]) / w - 0.5, v = (c.m[3] * px + c.m[4] * py + c.m[5]) / w - 0.5
                    let tu = Int(u.rounded(.down)) + noise.below(2), tv = Int(v.rounded(.down)) + noise.below(2)
                    if tu >= 0 && tu < c.sw && tv >= 0 && tv < c.sh { c.src[tv * c.sstride + tu] = noise.pixel(opaque: true) }
                }
            }
            cases.append(c)
        }
        var drawn = 0
        for (k, c) in cases.enumerated() {
            for level in 0...best {
                th_span_bilinear_level(level)
                th_projective_span_runs(0)
                let want = draw(c, affine: false)
                th_projective_span_runs(1)
                let got = draw(c, affine: false)
                if level == 0 && want != c.dst { drawn += 1 }
                guard let i = got.indices.first(where: { got[$0] != want[$0] }) else { continue }
                return XCTFail("level \(level), case \(k) (source \(c.sw)x\(c.sh), rectangle (\(c.x0), \(c.y0))-(\(c.x1), \(c.y1)), "
                               + "alpha \(c.alpha), mask \(c.mask != nil), map \(c.m)): pixel (\(i % c.dstride), \(i / c.dstride)) is "
                               + "\(String(got[i], radix: 16)) in runs, the span search draws \(String(want[i], radix: 16))")
            }
        }
        XCTAssertGreaterThan(drawn, cases.count / 2, "cases that changed the destination")
    }

    func testAffineLoopDrawsTheSameBytesAtEveryLevel() {
        checkLevels(affine: true, cases: 600, seed: 23)
    }
}
