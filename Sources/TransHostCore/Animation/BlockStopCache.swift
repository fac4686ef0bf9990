/// The earliest global time at which one of the engine's running blocks stops, kept between
/// calls of `AnimationEngine.nextEventTime()`.
///
/// Why: every `advance(to:)` asks for the next event at least once, and finding it meant reading
/// every running block and its timeline. With thousands of animated views those reads miss the
/// caches: at 10,000 blocks the scan cost more per frame than a tenth of sampling the whole tree,
/// and grew faster than the number of blocks. Between two advances the blocks and their timelines
/// usually hold still, so the answer is kept and only recomputed when it can have changed:
///
/// - the engine's list of running blocks changed (`invalidate()`, from its didSet);
/// - a timeline those blocks run on moved (its `version`: speed, anchors, ramp, reverse stop).
///
/// A block's stop time and its timeline's mapping to global time are everything the scan reads
/// besides the clock, and the clock enters only as a lower bound: each block's time is
/// `max(raw, now)` (or `now` itself for a block already past its stop), so the earliest of them
/// is `max(earliest raw, now)`. The raw times are folded in the same order, with the same `min`,
/// as the scan did, so the result is the same number.
struct BlockStopCache {
    private var valid = false
    /// The earliest raw stop time (nil: no running block on a moving timeline).
    private var earliest: Double?
    /// The timelines the cached answer read, each once, with their versions then. Held strongly
    /// (an identity compared after its timeline was freed could match a new one at the same
    /// address), and only while the answer is valid: they are let go with it.
    private var timelines: [(timeline: AnimationTimeline, version: UInt64)] = []

    mutating func invalidate() {
        valid = false
        if !timelines.isEmpty { timelines.removeAll(keepingCapacity: true) }
    }

    /// The earliest time a block of `groups` stops, not clamped to the clock (see the type's comment).
    mutating func earliestRawStop(of groups: [AnimationGroup]) -> Double? {
        if valid, timelines.allSatisfy({ $0.timeline.version == $0.version }) { return earliest }
        var best: Double?
        var seen = Set<ObjectIdentifier>()
        timelines.removeAll(keepingCapacity: true)
        for g in groups {
            let timeline = g.timeline
            if timelines.last?.timeline !== timeline, seen.insert(ObjectIdentifier(timeline)).inserted {
                timelines.append((timeline, timeline.version))
            }
            if let t = timeline.globalTime(ofLocal: timeline.stopTime(for: g), now: -.infinity) { best = min(best ?? t, t) }
        }
        earliest = best
        valid = true
        return best
    }
}
