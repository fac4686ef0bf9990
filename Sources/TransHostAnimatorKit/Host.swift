import CTransHost

/// The host callback table, set by the entry's init. Every kit call goes through it.
nonisolated(unsafe) var hostTable: UnsafePointer<th_host_api>?

@inline(__always) var host: th_host_api {
    guard let hostTable else { fatalError("TransHostAnimatorKit used before the host called the plugin's init") }
    return hostTable.pointee
}

/// Whether the host implements ABI 1.1 callbacks (appended fields).
var hostHasV1_1: Bool { host.abi_minor >= 1 && host.struct_size >= UInt32(MemoryLayout<th_host_api>.size) }

/// Writes to the host's log (prefixed with the plugin's name by the host).
public func TransHostLog(_ message: String) {
    message.withCString { host.log(TH_LOG_INFO, $0) }
}

/// A closure carried through a C `void *user` pointer.
final class ClosureBox {
    let animations: (() -> Void)?
    let completion: ((Bool) -> Void)?
    init(animations: (() -> Void)?, completion: ((Bool) -> Void)?) { self.animations = animations; self.completion = completion }
}

let animationsTrampoline: th_animations_fn = { user in
    guard let user else { return }
    Unmanaged<ClosureBox>.fromOpaque(user).takeUnretainedValue().animations?()
}

/// Runs the completion once and releases the box (retained when the block was submitted).
let completionTrampoline: th_completion_fn = { finished, user in
    guard let user else { return }
    let box = Unmanaged<ClosureBox>.fromOpaque(user).takeRetainedValue()
    box.completion?(finished != 0)
}
