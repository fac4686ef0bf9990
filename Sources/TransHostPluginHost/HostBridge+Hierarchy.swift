import CTransHost
import TransHostCore
import TransHostCoordinators

extension HostBridge {
    /// The view hierarchy: adding, inserting, removing, reordering and walking subviews.
    static func installHierarchy(into t: inout th_host_api) {
        t.view_add_subview = { p, c in
            guard let b = bridge(), let parent = b.view(p, "view_add_subview"), let child = b.view(c, "view_add_subview") else { return }
            parent.addSubview(child)
        }
        t.view_insert_subview_at = { p, c, i in
            guard let b = bridge(), let parent = b.view(p, "view_insert_subview_at"), let child = b.view(c, "view_insert_subview_at") else { return }
            parent.insertSubview(child, at: Int(clamping: i))
        }
        t.view_insert_subview_above = { p, c, s in
            guard let b = bridge(), let parent = b.view(p, "view_insert_subview_above"), let child = b.view(c, "view_insert_subview_above"),
                  let sib = b.view(s, "view_insert_subview_above") else { return }
            parent.insertSubview(child, aboveSubview: sib)
        }
        t.view_insert_subview_below = { p, c, s in
            guard let b = bridge(), let parent = b.view(p, "view_insert_subview_below"), let child = b.view(c, "view_insert_subview_below"),
                  let sib = b.view(s, "view_insert_subview_below") else { return }
            parent.insertSubview(child, belowSubview: sib)
        }
        t.view_remove_from_superview = { v in bridge()?.view(v, "view_remove_from_superview")?.removeFromSuperview() }
        t.view_superview = { v in
            guard let b = bridge(), let view = b.view(v, "view_superview"), let s = view.superview else { return nil }
            return b.handles.handle(for: s)
        }

        // ABI 1.1.
        t.view_subview_count = { v in Int64(bridge()?.view(v, "view_subview_count")?.subviews.count ?? 0) }
        t.view_subview_at = { v, i in
            guard let b = bridge(), let view = b.view(v, "view_subview_at") else { return nil }
            guard i >= 0, i < Int64(view.subviews.count) else {
                b.breach("invalid-value", "view_subview_at: index \(i) is outside 0..<\(view.subviews.count); NULL was returned")
                return nil
            }
            return b.handles.handle(for: view.subviews[Int(i)])
        }
        t.view_bring_to_front = { v in
            guard let view = bridge()?.view(v, "view_bring_to_front") else { return }
            view.superview?.bringSubviewToFront(view)
        }
        t.view_send_to_back = { v in
            guard let view = bridge()?.view(v, "view_send_to_back") else { return }
            view.superview?.sendSubviewToBack(view)
        }
    }
}
