import CTransHost
import TransHostCore
import TransHostCoordinators

/// C has no closures: every callback finds the session through HostBridge.current.
func bridge() -> HostBridge? { HostBridge.current }

func rect(_ r: Rect) -> th_rect { th_rect(x: r.minX, y: r.minY, width: r.width, height: r.height) }
func rect(_ r: th_rect) -> Rect { Rect(x: r.x, y: r.y, width: r.width, height: r.height) }

/// The callback table is assembled from one group per file (HostBridge+Context.swift, ...): a new
/// ABI minor version adds its callbacks to the group they belong to, or a new group file whose
/// install function is called here.
extension HostBridge {
    static func makeTable() -> th_host_api {
        var t = th_host_api()
        t.struct_size = UInt32(MemoryLayout<th_host_api>.size)
        t.abi_major = UInt32(TH_ABI_MAJOR)
        t.abi_minor = UInt32(TH_ABI_MINOR)
        installHostServices(into: &t)
        installContext(into: &t)
        installControllers(into: &t)
        installHierarchy(into: &t)
        installGeometry(into: &t)
        installViewCreation(into: &t)
        installAnimation(into: &t)
        addVersion1_2(&t)
        addVersion1_3(&t)
        return t
    }

    /// Extension tables and logging.
    static func installHostServices(into t: inout th_host_api) {
        t.get_extension = { id in
            guard let id else { return nil }
            return HostBridge.extensionTable(String(cString: id))
        }
        t.log = { level, msg in
            guard let b = bridge(), let msg else { return }
            let names = ["debug", "info", "warning", "error"]
            let l = Int(level.rawValue)
            b.logHandler("[\(b.currentPlugin)] \(l < names.count ? names[l] : "log"): \(String(cString: msg))")
        }
    }
}
