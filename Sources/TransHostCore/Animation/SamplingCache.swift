/// What sampling one instant computes once and reuses across animations.
///
/// - A timeline's local time: the animations of one transition share a timeline, and its local
///   time (a closure call for a property animator's) is the same for all of them.
/// - A block's progress: the animations one animate block made have its curve and duration, so
///   at the same normalized time their curve (a Bezier solved by Newton's method, a spring's
///   exponentials and cosines) gives the same number. A view's animations are kept in property
///   order, so a block's animations of one view come one after another; one entry suffices.
///
/// Only equal inputs are reused (the normalized time is compared bit for bit), so every value
/// is the one the animation would compute itself.
struct SamplingCache {
    let now: Double
    // Identities only: the animations being sampled keep their timelines alive.
    private var timeline: ObjectIdentifier?
    private var local = 0.0
    private var group = -1
    private var uBits: UInt64 = 0
    private var progress = 0.0

    init(now: Double) { self.now = now }

    mutating func local(_ t: AnimationTimeline) -> Double {
        let id = ObjectIdentifier(t)
        if id != timeline {
            timeline = id
            local = t.localTime(atGlobal: now)
        }
        return local
    }

    mutating func progress(of anim: PropertyAnimation, at u: Double) -> Double {
        progress(group: anim.groupSequence, at: u) { anim.progress($0) }
    }

    /// The progress of a block's animation at u: `compute(u)` unless the last one asked was of
    /// the same block at the same u.
    @inline(__always) mutating func progress(group g: Int, at u: Double, _ compute: (Double) -> Double) -> Double {
        if g == group && u.bitPattern == uBits { return progress }
        let p = compute(u)
        group = g; uBits = u.bitPattern; progress = p
        return p
    }
}
