#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The pages of large rasters that were freed, kept for the next rasters of about their size.
///
/// A frame that builds snapshots and groups allocates a dozen screen-sized rasters at once, and
/// freshly mapped memory costs a page fault (and the kernel's zeroing) per 4 KiB the first time
/// it is written: at @3x that was three quarters of a transition's first frame. A raster freed
/// here is unmapped only when the pool is over its budget, so the next raster of its size costs
/// one memset instead. The pool is bounded (at most `budgetBytes`, the least recently freed
/// pages going first), so memory still returns to the system and does not grow with the number
/// of transitions rendered. Every raster still starts all zero.
enum RasterPool {
    /// Bytes of freed rasters kept at most.
    static let budgetBytes = 32 << 20
    /// Mappings are made in whole multiples of this, so rasters of nearly the same size share.
    static let granule = 64 << 10

    /// A mapping's address as a number: the pool only hands it out again, never reads it.
    private struct Mapping {
        var address: UInt
        var capacity: Int
        var base: UnsafeMutableRawPointer { UnsafeMutableRawPointer(bitPattern: address)! }
    }

    private struct State {
        /// Least recently freed first.
        var free: [Mapping] = []
        var bytes = 0
    }

    private static let state = Mutex(State())

    /// The capacity a raster of `bytes` is mapped with.
    static func capacity(for bytes: Int) -> Int { (bytes + granule - 1) / granule * granule }

    /// Zeroed memory for `bytes` (and its capacity, to give back), or nil when mapping fails.
    static func take(_ bytes: Int) -> (UnsafeMutableRawPointer, Int)? {
        let wanted = capacity(for: bytes)
        // Reuse a mapping no more than a quarter larger than needed (the rest would sit idle).
        let reused: Mapping? = state.withLock { s in
            var best: Int? = nil
            for (i, m) in s.free.enumerated() where m.capacity >= wanted && m.capacity <= wanted + wanted / 4 {
                if best.map({ m.capacity < s.free[$0].capacity }) ?? true { best = i }
            }
            guard let i = best else { return nil }
            let m = s.free.remove(at: i)
            s.bytes -= m.capacity
            return m
        }
        if let m = reused {
            memset(m.base, 0, bytes)
            return (m.base, m.capacity)
        }
        guard let p = mmap(nil, wanted, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), p != MAP_FAILED else { return nil }
        return (p, wanted) // fresh mappings read as zero
    }

    /// Gives a mapping from take(_:) back; it is unmapped once the pool is over budget.
    static func give(_ base: UnsafeMutableRawPointer, capacity: Int) {
        var unmap: [Mapping] = []
        state.withLock { s in
            s.free.append(Mapping(address: UInt(bitPattern: base), capacity: capacity))
            s.bytes += capacity
            while s.bytes > budgetBytes, !s.free.isEmpty {
                let m = s.free.removeFirst()
                s.bytes -= m.capacity
                unmap.append(m)
            }
        }
        for m in unmap { munmap(m.base, m.capacity) }
    }
}
