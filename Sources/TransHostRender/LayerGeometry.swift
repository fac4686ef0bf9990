import TransHostCore

/// How a layer's bounds space maps into its parent's, Core Animation's way, including the
/// parent's sublayerTransform.
///
/// A child at `position` with `transform` about its anchor point lands in the parent's bounds
/// space; the parent's sublayerTransform S then applies about the parent's anchor point `a`:
/// child space -> (- child anchor) -> transform -> (+ position) -> (- a) -> S -> (+ a). The 4x4
/// product is formed before flattening to the plane, because a rotation about Y followed by a
/// perspective couples through z (flattening each factor alone would lose the perspective).
struct SublayerFrame: Equatable {
    /// The parent's sublayerTransform and anchor point in its bounds space.
    var transform: Transform3D
    var anchor: Point

    /// nil when `style` has no sublayer transform (children map as plain subviews).
    init?(_ style: LayerStyle?, bounds: Rect, anchorPoint: Point) {
        guard let t = style?.sublayerTransform, !t.isIdentity, t.isFinite else { return nil }
        transform = t
        anchor = Point(x: bounds.minX + anchorPoint.x * bounds.width, y: bounds.minY + anchorPoint.y * bounds.height)
    }
}

enum LayerGeometry {
    /// A child's bounds space -> its parent's bounds space. Without a sublayer frame this is
    /// exactly `Homography(layerToParent:)`.
    static func toParent(bounds b: Rect, position p: Point, anchorPoint ap: Point, transform t: Transform3D,
                         in frame: SublayerFrame?) -> Homography {
        let ox = b.minX + ap.x * b.width, oy = b.minY + ap.y * b.height
        guard let f = frame else {
            return Homography.translation(-ox, -oy).then(Homography(flattening: t)).then(.translation(p.x, p.y))
        }
        let m = t.concatenating(.translation(p.x - f.anchor.x, p.y - f.anchor.y, 0))
            .concatenating(f.transform)
            .concatenating(.translation(f.anchor.x, f.anchor.y, 0))
        return Homography.translation(-ox, -oy).then(Homography(flattening: m))
    }

    static func toParent(_ s: LayerState, in frame: SublayerFrame?) -> Homography {
        toParent(bounds: s.bounds, position: s.position, anchorPoint: s.anchorPoint, transform: s.transform, in: frame)
    }

    static func toParent(_ s: PresentationState, in frame: SublayerFrame?) -> Homography {
        frame == nil ? Homography(layerToParent: s)
            : toParent(bounds: s.bounds, position: s.position, anchorPoint: s.anchorPoint, transform: s.transform, in: frame)
    }

    /// Whether a layer drawn through `m` shows its back: the map reverses orientation (its
    /// Jacobian, det(m) / W^3, is negative where W > 0), as after a half turn about X or Y.
    static func facesAway(_ m: Homography) -> Bool { m.determinant < 0 }

    /// The image of `r` under `m` as a bounding box, nil when part of it reaches W <= 0.
    static func mappedBox(_ r: Rect, _ m: Homography) -> Rect? {
        var x0 = Double.infinity, y0 = Double.infinity, x1 = -Double.infinity, y1 = -Double.infinity
        for (x, y) in [(r.minX, r.minY), (r.maxX, r.minY), (r.maxX, r.maxY), (r.minX, r.maxY)] {
            guard m.w(x, y) > 0 else { return nil }
            let q = m.apply(x, y)
            x0 = min(x0, q.x); y0 = min(y0, q.y); x1 = max(x1, q.x); y1 = max(y1, q.y)
        }
        guard x0.isFinite, y0.isFinite, x1.isFinite, y1.isFinite else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    static func union(_ a: Rect?, _ b: Rect?) -> Rect? {
        guard let a else { return b }
        guard let b else { return a }
        let x0 = min(a.minX, b.minX), y0 = min(a.minY, b.minY)
        return Rect(x: x0, y: y0, width: max(a.maxX, b.maxX) - x0, height: max(a.maxY, b.maxY) - y0)
    }

    static func intersection(_ a: Rect, _ b: Rect) -> Rect? {
        let x0 = max(a.minX, b.minX), y0 = max(a.minY, b.minY), x1 = min(a.maxX, b.maxX), y1 = min(a.maxY, b.maxY)
        return x1 > x0 && y1 > y0 ? Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) : nil
    }

    /// Where a layer and its sublayers can draw, in its bounds space (nil: nowhere, or not
    /// boundable because a sublayer reaches W <= 0; the caller then uses its region of interest).
    static func extent(_ l: SampledLayer) -> (rect: Rect?, bounded: Bool) {
        let s = l.state
        var r: Rect? = s.bounds.width > 0 && s.bounds.height > 0 ? s.bounds : nil
        if s.masksToBounds { return (r, true) }
        if let shape = s.shape, let path = shape.path, !path.isEmpty, path.isFinite {
            let pad = PathDrawing.strokeOutset(shape) + 1
            let b = path.boundingBox
            r = union(r, Rect(x: b.minX - pad, y: b.minY - pad, width: b.width + 2 * pad, height: b.height + 2 * pad))
        }
        let frame = SublayerFrame(s.style, bounds: s.bounds, anchorPoint: s.anchorPoint)
        for sub in l.sublayers where !sub.state.isHidden {
            let (e, bounded) = extent(sub)
            guard bounded else { return (r, false) }
            guard let e else { continue }
            guard let m = mappedBox(e, toParent(sub.state, in: frame)) else { return (r, false) }
            r = union(r, m)
        }
        return (r, true)
    }
}
