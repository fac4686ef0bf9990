/// Opaque handles given to plugins. A handle is a small, never-dereferenced integer disguised as
/// a pointer; looking one up checks its kind, so a stale or forged handle is reported instead of
/// crashing the host.
///
/// Numbers are never reused within a process, not even by a later run's table: a plugin stays
/// loaded from one run to the next (validate, the gallery, tests), and the kit keeps one object
/// per handle, so a reused number would hand a new run the object of an old one (an ended
/// transition context, whose coordinator then refuses alongside animations).
final class HandleTable {
    private var objects: [UInt: AnyObject] = [:]
    private var handles: [ObjectIdentifier: UInt] = [:]
    /// The last number given out in this process. Tables are used on the main thread only.
    nonisolated(unsafe) private static var last: UInt = 0x1000

    func handle(for object: AnyObject) -> OpaquePointer {
        let key = ObjectIdentifier(object)
        if let h = handles[key] { return OpaquePointer(bitPattern: h)! }
        HandleTable.last += 0x10
        let next = HandleTable.last
        objects[next] = object
        handles[key] = next
        return OpaquePointer(bitPattern: next)!
    }

    func object<T: AnyObject>(_ handle: OpaquePointer?, as: T.Type) -> T? {
        guard let handle else { return nil }
        return objects[UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(handle)))] as? T
    }
}
