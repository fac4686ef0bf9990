/// Opaque handles given to plugins. A handle is a small, never-dereferenced integer disguised as
/// a pointer; looking one up checks its kind, so a stale or forged handle is reported instead of
/// crashing the host.
final class HandleTable {
    private var objects: [UInt: AnyObject] = [:]
    private var handles: [ObjectIdentifier: UInt] = [:]
    private var next: UInt = 0x1000

    func handle(for object: AnyObject) -> OpaquePointer {
        let key = ObjectIdentifier(object)
        if let h = handles[key] { return OpaquePointer(bitPattern: h)! }
        next += 0x10
        objects[next] = object
        handles[key] = next
        return OpaquePointer(bitPattern: next)!
    }

    func object<T: AnyObject>(_ handle: OpaquePointer?, as: T.Type) -> T? {
        guard let handle else { return nil }
        return objects[UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle)))] as? T
    }
}
