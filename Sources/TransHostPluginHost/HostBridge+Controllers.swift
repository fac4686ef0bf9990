import CTransHost
import TransHostCore
import TransHostCoordinators

extension HostBridge {
    /// View controllers: their root view and type name.
    static func installControllers(into t: inout th_host_api) {
        t.controller_view = { vc in
            guard let b = bridge(), let v = b.controller(vc, "controller_view") else { return nil }
            return b.handles.handle(for: v.view)
        }
        t.controller_type = { vc in
            guard let b = bridge(), let v = b.controller(vc, "controller_type") else { return nil }
            return b.typeName(v.typeName)
        }
    }
}
