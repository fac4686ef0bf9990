#if canImport(Glibc)
import Glibc
#endif

/// A thread of its own for rendering's helpers (the warm-up, a GIF's encoder, the export pool's
/// beside thread), not one of Dispatch's: its global queue may give no more threads than there
/// are cores, and the export pool's workers hold them all while they wait for work.
enum RenderThread {
    private final class Body {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }

    /// Starts `body` on a new thread and returns it (to join or detach); nil when no thread can
    /// start, and `body` is then not run.
    static func start(_ body: @escaping () -> Void) -> pthread_t? {
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        guard pthread_create(&thread, nil, { arg in
            Unmanaged<Body>.fromOpaque(arg!).takeRetainedValue().run()
            return nil
        }, box) == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            return nil
        }
        return thread
    }
}
