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
public final class AnimationTimeline {
    public let name: String
    public private(set) var speed: Double = 1
    var anchorGlobal: Double
    var anchorLocal: Double

    public init(name: String, startingAt global: Double) {
        self.name = name
        anchorGlobal = global
        anchorLocal = global
    }

    public func localTime(atGlobal g: Double) -> Double { anchorLocal + (g - anchorGlobal) * speed }

    /// The global time at which local time `l` is reached: nil on a paused timeline; `now` when
    /// the running timeline already went past `l` in its direction of travel (a block scrubbed
    /// past its end and then resumed, or one not yet begun when the timeline was reversed, is
    /// due at once instead of never).
    func globalTime(ofLocal l: Double, now: Double) -> Double? {
        guard speed != 0 else { return nil }
        let g = anchorGlobal + (l - anchorLocal) / speed
        return max(g, now)
    }

    public var isPaused: Bool { speed == 0 }

    /// Re-anchors at `now` with a new speed, keeping local time continuous.
    public func setSpeed(_ s: Double, now: Double) {
        anchorLocal = localTime(atGlobal: now)
        anchorGlobal = now
        speed = s.isFinite ? s : 0
    }

    /// Freezes local time at its value at `now`.
    public func pause(now: Double) { setSpeed(0, now: now) }

    /// Sets the local time of a paused timeline (scrubbing).
    public func setLocalTime(_ l: Double, now: Double) {
        anchorGlobal = now
        anchorLocal = l
    }
}
