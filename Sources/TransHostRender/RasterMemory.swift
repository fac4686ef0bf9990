#if canImport(Glibc)
import CRenderKernels
import Glibc
#endif

/// The pages of frame-sized rasters, kept a while after their image is freed so the next
/// raster of about the same size reuses them.
///
/// A transition allocates several such rasters a frame (content drawn at an animated size,
/// groups, stretched snapshots). Each fresh mapping costs clearing its pages (faulted in at once,
/// see take), and each unmapping a TLB flush on every core running the process; a reused mapping
/// costs one memset of the bytes asked for. On the gallery this halves the page faults and
/// saves about 8% of the CPU time.
///
/// Mappings are rounded up to 64 KiB and reused only for a request at least four fifths their
/// size, so a small raster never pins a large mapping. At most `budget` bytes wait for reuse
/// (oldest unmapped first), which bounds what this adds to peak memory: 48 MiB, sixteen @2x or
/// seven @3x phone frames (2.9 and 6.6 MB), enough for the rasters two transitions drawn side
/// by side let go of. Against 8 MiB it saves a third of the gallery's system time. Against
/// 24 MiB, 32 MiB had the gallery map about half as many bytes afresh (62 against 120 MB,
/// replaying its takes and gives) and take about 3% less time and CPU. 48 MiB gained little
/// more while every group raster was cleared when taken; since opaque groups are not (a reused
/// mapping then costs nothing), it maps 28 against 71 MiB afresh and, 25 interleaved runs each,
/// took 780.8 against 795.1 ms (CPU 1479.3 against 1528.4 ms). The peak at @3x grows by up to
/// 12 MB (sheet-drag; half-sheet, the largest, 99 -> 102.5 MB; @3x transitions take turns).
/// Thread-safe: the export pool renders on every core.
final class RasterMemory: @unchecked Sendable {
    static let shared = RasterMemory(budget: 48 << 20)

    /// Bytes kept for reuse at most.
    let budget: Int
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// Mappings waiting for reuse; `zero` when no raster has used it yet (its pages are still
    /// the kernel's zeros).
    private var spare: [(pointer: UnsafeMutableRawPointer, capacity: Int, zero: Bool)] = []
    private var spareBytes = 0
    /// Requests served from a spare mapping, and by a new one (for tests and benchmarks).
    private(set) var reused = 0, mapped = 0
    /// Mappings made ahead by `prefill` (for tests and benchmarks).
    private(set) var prefilled = 0

    init(budget: Int) {
        self.budget = budget
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        for s in spare { munmap(s.pointer, s.capacity) }
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    static let granule = 64 << 10

    /// Zeroed memory (or, `zeroed` false, a reused mapping as it was left) for at least
    /// `bytes` bytes, and its capacity (give both back to `give`); nil when the system has none.
    func take(bytes: Int, zeroed: Bool = true) -> (pointer: UnsafeMutableRawPointer, capacity: Int)? {
        let capacity = (bytes + Self.granule - 1) / Self.granule * Self.granule
        pthread_mutex_lock(mutex)
        var best = -1
        for (i, s) in spare.enumerated() where s.capacity >= capacity && s.capacity * 4 <= capacity * 5 {
            if best < 0 || s.capacity < spare[best].capacity { best = i }
        }
        if best >= 0 {
            let s = spare.remove(at: best)
            spareBytes -= s.capacity
            reused += 1
            pthread_mutex_unlock(mutex)
            if zeroed && !s.zero { s.pointer.initializeMemory(as: UInt8.self, repeating: 0, count: bytes) }
            return (s.pointer, s.capacity)
        }
        mapped += 1
        pthread_mutex_unlock(mutex)
        guard let p = Self.map(capacity) else { return nil }
        return (p, capacity)
    }

    /// Maps `count` zeroed mappings for rasters of `bytes` bytes ahead of their use, as far as
    /// the budget allows: a run calls it while its scenarios are played (RenderWarmUp), so the
    /// kernel clears those pages on a core that would wait, instead of on the rendering ones
    /// when a transition takes its first rasters. It stops early once `stop` says so (rendering
    /// has begun: mapping then holds up the renderers' own mappings, and takes their cores).
    func prefill(bytes: Int, count: Int, until stop: () -> Bool = { false }) {
        let capacity = (bytes + Self.granule - 1) / Self.granule * Self.granule
        for _ in 0..<count {
            if stop() { return }
            pthread_mutex_lock(mutex)
            let fits = spareBytes + capacity <= budget
            pthread_mutex_unlock(mutex)
            guard fits, let p = Self.map(capacity) else { return }
            pthread_mutex_lock(mutex)
            let kept = spareBytes + capacity <= budget
            if kept {
                spare.append((p, capacity, true))
                spareBytes += capacity
                prefilled += 1
            }
            pthread_mutex_unlock(mutex)
            if !kept { munmap(p, capacity); return }
        }
    }

    /// Every page written at once (th_map_zeroed_pages): pages that fault in one by one are
    /// first mapped to the shared zero page when read (a composite reads what it draws over),
    /// and the write that follows copies it and flushes the TLB of every core running the
    /// process. On the gallery the page faults fall from about 138k to 29k and the CPU time by a
    /// sixth. Whole 2 MiB stretches are asked for as huge pages (see th_map_zeroed_pages):
    /// clearing a fresh page is most of a mapping's cost, and a huge page the kernel has used
    /// before costs about a fifth of its 512 small ones (the gallery: about 5% less time and CPU).
    private static func map(_ capacity: Int) -> UnsafeMutableRawPointer? {
        th_map_zeroed_pages(capacity)
    }

    /// The bytes of the mappings kept for reuse now (for tests).
    var keptBytes: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return spareBytes
    }

    /// Unmaps every spare mapping (the next `take` maps afresh).
    func releaseSpares() {
        pthread_mutex_lock(mutex)
        let unmap = spare
        spare = []
        spareBytes = 0
        pthread_mutex_unlock(mutex)
        for s in unmap { munmap(s.pointer, s.capacity) }
    }

    /// Memory from `take`, no longer used.
    func give(_ pointer: UnsafeMutableRawPointer, capacity: Int) {
        var unmap: [(pointer: UnsafeMutableRawPointer, capacity: Int, zero: Bool)] = []
        pthread_mutex_lock(mutex)
        if capacity > budget {
            unmap.append((pointer, capacity, false))
        } else {
            spare.append((pointer, capacity, false))
            spareBytes += capacity
            while spareBytes > budget {
                let s = spare.removeFirst()
                spareBytes -= s.capacity
                unmap.append(s)
            }
        }
        pthread_mutex_unlock(mutex)
        for s in unmap { munmap(s.pointer, s.capacity) }
    }
}

/// Zeroed scratch memory for a picture's encoder (a GIF's frame so far, its indices, its
/// codes): large blocks come from RasterMemory, as rasters do, so a transition's buffers reuse
/// the mappings the one before it let go of instead of faulting in fresh pages.
final class ScratchMemory {
    let pointer: UnsafeMutableRawPointer
    let bytes: Int
    private let capacity: Int

    /// `zeroed` false: whatever a reused mapping held, for a buffer written before it is read.
    init(bytes: Int, zeroed: Bool = true) {
        self.bytes = bytes
        if bytes >= RGBAImage.mappedBytes, let m = RasterMemory.shared.take(bytes: bytes, zeroed: zeroed) {
            pointer = m.pointer
            capacity = m.capacity
        } else {
            pointer = UnsafeMutableRawPointer.allocate(byteCount: max(bytes, 1), alignment: 64)
            pointer.initializeMemory(as: UInt8.self, repeating: 0, count: max(bytes, 1))
            capacity = 0
        }
    }

    deinit {
        if capacity > 0 { RasterMemory.shared.give(pointer, capacity: capacity) } else { pointer.deallocate() }
    }
}

/// Lets go of what pictures keep for reuse (RasterMemory's spare mappings, GIFCoders' tables)
/// once a run will draw no more, on a thread of its own while the run writes its reports: the
/// process's exit, which whoever started it waits for, then has that much less memory to free.
/// Pictures drawn later (a --watch run's next round) map it again.
public final class PictureMemoryRelease: @unchecked Sendable {
    private var thread: pthread_t?

    /// Starts releasing; when no thread can start, releases here.
    public init() {
        let release = {
            RasterMemory.shared.releaseSpares()
            GIFCoders.shared.releaseIdle()
        }
        thread = RenderThread.start(release)
        if thread == nil { release() }
    }

    /// Blocks until it is done. Call it once, before the process exits.
    public func wait() {
        guard let t = thread else { return }
        thread = nil
        pthread_join(t, nil)
    }
}
