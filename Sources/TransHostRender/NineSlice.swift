import TransHostCore

/// Stretching a resizable snapshot's raster to a new size as UIKit does with cap insets: the
/// four corners keep their size, the edges stretch along their length, the middle in both
/// directions. Without insets the whole raster scales.
enum NineSlice {
    /// Maps a coordinate `u` in [0, size] of the stretched axis to [0, natural] of the raster's
    /// axis, with caps `lo` and `hi` (points) kept at their size. Caps that do not fit the
    /// natural size, or then the new size, shrink in proportion, so the map stays monotone.
    static func map(_ u: Double, size: Double, natural: Double, lo: Double, hi: Double) -> Double {
        var l = max(lo, 0), h = max(hi, 0)
        if l + h > natural, l + h > 0 { let f = natural / (l + h); l *= f; h *= f }
        guard l + h > 0 else { return size > 0 ? u * natural / size : 0 }
        var dl = l, dh = h
        if dl + dh > size { let f = size / (dl + dh); dl *= f; dh *= f }
        if u <= dl { return dl > 0 ? u * l / dl : 0 }
        if u >= size - dh { return dh > 0 ? natural - (size - u) * h / dh : natural }
        let middle = size - dl - dh
        return l + (u - dl) * (middle > 0 ? (natural - l - h) / middle : 0)
    }

    /// A raster of `size` points at `scale` showing `source` (which shows `natural` points from
    /// its pixel (0, 0)) stretched with `insets`. Bilinear, clamped at the source's edges, on
    /// premultiplied pixels.
    static func stretch(_ source: RGBAImage, natural: Size, to size: Size, insets: EdgeInsets, scale: Int) -> RGBAImage {
        let sc = Double(scale)
        let w = max(Int((size.width * sc).rounded()), 1), h = max(Int((size.height * sc).rounded()), 1)
        let out = RGBAImage(width: w, height: h)
        let sw = source.width, sh = source.height
        // Source pixel coordinates per destination column and row (pixel centres).
        let xs = (0..<w).map { x in map((Double(x) + 0.5) / sc, size: size.width, natural: natural.width, lo: insets.left, hi: insets.right) * sc - 0.5 }
        let ys = (0..<h).map { y in map((Double(y) + 0.5) / sc, size: size.height, natural: natural.height, lo: insets.top, hi: insets.bottom) * sc - 0.5 }
        func split(_ v: Double, _ n: Int) -> (Int, Int, UInt32) {
            let c = min(max(v, 0), Double(n - 1))
            let i = Int(c.rounded(.down))
            return (i, min(i + 1, n - 1), UInt32(((c - Double(i)) * 256).rounded()))
        }
        let cols = xs.map { split($0, sw) }
        let src = source.data, dst = out.data
        for y in 0..<h {
            let (y0, y1, fy) = split(ys[y], sh)
            let r0 = (src + y0 * source.stride).assumingMemoryBound(to: UInt32.self)
            let r1 = (src + y1 * source.stride).assumingMemoryBound(to: UInt32.self)
            let o = (dst + y * out.stride).assumingMemoryBound(to: UInt32.self)
            for x in 0..<w {
                let (x0, x1, fx) = cols[x]
                o[x] = blend(blend(r0[x0], r0[x1], fx), blend(r1[x0], r1[x1], fx), fy)
            }
        }
        return out
    }

    /// a + (b - a) * f / 256 per 8-bit channel.
    private static func blend(_ a: UInt32, _ b: UInt32, _ f: UInt32) -> UInt32 {
        if f == 0 || a == b { return a }
        if f >= 256 { return b }
        var r: UInt32 = 0
        for shift in stride(from: 0 as UInt32, to: 32, by: 8) {
            let ca = Int((a >> shift) & 0xff), cb = Int((b >> shift) & 0xff)
            let c = ca + ((cb - ca) * Int(f) + 128) >> 8
            r |= UInt32(min(max(c, 0), 255)) << shift
        }
        return r
    }
}
