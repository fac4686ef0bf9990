/// Cuts the destination rectangle of a perspective layer into tiles on which an affine map
/// approximates the homography closely enough to draw on pixman's affine path (~2 ns/px,
/// against ~30-40 ns/px for its projective path).
///
/// Per tile: fit an affine map to the destination->source homography by least squares on a
/// 3x3 grid of pixel centres; measure the error in *destination* pixels on a 5x5 grid (map the
/// approximated source point forward again and compare); if it is above `maxError`, halve the
/// tile across the direction in which the homography bends more. Tiles that reach `minSide`
/// without meeting the bound (near the horizon) use the exact projective map. For a rotation
/// about Y the map bends only along x, so this yields vertical strips.
public enum ProjectiveTiler {
    public struct Tile: Equatable {
        public var rect: PixelRect
        /// The destination->source affine approximation, or nil for "use the exact map".
        public var affine: Homography?
    }

    public static let minSide = 8
    public static let maxTiles = 4096

    public static func tiles(inverse inv: Homography, forward fwd: Homography, rect: PixelRect, maxError: Double) -> [Tile] {
        var out: [Tile] = []
        var stack = [rect]
        while let r = stack.popLast() {
            if r.isEmpty { continue }
            let a = affineFit(inv, r)
            let err = error(a, fwd: fwd, inv: inv, r)
            if err <= maxError { out.append(Tile(rect: r, affine: a)); continue }
            let canSplitX = r.width > minSide, canSplitY = r.height > minSide
            if (!canSplitX && !canSplitY) || out.count + stack.count >= maxTiles {
                out.append(Tile(rect: r, affine: nil)); continue
            }
            // Split across the axis whose halves come out more nearly affine. (Comparing edge
            // bends is not enough: under a rotation about Y the vertical edges stay straight,
            // yet tall tiles fail on the x*y term an affine map cannot express.)
            let splitX: Bool
            if canSplitX && canSplitY {
                let mx = r.x0 + r.width / 2, my = r.y0 + r.height / 2
                func worst(_ a: PixelRect, _ b: PixelRect) -> Double {
                    max(error(affineFit(inv, a), fwd: fwd, inv: inv, a), error(affineFit(inv, b), fwd: fwd, inv: inv, b))
                }
                let ex = worst(PixelRect(x0: r.x0, y0: r.y0, x1: mx, y1: r.y1), PixelRect(x0: mx, y0: r.y0, x1: r.x1, y1: r.y1))
                let ey = worst(PixelRect(x0: r.x0, y0: r.y0, x1: r.x1, y1: my), PixelRect(x0: r.x0, y0: my, x1: r.x1, y1: r.y1))
                splitX = ex < ey || (ex == ey && r.width >= r.height)
            } else {
                splitX = canSplitX
            }
            if splitX {
                let m = r.x0 + r.width / 2
                stack.append(PixelRect(x0: m, y0: r.y0, x1: r.x1, y1: r.y1))
                stack.append(PixelRect(x0: r.x0, y0: r.y0, x1: m, y1: r.y1))
            } else {
                let m = r.y0 + r.height / 2
                stack.append(PixelRect(x0: r.x0, y0: m, x1: r.x1, y1: r.y1))
                stack.append(PixelRect(x0: r.x0, y0: r.y0, x1: r.x1, y1: m))
            }
        }
        return out
    }

    /// Pixel-centre sample coordinates across [lo, hi) in `n` steps.
    private static func samples(_ lo: Int, _ hi: Int, _ n: Int) -> [Double] {
        let a = Double(lo) + 0.5, b = Double(hi) - 0.5
        if b <= a { return Array(repeating: (a + b) / 2, count: n) }
        return (0..<n).map { a + (b - a) * Double($0) / Double(n - 1) }
    }

    /// Least-squares affine fit of `inv` on a 3x3 grid of the rectangle's pixel centres (the
    /// grid is symmetric, so the normal equations decouple).
    public static func affineFit(_ inv: Homography, _ r: PixelRect) -> Homography {
        let xs = samples(r.x0, r.x1, 3), ys = samples(r.y0, r.y1, 3)
        let cx = xs[1], cy = ys[1]
        var su = 0.0, sv = 0.0, sux = 0.0, svx = 0.0, suy = 0.0, svy = 0.0, sxx = 0.0, syy = 0.0
        for y in ys {
            for x in xs {
                let p = inv.apply(x, y)
                let dx = x - cx, dy = y - cy
                su += p.x; sv += p.y
                sux += p.x * dx; svx += p.y * dx; suy += p.x * dy; svy += p.y * dy
                sxx += dx * dx; syy += dy * dy
            }
        }
        let ux = sxx > 0 ? sux / sxx : 0, vx = sxx > 0 ? svx / sxx : 0
        let uy = syy > 0 ? suy / syy : 0, vy = syy > 0 ? svy / syy : 0
        let u0 = su / 9 - ux * cx - uy * cy, v0 = sv / 9 - vx * cx - vy * cy
        // Row-vector form: u = a x + d y + g, v = b x + e y + h.
        return Homography(a: ux, b: vx, c: 0, d: uy, e: vy, f: 0, g: u0, h: v0, i: 1)
    }

    /// Largest destination-space error of `a` on a 5x5 grid of pixel centres (infinite where
    /// the exact map is undefined or behind the eye).
    public static func error(_ a: Homography, fwd: Homography, inv: Homography, _ r: PixelRect) -> Double {
        var worst = 0.0
        for y in samples(r.y0, r.y1, 5) {
            for x in samples(r.x0, r.x1, 5) {
                if inv.w(x, y) == 0 { return .infinity }
                let s = a.apply(x, y)
                let w = fwd.w(s.x, s.y)
                if !(w > 0) { return .infinity }
                let q = fwd.apply(s.x, s.y)
                let e = ((q.x - x) * (q.x - x) + (q.y - y) * (q.y - y)).squareRoot()
                if !e.isFinite { return .infinity }
                worst = max(worst, e)
            }
        }
        return worst
    }
}
