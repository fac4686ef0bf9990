import Glibc
import TransHostCore

/// A layer's clip outline in destination pixels: its bounds rectangle, or the rounded
/// rectangle when it has a corner radius, as a convex polygon.
///
/// The rounded rectangle is flattened in the layer's own space and its vertices are mapped
/// through the layer's homography: a homography maps lines to lines and keeps a convex shape
/// convex where W > 0, so the polygon's image is the flattened image of the rounded shape and
/// the renderer's convex clip machinery (Sutherland-Hodgman, antialiased triangle masks)
/// applies unchanged. Each quarter circle gets enough segments that the chord stays within
/// `tolerance` destination pixels of the arc, below the mask rasterizer's own sampling step.
enum RoundedOutline {
    static let tolerance = 0.05
    static let maxSegmentsPerCorner = 128

    /// The radius Core Animation draws: at most half the shorter side.
    static func effectiveRadius(bounds: Rect, cornerRadius: Double) -> Double {
        let r = min(cornerRadius, bounds.width / 2, bounds.height / 2)
        return r.isFinite && r > 0 ? r : 0
    }

    /// The outline in the layer's bounds space, clockwise on screen (y down), starting at the
    /// top edge. With radius 0 it is the four corners.
    static func local(_ b: Rect, radius r: Double, segmentsPerCorner n: Int) -> [Vec2] {
        guard r > 0, n > 0 else {
            return [Vec2(b.minX, b.minY), Vec2(b.maxX, b.minY), Vec2(b.maxX, b.maxY), Vec2(b.minX, b.maxY)]
        }
        // Corner centres and the angle each quarter starts at (y down: -pi/2 is up).
        let corners: [(Double, Double, Double)] = [
            (b.maxX - r, b.minY + r, -Double.pi / 2),
            (b.maxX - r, b.maxY - r, 0),
            (b.minX + r, b.maxY - r, Double.pi / 2),
            (b.minX + r, b.minY + r, Double.pi),
        ]
        var out: [Vec2] = []
        out.reserveCapacity(4 * (n + 1))
        for (cx, cy, a0) in corners {
            for k in 0...n {
                let a = a0 + Double.pi / 2 * Double(k) / Double(n)
                out.append(Vec2(cx + r * cos(a), cy + r * sin(a)))
            }
        }
        return out
    }

    /// Segments per quarter circle of radius `r` points under `localToDest`, from the largest
    /// stretch of the layer's edges (doubled under perspective, where the near side magnifies).
    static func segments(radius r: Double, bounds b: Rect, localToDest m: Homography) -> Int {
        let pts = [Vec2(b.minX, b.minY), Vec2(b.maxX, b.minY), Vec2(b.maxX, b.maxY), Vec2(b.minX, b.maxY)]
        var stretch = 0.0
        for k in 0..<4 {
            let p = pts[k], q = pts[(k + 1) % 4]
            guard m.w(p.x, p.y) > 0, m.w(q.x, q.y) > 0 else { stretch = .infinity; break }
            let mp = m.apply(p), mq = m.apply(q)
            let local = hypot(q.x - p.x, q.y - p.y), dest = hypot(mq.x - mp.x, mq.y - mp.y)
            if local > 0 { stretch = max(stretch, dest / local) }
        }
        if !m.isAffine { stretch *= 2 }
        let rp = r * stretch
        guard rp.isFinite else { return maxSegmentsPerCorner }
        guard rp > tolerance else { return 1 }
        let step = 2 * acos(1 - tolerance / rp)
        return min(max(Int((Double.pi / 2 / step).rounded(.up)), 1), maxSegmentsPerCorner)
    }
}
