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
        if anim.groupSequence == group && u.bitPattern == uBits { return progress }
        let p = anim.progress(u)
        group = anim.groupSequence; uBits = u.bitPattern; progress = p
        return p
    }
}
