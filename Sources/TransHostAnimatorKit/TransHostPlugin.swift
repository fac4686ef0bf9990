import CTransHost
#if canImport(Glibc)
import Glibc
#endif

/// A Swift plugin's animators. The plugin declares them once:
///
///     @_cdecl("th_swift_plugin_make")
///     public func makePlugin() -> UnsafeMutableRawPointer { TransHostPlugin(MyAnimator()).export() }
///
/// and its one-line C entry (transhost_swift.h) does the rest.
public final class TransHostPlugin {
    let animators: [UIViewControllerAnimatedTransitioning]
    /// C descriptions of the animators, allocated once and kept until deinit.
    var tables: [String: UnsafeMutablePointer<th_animator>] = [:]

    public init(_ animators: UIViewControllerAnimatedTransitioning...) { self.animators = animators }
    public init(animators: [UIViewControllerAnimatedTransitioning]) { self.animators = animators }

    /// Hands the plugin to the kit (ownership passes with the pointer).
    public func export() -> UnsafeMutableRawPointer { Unmanaged.passRetained(self).toOpaque() }

    func table(for id: String) -> UnsafePointer<th_animator>? {
        if let t = tables[id] { return UnsafePointer(t) }
        guard let animator = animators.first(where: { $0.identifier == id }) else { return nil }
        let t = UnsafeMutablePointer<th_animator>.allocate(capacity: 1)
        t.initialize(to: th_animator(
            struct_size: UInt32(MemoryLayout<th_animator>.size),
            id: UnsafePointer(strdup(id)),
            transition_duration: { me, ctx in
                guard let me, let ctx else { return 0 }
                let a = Unmanaged<AnyObject>.fromOpaque(me.pointee.user!).takeUnretainedValue() as! UIViewControllerAnimatedTransitioning
                return a.transitionDuration(using: UIViewControllerContextTransitioning(handle: ctx))
            },
            animate_transition: { me, ctx in
                guard let me, let ctx else { return }
                let a = Unmanaged<AnyObject>.fromOpaque(me.pointee.user!).takeUnretainedValue() as! UIViewControllerAnimatedTransitioning
                a.animateTransition(using: UIViewControllerContextTransitioning(handle: ctx))
            },
            animation_ended: { me, completed in
                guard let me else { return }
                let a = Unmanaged<AnyObject>.fromOpaque(me.pointee.user!).takeUnretainedValue() as! UIViewControllerAnimatedTransitioning
                a.animationEnded(completed != 0)
            },
            user: Unmanaged.passUnretained(animator as AnyObject).toOpaque()))
        tables[id] = t
        return UnsafePointer(t)
    }
}

nonisolated(unsafe) private var currentPlugin: TransHostPlugin?

@_cdecl("th_swift_kit_init")
public func th_swift_kit_init(_ table: UnsafePointer<th_host_api>?, _ name: UnsafePointer<CChar>?,
                              _ make: (@convention(c) () -> UnsafeMutableRawPointer?)?) -> Int32 {
    guard let table, table.pointee.abi_major == UInt32(TH_ABI_MAJOR) else { return 1 }
    hostTable = table
    guard hostHasV1_1 else {
        TransHostLog("this plugin needs transhost ABI \(TH_ABI_MAJOR).\(TH_ABI_MINOR) callbacks; the host offers \(table.pointee.abi_major).\(table.pointee.abi_minor)")
        return 2
    }
    guard let make, let raw = make() else { return 3 }
    currentPlugin = Unmanaged<TransHostPlugin>.fromOpaque(raw).takeRetainedValue()
    return 0
}

@_cdecl("th_swift_kit_deinit")
public func th_swift_kit_deinit() {
    // The tables stay allocated: the host never dlcloses a Swift plugin.
    currentPlugin = nil
    hostTable = nil
}

@_cdecl("th_swift_kit_get_animator")
public func th_swift_kit_get_animator(_ id: UnsafePointer<CChar>?) -> UnsafePointer<th_animator>? {
    guard let id else { return nil }
    return currentPlugin?.table(for: String(cString: id))
}
