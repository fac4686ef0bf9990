extension AnimationEngine {
    /// The window rect a touch on `view` is tested against: its model frame, except while it or
    /// an ancestor is animated by a property animator, which hit-tests what is on screen (UIKit's
    /// UIViewPropertyAnimator with isManualHitTestingEnabled false), so a card grabbed
    /// mid-flight is where the finger sees it.
    public func hitTestFrame(of view: View) -> Rect {
        var chain: [View] = []
        var v: View? = view
        while let cur = v, cur.superview != nil { chain.append(cur); v = cur.superview }
        let animatedByAnimator = chain.contains { c in c.animations.list.contains { $0.group.timeline.progression != nil } }
        guard animatedByAnimator else { return view.convert(view.bounds, to: nil) }
        let b = presentation(of: view).bounds
        var corners = [Point(x: b.minX, y: b.minY), Point(x: b.maxX, y: b.minY), Point(x: b.minX, y: b.maxY), Point(x: b.maxX, y: b.maxY)]
        for c in chain {
            let s = presentation(of: c)
            corners = corners.map { p in
                let local = Point(x: p.x - s.bounds.minX - s.anchorPoint.x * s.bounds.width, y: p.y - s.bounds.minY - s.anchorPoint.y * s.bounds.height)
                let t = s.transform.isIdentity ? local : (s.transform.project(local) ?? local)
                return Point(x: t.x + s.position.x, y: t.y + s.position.y)
            }
        }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        return Rect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }
}
