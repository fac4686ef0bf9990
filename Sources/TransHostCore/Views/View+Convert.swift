extension View {
    /// Maps a point of this view's bounds space into its superview's space (model values):
    /// relative to the anchor, through the layer transform, then offset by the position.
    func pointToSuperview(_ p: Point) -> Point {
        let local = Point(x: p.x - model.bounds.minX - model.anchorPoint.x * model.bounds.width, y: p.y - model.bounds.minY - model.anchorPoint.y * model.bounds.height)
        let t = model.transform.isIdentity ? local : (model.transform.project(local) ?? local)
        return Point(x: t.x + model.position.x, y: t.y + model.position.y)
    }

    /// The inverse of `pointToSuperview` for the transform's affine part (an exact inverse for
    /// affine transforms; perspective is ignored on the way back).
    func pointFromSuperview(_ p: Point) -> Point {
        var q = Point(x: p.x - model.position.x, y: p.y - model.position.y)
        if !model.transform.isIdentity {
            let a = model.transform.affine
            let det = a.a * a.d - a.b * a.c
            if det != 0 {
                let x = q.x - a.tx, y = q.y - a.ty
                q = Point(x: (a.d * x - a.c * y) / det, y: (-a.b * x + a.a * y) / det)
            }
        }
        return Point(x: q.x + model.bounds.minX + model.anchorPoint.x * model.bounds.width, y: q.y + model.bounds.minY + model.anchorPoint.y * model.bounds.height)
    }

    /// convert(_:to:): a rect of this view's bounds space in `view`'s bounds space (nil: the
    /// root of this view's hierarchy). Transforms make it the bounding box of the mapped corners.
    public func convert(_ rect: Rect, to view: View?) -> Rect {
        let corners = [Point(x: rect.minX, y: rect.minY), Point(x: rect.maxX, y: rect.minY),
                       Point(x: rect.minX, y: rect.maxY), Point(x: rect.maxX, y: rect.maxY)]
        var mapped = corners.map { c -> Point in
            var p = c
            var v: View? = self
            while let cur = v, cur.superview != nil { p = cur.pointToSuperview(p); v = cur.superview }
            return p
        }
        if let view {
            var chain: [View] = []
            var v: View? = view
            while let cur = v, cur.superview != nil { chain.append(cur); v = cur.superview }
            mapped = mapped.map { p in chain.reversed().reduce(p) { $1.pointFromSuperview($0) } }
        }
        let xs = mapped.map(\.x), ys = mapped.map(\.y)
        return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }
}
