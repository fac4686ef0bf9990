import CTransHost

/// The host callback table, set by the entry's init. Every kit call goes through it.
nonisolated(unsafe) var hostTable: UnsafePointer<th_host_api>?

@inline(__always) var host: th_host_api {
    // A plugin's own code runs only inside host calls (init, animator callbacks, blocks), after
    // init stored the table; reaching this without it is a kit bug, not user input.
    guard let hostTable else { preconditionFailure("TransHostAnimatorKit used before the host called the plugin's init") }
    return hostTable.pointee
}

/// Whether the host implements the ABI 1.2 callbacks the kit relies on (appended fields).
func hostCovers(minor: UInt32) -> Bool {
    guard let hostTable else { return false }
    return hostTable.pointee.abi_minor >= minor && hostTable.pointee.struct_size >= UInt32(MemoryLayout<th_host_api>.size)
}

/// Writes to the host's log (prefixed with the plugin's name by the host).
public func TransHostLog(_ message: String) {
    message.withCString { host.log(TH_LOG_INFO, $0) }
}

func kitWarning(_ message: String) {
    guard hostTable != nil else { return }
    message.withCString { host.log(TH_LOG_WARNING, $0) }
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
