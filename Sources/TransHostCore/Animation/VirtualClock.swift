/// Virtual time in seconds. Nothing in transhost reads wall time to animate: the clock only
/// moves when `AnimationEngine.advance(to:)` moves it, so the same input gives the same output.
public final class VirtualClock {
    public internal(set) var now: Double
    public init(now: Double = 0) { self.now = now }
}

/// A local time base for a group of animations, like a CALayer's beginTime/speed/timeOffset.
///
/// local = anchorLocal + (global - anchorGlobal) x speed. A paused timeline (speed 0) holds its
/// local time, which `setLocalTime` scrubs; this is how percent-driven interaction works.
/// `ramp(to:over:curve:speed:now:)` bends one stretch of it by a timing curve (the interaction's
/// completionCurve), after which it runs on linearly at `speed`.
public final class AnimationTimeline {
    public let name: String
    // Every stored value that `globalTime(ofLocal:now:)` or `stopTime(for:)` reads moves
    // `version` when it changes: the engine keeps its earliest block stop between advances and
    // recomputes it only when a timeline it read has moved (see BlockStopCache).
    public private(set) var speed: Double = 1 { didSet { version &+= 1 } }
    var anchorGlobal: Double { didSet { version &+= 1 } }
    var anchorLocal: Double { didSet { version &+= 1 } }
    /// Moves whenever the mapping from local to global time, or the reverse stop, changes.
    private(set) var version: UInt64 = 0

    public init(name: String, startingAt global: Double) {
        self.name = name
        anchorGlobal = global
        anchorLocal = global
    }

    /// A curved stretch: from (anchorGlobal, anchorLocal) local time follows `curve` to `target`
    /// over `seconds`, then goes on at `speed`.
    private var rampTarget: Double? { didSet { version &+= 1 } }
    private var rampSeconds = 0.0 { didSet { version &+= 1 } }
    private var rampCurve = TimingCurve.linear { didSet { version &+= 1 } }

    /// Set by a property animator that owns this timeline: local time is then its progress
    /// (fractionComplete in value terms) at global time g, and the timeline is paused as far as
    /// the engine's own scheduling goes (the animator schedules its own end).
    var progression: ((Double) -> Double)?
    /// Whether animations on this timeline follow local time past their ends (a property
    /// animator's spring overshoots its end values).
    var extrapolates = false

    public func localTime(atGlobal g: Double) -> Double {
        if let progression { return progression(g) }
        guard let target = rampTarget else { return anchorLocal + (g - anchorGlobal) * speed }
        let u = (g - anchorGlobal) / rampSeconds
        if u < 1 { return anchorLocal + (target - anchorLocal) * rampCurve.progress(u, duration: rampSeconds) }
        return target + (g - anchorGlobal - rampSeconds) * speed
    }

    /// Runs from the current local time to `target` in `seconds` of global time, shaped by
    /// `curve` (monotone: the named Bezier curves), then on at `speed` (its sign must point from
    /// the current local time toward `target`).
    public func ramp(to target: Double, over seconds: Double, curve: TimingCurve, speed s: Double, now: Double) {
        let current = localTime(atGlobal: now)
        anchorGlobal = now
        anchorLocal = current
        speed = s.isFinite ? s : 0
        guard seconds > 0, seconds.isFinite, target != current, target.isFinite else { rampTarget = nil; return }
        rampTarget = target
        rampSeconds = seconds
        rampCurve = curve
    }

    /// The global time at which local time `l` is reached: nil on a paused timeline; `now` when
    /// the running timeline already went past `l` in its direction of travel (a block scrubbed
    /// past its end and then resumed, or one not yet begun when the timeline was reversed, is
    /// due at once instead of never).
    func globalTime(ofLocal l: Double, now: Double) -> Double? {
        guard speed != 0 else { return nil }
        if let target = rampTarget {
            let span = target - anchorLocal
            let f = (l - anchorLocal) / span
            if f <= 0 { return now }
            if f >= 1 { return max(anchorGlobal + rampSeconds + (l - target) / speed, now) }
            // Invert the curve by bisection (it is monotone).
            var lo = 0.0, hi = 1.0
            for _ in 0..<60 {
                let mid = (lo + hi) / 2
                if rampCurve.progress(mid, duration: rampSeconds) < f { lo = mid } else { hi = mid }
            }
            return max(anchorGlobal + hi * rampSeconds, now)
        }
        let g = anchorGlobal + (l - anchorLocal) / speed
        return max(g, now)
    }

    public var isPaused: Bool { speed == 0 }

    /// On a reversed timeline, the local time at which every block stops: a cancelled
    /// transition runs all the way back to its start before any completion runs (UIKit's
    /// cancelInteractiveTransition). nil: each block stops at its own beginning.
    public var reverseStop: Double? { didSet { version &+= 1 } }

    /// The local time at which a block of this timeline stops, in its direction of travel.
    func stopTime(for g: AnimationGroup) -> Double {
        speed >= 0 ? g.end : min(reverseStop ?? g.begin, g.begin)
    }

    /// Re-anchors at `now` with a new speed, keeping local time continuous.
    public func setSpeed(_ s: Double, now: Double) {
        anchorLocal = localTime(atGlobal: now)
        anchorGlobal = now
        speed = s.isFinite ? s : 0
        rampTarget = nil
    }

    /// Freezes local time at its value at `now`.
    public func pause(now: Double) { setSpeed(0, now: now) }

    /// Sets the local time of a paused timeline (scrubbing).
    public func setLocalTime(_ l: Double, now: Double) {
        anchorGlobal = now
        anchorLocal = l
        rampTarget = nil
    }
}
