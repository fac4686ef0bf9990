import CTransHost
import TransHostCore
import TransHostCoordinators

extension HostBridge {
    /// View geometry and appearance (model values; inside an animations block a change animates).
    static func installGeometry(into t: inout th_host_api) {
        t.view_frame = { v in bridge()?.view(v, "view_frame").map { rect($0.frame) } ?? th_rect() }
        t.view_set_frame = { v, r in
            guard let b = bridge(), let view = b.view(v, "view_set_frame"), let frame = b.settableRect(r, "view_set_frame") else { return }
            view.frame = frame
        }
        t.view_bounds = { v in bridge()?.view(v, "view_bounds").map { rect($0.bounds) } ?? th_rect() }
        t.view_set_bounds = { v, r in
            guard let b = bridge(), let view = b.view(v, "view_set_bounds"), let bounds = b.settableRect(r, "view_set_bounds") else { return }
            view.bounds = bounds
        }
        t.view_center = { v in bridge()?.view(v, "view_center").map { th_point(x: $0.center.x, y: $0.center.y) } ?? th_point() }
        t.view_set_center = { v, p in
            guard let b = bridge(), let view = b.view(v, "view_set_center"), b.finite([p.x, p.y], "view_set_center") else { return }
            view.center = Point(x: p.x, y: p.y)
        }
        t.view_transform = { v in
            guard let t = bridge()?.view(v, "view_transform")?.transform else { return th_affine(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0) }
            return th_affine(a: t.a, b: t.b, c: t.c, d: t.d, tx: t.tx, ty: t.ty)
        }
        t.view_set_transform = { v, m in
            guard let b = bridge(), let view = b.view(v, "view_set_transform"), b.finite([m.a, m.b, m.c, m.d, m.tx, m.ty], "view_set_transform") else { return }
            view.transform = AffineTransform(a: m.a, b: m.b, c: m.c, d: m.d, tx: m.tx, ty: m.ty)
        }
        t.view_alpha = { v in bridge()?.view(v, "view_alpha")?.alpha ?? 0 }
        t.view_set_alpha = { v, a in
            guard let b = bridge(), let view = b.view(v, "view_set_alpha"), b.finite([a], "view_set_alpha") else { return }
            if a < 0 || a > 1 { b.breach("invalid-value", "view_set_alpha got \(a), outside [0, 1]; it was clamped") }
            view.alpha = min(max(a, 0), 1)
        }

        // ABI 1.1: layer geometry and appearance.
        t.view_anchor_point = { v in bridge()?.view(v, "view_anchor_point").map { th_point(x: $0.anchorPoint.x, y: $0.anchorPoint.y) } ?? th_point() }
        t.view_set_anchor_point = { v, p in
            guard let b = bridge(), let view = b.view(v, "view_set_anchor_point"), b.finite([p.x, p.y], "view_set_anchor_point") else { return }
            view.anchorPoint = Point(x: p.x, y: p.y)
        }
        t.view_transform3d = { v in
            let m = bridge()?.view(v, "view_transform3d")?.transform3D ?? .identity
            return th_transform3d(m11: m.m11, m12: m.m12, m13: m.m13, m14: m.m14, m21: m.m21, m22: m.m22, m23: m.m23, m24: m.m24,
                                  m31: m.m31, m32: m.m32, m33: m.m33, m34: m.m34, m41: m.m41, m42: m.m42, m43: m.m43, m44: m.m44)
        }
        t.view_set_transform3d = { v, m in
            let values = [m.m11, m.m12, m.m13, m.m14, m.m21, m.m22, m.m23, m.m24, m.m31, m.m32, m.m33, m.m34, m.m41, m.m42, m.m43, m.m44]
            guard let b = bridge(), let view = b.view(v, "view_set_transform3d"), b.finite(values, "view_set_transform3d") else { return }
            view.transform3D = Transform3D(values)
        }
        t.view_hidden = { v in bridge()?.view(v, "view_hidden")?.isHidden == true ? 1 : 0 }
        t.view_set_hidden = { v, h in bridge()?.view(v, "view_set_hidden")?.isHidden = h != 0 }
        t.view_set_background_color = { v, c in
            guard let b = bridge(), let view = b.view(v, "view_set_background_color"),
                  b.finite([c.red, c.green, c.blue, c.alpha], "view_set_background_color") else { return }
            func unit(_ x: Double) -> Double { min(max(x, 0), 1) }
            view.backgroundColor = Color(red: unit(c.red), green: unit(c.green), blue: unit(c.blue), alpha: unit(c.alpha))
        }
        t.view_set_corner_radius = { v, r in
            guard let b = bridge(), let view = b.view(v, "view_set_corner_radius"), b.finite([r], "view_set_corner_radius") else { return }
            if r < 0 { b.breach("invalid-value", "view_set_corner_radius got \(r); it was clamped to 0") }
            view.cornerRadius = max(r, 0)
        }
        t.view_set_clips_to_bounds = { v, c in bridge()?.view(v, "view_set_clips_to_bounds")?.clipsToBounds = c != 0 }
    }
}

extension HostBridge {
    /// A frame or bounds from a plugin, or nil (reported) when it is not finite or has a
    /// negative size.
    func settableRect(_ r: th_rect, _ call: String) -> Rect? {
        guard finite([r.x, r.y, r.width, r.height], call) else { return nil }
        guard r.width >= 0, r.height >= 0 else {
            breach("invalid-value", "\(call) got a negative size \(r.width) x \(r.height); the call was ignored")
            return nil
        }
        return rect(r)
    }
}
