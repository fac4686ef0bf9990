import CRenderKernels
import TransHostSupport
#if canImport(Glibc)
import Glibc
#endif

/// A GIF's frames encoded on a thread of their own while the caller draws the next frame, when
/// a core would otherwise wait (a run of one transition, or the last of a run): quantising,
/// LZW coding and writing a frame take a third of a transition's time or more.
///
/// One frame at a time: the caller hands over a frame (its changed pixels copied into a
/// staging raster, since the caller draws the next frame into its own) only once the one
/// before is written, and whether a frame is handed over or encoded by the caller, frames are
/// encoded one after another in order. The bytes are the same either way.
///
/// The thread and the staging raster are made on first use, so a GIF written while every core
/// is busy costs neither.
final class GIFEncodeThread: @unchecked Sendable {
    /// Guards the fields below; signalled when `job` or `stopping` changes.
    private let state = ConditionLock()
    private var job: (() throws -> Void)?
    private var failure: Error?
    private var stopping = false
    private var thread: pthread_t?
    private var staging: RGBAImage?
    let width: Int, height: Int

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    deinit { stop() }

    /// Whether handing a frame over now would use a core that is free (no other renderer
    /// holds it).
    static var coreIsFree: Bool { th_render_may_band() != 0 }

    /// Blocks until the frame handed over last is written; throws what writing it threw.
    func waitIdle() throws {
        state.lock()
        while job != nil { state.wait() }
        let error = failure
        failure = nil
        state.unlock()
        if let error { throw error }
    }

    /// Copies `rect` of `image` into the staging raster and runs `encode` with it on the
    /// thread; false (nothing done) when the thread cannot start. `encode` must read nothing
    /// of the raster outside `rect` (elsewhere it holds whatever earlier frames left). Call
    /// after waitIdle.
    func handOver(_ image: RGBAImage, rect: PixelRect, _ encode: @escaping (RGBAImage) throws -> Void) -> Bool {
        guard start() else { return false }
        let staged = staging ?? RGBAImage(width: width, height: height, zeroed: false)
        staging = staged
        let r = rect.intersection(PixelRect(x0: 0, y0: 0, x1: width, y1: height))
        if !r.isEmpty {
            for y in r.y0..<r.y1 {
                (staged.data + y * staged.stride + r.x0 * 4).copyMemory(from: image.data + y * image.stride + r.x0 * 4, byteCount: r.width * 4)
            }
        }
        state.lock()
        job = { try encode(staged) }
        state.broadcast()
        state.unlock()
        return true
    }

    /// Waits for the last frame, then ends the thread; throws what writing it threw.
    func finish() throws {
        defer { stop() }
        try waitIdle()
    }

    private func start() -> Bool {
        if thread == nil { thread = RenderThread.start { self.work() } }
        return thread != nil
    }

    private func work() {
        state.lock()
        while true {
            while job == nil && !stopping { state.wait() }
            guard let next = job else { break }
            state.unlock()
            // Counted as a renderer while it encodes: the drawing thread's loops then leave
            // this core to it instead of splitting their rows onto it.
            th_render_busy_enter()
            var error: Error?
            do { try next() } catch let e { error = e }
            th_render_busy_leave()
            state.lock()
            if failure == nil { failure = error }
            job = nil
            state.broadcast()
        }
        state.unlock()
    }

    /// Ends the thread once the frame it holds (if any) is written; what writing it threw is
    /// dropped (the caller is already leaving on an error of its own). Idempotent.
    func stop() {
        guard let t = thread else { return }
        state.lock()
        stopping = true
        state.broadcast()
        state.unlock()
        pthread_join(t, nil)
        thread = nil
    }
}
