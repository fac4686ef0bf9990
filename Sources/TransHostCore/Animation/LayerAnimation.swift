#if canImport(Glibc)
import Glibc
#endif

/// What a finished (or not yet started) explicit animation shows (CAMediaTimingFillMode).
public enum FillMode: String, Hashable, Sendable, CaseIterable {
    /// Nothing outside the active time: the model value shows.
    case removed
    /// The end value stays after the end (while the animation is not removed).
    case forwards
    /// The start value shows before `beginTime`.
    case backwards
    case both

    var fillsForwards: Bool { self == .forwards || self == .both }
    var fillsBackwards: Bool { self == .backwards || self == .both }
}

/// How a path keyframe animation turns the layer (CAKeyframeAnimation.rotationMode).
public enum RotationMode: String, Hashable, Sendable, CaseIterable {
    case none
    /// Turned to the path's tangent.
    case auto
    /// Turned to the tangent plus half a turn.
    case autoReverse
}

/// An explicit Core Animation animation (CABasicAnimation, CAKeyframeAnimation,
/// CASpringAnimation, CAAnimationGroup) as a value: what `layer.add(_:forKey:)` copies.
///
/// Timing follows CAMediaTiming. With `beginTime` resolved to the parent's time b, at parent time
/// p the animation's active time is a = (p - b) x speed; it is active for 0 <= a < D, where D is
/// `repeatDuration` if set, else max(repeatCount, 1) x duration (x 2 with `autoreverses`).
/// Within that, local time is a + timeOffset (wrapped into [0, D) when timeOffset is set), each
/// cycle runs forwards (and back with autoreverses), and `timingFunction` shapes each pass.
public struct LayerAnimation: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// CABasicAnimation: from/to/by as Core Animation combines them (see `endpoints`).
        case basic(from: LayerValue?, to: LayerValue?, by: LayerValue?)
        /// CASpringAnimation: a damped spring from/to/by, on linear time (the spring's own shape).
        case spring(from: LayerValue?, to: LayerValue?, by: LayerValue?, spring: SpringParameters)
        /// CAKeyframeAnimation: `values` at `keyTimes` (nil: spaced evenly, or paced), each
        /// segment shaped by its timing function; or, with a `path`, a point moving along it.
        case keyframe(Keyframes)
        /// CAAnimationGroup: its animations run in the group's time.
        case group([LayerAnimation])
    }

    public struct SpringParameters: Hashable, Sendable {
        public var mass: Double, stiffness: Double, damping: Double, initialVelocity: Double
        public init(mass: Double = 1, stiffness: Double = 100, damping: Double = 10, initialVelocity: Double = 0) {
            self.mass = mass; self.stiffness = stiffness; self.damping = damping; self.initialVelocity = initialVelocity
        }
        /// The same spring for a unit mass (k/m, c/m), which SpringSolver's closed forms take.
        public var solver: SpringSolver {
            let m = mass > 0 && mass.isFinite ? mass : 1
            return SpringSolver(stiffness: max(stiffness, 1e-9) / m, damping: max(damping, 0) / m, initialVelocity: initialVelocity)
        }
        /// CASpringAnimation.settlingDuration: the time after which the spring stays within
        /// 0.001 of its target (found on a 1 ms grid, up to 60 s).
        public var settlingDuration: Double {
            let s = solver
            var last = 0.0
            var t = 0.0
            while t <= 60 {
                if abs(1 - s.progress(at: t)) >= 0.001 { last = t }
                t += 0.001
            }
            return (last + 0.001 * 1).rounded(toPlaces: 3)
        }
    }

    public struct Keyframes: Hashable, Sendable {
        public var values: [LayerValue]
        public var keyTimes: [Double]?
        public var timingFunctions: [UnitBezier]?
        public var mode: KeyframeCalculationMode
        public var path: Path?
        public var rotationMode: RotationMode
        public init(values: [LayerValue] = [], keyTimes: [Double]? = nil, timingFunctions: [UnitBezier]? = nil,
                    mode: KeyframeCalculationMode = .linear, path: Path? = nil, rotationMode: RotationMode = .none) {
            self.values = values; self.keyTimes = keyTimes; self.timingFunctions = timingFunctions
            self.mode = mode; self.path = path; self.rotationMode = rotationMode
        }
    }

    public var kind: Kind
    /// The property it animates (ignored by groups).
    public var keyPath: String?
    /// Seconds of one pass; 0 means Core Animation's default, 0.25 s.
    public var duration: Double
    /// In the parent's time: for a top-level animation, virtual seconds as CACurrentMediaTime()
    /// counts them (0: when it is added); in a group, seconds after the group's start.
    public var beginTime: Double
    /// nil: linear.
    public var timingFunction: UnitBezier?
    public var fillMode: FillMode
    public var isRemovedOnCompletion: Bool
    public var autoreverses: Bool
    public var repeatCount: Double
    public var repeatDuration: Double
    public var speed: Double
    public var timeOffset: Double
    /// The animated value is added to the underlying value instead of replacing it.
    public var isAdditive: Bool

    public init(kind: Kind, keyPath: String?, duration: Double = 0, beginTime: Double = 0, timingFunction: UnitBezier? = nil,
                fillMode: FillMode = .removed, isRemovedOnCompletion: Bool = true, autoreverses: Bool = false,
                repeatCount: Double = 0, repeatDuration: Double = 0, speed: Double = 1, timeOffset: Double = 0, isAdditive: Bool = false) {
        self.kind = kind; self.keyPath = keyPath; self.duration = duration; self.beginTime = beginTime
        self.timingFunction = timingFunction; self.fillMode = fillMode; self.isRemovedOnCompletion = isRemovedOnCompletion
        self.autoreverses = autoreverses; self.repeatCount = repeatCount; self.repeatDuration = repeatDuration
        self.speed = speed; self.timeOffset = timeOffset; self.isAdditive = isAdditive
    }

    /// Core Animation's default duration, used when `duration` is 0.
    public static let defaultDuration = 0.25

    /// The duration of one pass as used.
    public var effectiveDuration: Double { duration > 0 && duration.isFinite ? duration : Self.defaultDuration }

    /// The active duration D in the animation's own time (infinite for an infinite repeat).
    public var activeDuration: Double {
        let cycle = effectiveDuration * (autoreverses ? 2 : 1)
        if repeatDuration > 0 && repeatDuration.isFinite { return repeatDuration }
        if repeatDuration == .infinity || repeatCount == .infinity { return .infinity }
        return cycle * (repeatCount > 0 && repeatCount.isFinite ? repeatCount : 1)
    }

    /// Where the animation is at active time a (seconds since its begin, already x speed).
    public enum Phase: Equatable, Sendable {
        case before
        /// Within a pass: the pass's time in [0, duration] and its timed fraction (after the
        /// timing function).
        case active(time: Double, progress: Double)
        case after(time: Double, progress: Double)
    }

    public func phase(atActive a: Double) -> Phase {
        let d = effectiveDuration
        let total = activeDuration
        if a < 0 { return .before }
        let ended = a >= total
        var t = ended ? total : a + timeOffset
        if timeOffset != 0 && !ended && total.isFinite && total > 0 {
            t = t.truncatingRemainder(dividingBy: total)
            if t < 0 { t += total }
        }
        let cycle = d * (autoreverses ? 2 : 1)
        // The pass: at an exact multiple of the cycle, the end of the previous pass at the end,
        // the start of the next one otherwise.
        var k = (t / cycle).rounded(.down)
        if ended && k > 0 && t - k * cycle <= 1e-12 { k -= 1 }
        var c = t - k * cycle
        c = min(max(c, 0), cycle)
        if autoreverses && c > d { c = cycle - c }
        let u = d > 0 ? min(max(c / d, 0), 1) : 1
        let p = (timingFunction ?? .linear).solve(u, duration: d)
        return ended ? .after(time: p * d, progress: p) : .active(time: p * d, progress: p)
    }
}

extension Double {
    func rounded(toPlaces n: Int) -> Double {
        let f = pow(10, Double(n))
        return (self * f).rounded() / f
    }
}
