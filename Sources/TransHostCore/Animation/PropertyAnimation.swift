/// One running animation of one property of one view, in its timeline's local time.
final class PropertyAnimation {
    let property: AnimatableProperty
    let from: AnimatableValue
    let to: AnimatableValue
    /// Keyframe values and key times, when this animation is a keyframe one; `from` is then the
    /// first value and `to` the last.
    let keyframes: KeyframeTrack?
    let begin: Double
    let duration: Double
    let curve: TimingCurve
    unowned let group: AnimationGroup
    /// See AnimationTimeline.extrapolates.
    var extrapolates = false
    /// The spring's stiffness and damping, solved once (Newton's method is not free).
    private lazy var spring: SpringSolver? = {
        if case .spring(let zeta, let v) = curve { return SpringSolver(dampingRatio: zeta, duration: duration, initialVelocity: v) }
        return nil
    }()

    /// The curve's progress at normalized time u (see TimingCurve.progress).
    func progress(_ u: Double) -> Double {
        guard let spring else { return curve.progress(u, duration: duration) }
        let u = min(max(u, 0), 1)
        return u >= 1 ? 1 : spring.progress(at: u * duration)
    }

    /// For transforms: the two ends decomposed once.
    private lazy var transformInterpolator = Transform3D.Interpolator(Transform3D(from), Transform3D(to))

    init(property: AnimatableProperty, from: AnimatableValue, to: AnimatableValue, keyframes: KeyframeTrack? = nil,
         begin: Double, duration: Double, curve: TimingCurve, group: AnimationGroup) {
        self.property = property; self.from = from; self.to = to; self.keyframes = keyframes
        self.begin = begin; self.duration = duration; self.curve = curve; self.group = group
    }

    var end: Double { begin + duration }

    /// Relative slack (in seconds per second of local time) under which a sample counts as the end.
    static let endSlack = 1e-9

    /// The presentation value at local time `l`. Before `begin` the start value shows (UIKit
    /// fills backwards during a delay); at and after the end the final value shows.
    ///
    /// "At the end" is decided on absolute local time with a nanosecond's slack, not on the
    /// normalized time: a block that begins at 5.0 and lasts 1.3 s is sampled at local 6.3, and
    /// (6.3 - 5.0) / 1.3 rounds below 1, which would leave a spring about 0.001 of its distance
    /// short of its final value on the last frame.
    func value(atLocal l: Double) -> AnimatableValue {
        if extrapolates, keyframes == nil, duration > 0 {
            // Before a delayed block begins its start value shows; otherwise progress follows
            // local time beyond [0, 1] (a spring overshooting either end).
            let p = begin > 0 && l < begin ? 0 : (l - begin) / duration
            if p == 1 { return to }
            if property == .transform { return transformInterpolator.value(at: p).values }
            return ValueCodec.interpolate(property, from, to, p)
        }
        let atEnd = l >= end - Self.endSlack * max(1, abs(end))
        let u: Double = atEnd ? 1 : duration > 0 ? (l - begin) / duration : (l >= begin ? 1 : 0)
        let p = progress(u)
        if let keyframes { return keyframes.value(at: p, property: property) }
        if p <= 0 && u <= 0 { return from }
        if p == 1 { return to }
        if property == .transform { return transformInterpolator.value(at: p).values }
        return ValueCodec.interpolate(property, from, to, p)
    }
}

/// The animations made by one animate() call, and its completion.
final class AnimationGroup {
    let sequence: Int
    let timeline: AnimationTimeline
    let completion: ((Bool) -> Void)?
    var animations: [(view: View, animation: PropertyAnimation)] = []
    var begin: Double
    var end: Double
    var finished = true
    var stopped = false

    init(sequence: Int, timeline: AnimationTimeline, begin: Double, end: Double, completion: ((Bool) -> Void)?) {
        self.sequence = sequence; self.timeline = timeline; self.begin = begin; self.end = end; self.completion = completion
    }
}
