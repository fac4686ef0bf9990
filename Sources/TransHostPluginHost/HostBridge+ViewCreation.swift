import CTransHost
import TransHostCore
import TransHostCoordinators

extension HostBridge {
    /// Creating and finding views (ABI 1.1): new views, snapshots, lookup by name, conversion.
    static func installViewCreation(into t: inout th_host_api) {
        t.view_create = { r in
            guard let b = bridge(), b.finite([r.x, r.y, r.width, r.height], "view_create") else { return nil }
            let view = View(engine: b.engine, frame: Rect(x: r.x, y: r.y, width: max(r.width, 0), height: max(r.height, 0)),
                            name: "\(b.currentPlugin) view")
            return b.handles.handle(for: view)
        }
        t.view_snapshot = { v, after in
            guard let b = bridge(), let view = b.view(v, "view_snapshot") else { return nil }
            return b.handles.handle(for: view.snapshotView(afterScreenUpdates: after != 0))
        }
        t.view_resizable_snapshot = { v, r, after, insets in
            guard let b = bridge(), let view = b.view(v, "view_resizable_snapshot"),
                  b.finite([r.x, r.y, r.width, r.height, insets.top, insets.left, insets.bottom, insets.right], "view_resizable_snapshot") else { return nil }
            let snap = view.resizableSnapshotView(from: Rect(x: r.x, y: r.y, width: max(r.width, 0), height: max(r.height, 0)),
                                                  afterScreenUpdates: after != 0,
                                                  withCapInsets: EdgeInsets(top: insets.top, left: insets.left, bottom: insets.bottom, right: insets.right))
            return b.handles.handle(for: snap)
        }
        t.view_find_named = { v, name in
            guard let b = bridge(), let root = b.view(v, "view_find_named") else { return nil }
            guard let name else { b.breach("invalid-value", "view_find_named got a NULL name; NULL was returned"); return nil }
            let wanted = String(cString: name)
            func find(_ view: View) -> View? {
                if view.name == wanted { return view }
                for s in view.subviews { if let f = find(s) { return f } }
                return nil
            }
            return find(root).map { b.handles.handle(for: $0) }
        }
        t.view_convert_rect = { f, r, to in
            guard let b = bridge(), let from = b.view(f, "view_convert_rect") else { return r }
            let target: View? = to == nil ? nil : b.view(to, "view_convert_rect")
            if to != nil && target == nil { return r }
            return rect(from.convert(rect(r), to: target))
        }
    }
}
