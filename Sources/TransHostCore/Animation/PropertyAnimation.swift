/// One running animation of one property of one view, in its timeline's local time.
final class PropertyAnimation {
    // Stored in the order sampling reads them, so that the fields of one frame's evaluation
    // share as few cache lines as possible (Swift lays a class out in declaration order): with
    // thousands of animated views, each animation is a cache miss per line it touches.

    /// The group's timeline, held directly: sampling reads it for every animation every frame,
    /// and going through the unowned group costs an atomic check each time.
    let timeline: AnimationTimeline
    let begin: Double
    let duration: Double
    /// See AnimationTimeline.extrapolates.
    var extrapolates = false
    let property: AnimatableProperty
    /// The group's sequence number. Every animation of a group has its curve and duration (one
    /// animate block), so they share progress at equal normalized times (see SamplingCache).
    let groupSequence: Int
    /// Keyframe values and key times, when this animation is a keyframe one; `from` is then the
    /// first value and `to` the last.
    let keyframes: KeyframeTrack?
    /// For transforms: the two ends decomposed once.
    private let transformInterpolator: Transform3D.Interpolator?
    /// A keyframe animation's key times and, for a transform in the linear, paced and discrete
    /// modes, one interpolator per segment.
    private let keyTimes: [Double]
    private let segmentInterpolators: [Transform3D.Interpolator]?

    /// `from` and `to` inline for the properties of up to four numbers (all but the transform):
    /// mixing them every frame then reads no array buffer (with many views, a miss each).
    private let from4: (Double, Double, Double, Double)
    private let to4: (Double, Double, Double, Double)
    let from: AnimatableValue
    let to: AnimatableValue
    /// The spring's stiffness and damping, solved once (Newton's method is not free).
    private let spring: SpringSolver?
    let curve: TimingCurve
    unowned let group: AnimationGroup

    /// The curve's progress at normalized time u (see TimingCurve.progress).
    func progress(_ u: Double) -> Double {
        guard let spring else { return curve.progress(u, duration: duration) }
        let u = min(max(u, 0), 1)
        return u >= 1 ? 1 : spring.progress(at: u * duration)
    }

    // Everything sampling needs is computed here, once per animation, and kept in constants:
    // lazy properties would be checked (and copied) on every frame.
    init(property: AnimatableProperty, from: AnimatableValue, to: AnimatableValue, keyframes: KeyframeTrack? = nil,
         begin: Double, duration: Double, curve: TimingCurve, group: AnimationGroup) {
        self.property = property; self.from = from; self.to = to; self.keyframes = keyframes
        self.begin = begin; self.duration = duration; self.curve = curve; self.group = group
        timeline = group.timeline
        func four(_ v: AnimatableValue) -> (Double, Double, Double, Double) {
            (v.count > 0 ? v[0] : 0, v.count > 1 ? v[1] : 0, v.count > 2 ? v[2] : 0, v.count > 3 ? v[3] : 0)
        }
        from4 = four(from); to4 = four(to)
        groupSequence = group.sequence
        if case .spring(let zeta, let v) = curve {
            spring = SpringSolver(dampingRatio: zeta, duration: duration, initialVelocity: v)
        } else {
            spring = nil
        }
        transformInterpolator = property == .transform && keyframes == nil ? Transform3D.Interpolator(Transform3D(from), Transform3D(to)) : nil
        keyTimes = keyframes.map { $0.values.isEmpty ? [] : $0.samplingKeyTimes } ?? []
        if property == .transform, let k = keyframes, k.mode != .cubic, k.mode != .cubicPaced, k.values.count > 1 {
            segmentInterpolators = (0..<(k.values.count - 1)).map { Transform3D.Interpolator(Transform3D(k.values[$0]), Transform3D(k.values[$0 + 1])) }
        } else {
            segmentInterpolators = nil
        }
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
            if property == .transform, let transformInterpolator { return transformInterpolator.value(at: p).values }
            return ValueCodec.interpolate(property, from, to, p)
        }
        let atEnd = l >= end - Self.endSlack * max(1, abs(end))
        let u: Double = atEnd ? 1 : duration > 0 ? (l - begin) / duration : (l >= begin ? 1 : 0)
        let p = progress(u)
        if let keyframes { return keyframes.value(at: p, property: property) }
        if p <= 0 && u <= 0 { return from }
        if p == 1 { return to }
        if let transformInterpolator { return transformInterpolator.value(at: p).values }
        return ValueCodec.interpolate(property, from, to, p)
    }

    /// Writes the presentation value at its timeline's local time into `state`, as the screen shows it
    /// (an alpha in [0, 1], a radius >= 0: a spring may overshoot). The same numbers as
    /// `value(atLocal:)`, without building a value vector per property per frame: this is the
    /// sampling hot path.
    func apply(to state: inout PresentationState, cache: inout SamplingCache) {
        let l = cache.local(timeline)
        // A property animator's blocks follow progress beyond [0, 1]: the general path.
        if extrapolates { store(value(atLocal: l), in: &state); return }
        let atEnd = l >= end - Self.endSlack * max(1, abs(end))
        let u: Double = atEnd ? 1 : duration > 0 ? (l - begin) / duration : (l >= begin ? 1 : 0)
        let p = cache.progress(of: self, at: u)
        if let keyframes {
            if let interpolators = segmentInterpolators {
                switch keyframes.locate(p, times: keyTimes) {
                case .value(let i): state.transform = Transform3D(keyframes.values[i])
                case .segment(let i, let u): state.transform = interpolators[i].value(at: u)
                }
            } else if property != .transform, !keyTimes.isEmpty, keyframes.mode != .cubic, keyframes.mode != .cubicPaced {
                // What keyframes.value(at:) computes (a straight segment between two values),
                // with the key times found once at init and no value vector built.
                switch keyframes.locate(p, times: keyTimes) {
                case .value(let i): store(keyframes.values[i], in: &state)
                case .segment(let i, let u): store(mixing: keyframes.values[i], keyframes.values[i + 1], u, in: &state)
                }
            } else {
                store(keyframes.value(at: p, property: property), in: &state)
            }
            return
        }
        if p <= 0 && u <= 0 { store(from, in: &state); return }
        if p == 1 { store(to, in: &state); return }
        if property == .transform {
            state.transform = transformInterpolator?.value(at: p) ?? Transform3D(ValueCodec.interpolate(property, from, to, p))
            return
        }
        storeMixingEnds(p, in: &state)
    }

    /// `store(mixing: from, to, p)` from the inline copies of the ends (the same numbers, the
    /// same operations).
    private func storeMixingEnds(_ t: Double, in state: inout PresentationState) {
        let a = from4, b = to4
        @inline(__always) func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * t }
        switch property {
        case .transform: state.transform = Transform3D(ValueCodec.interpolate(property, from, to, t))
        case .alpha: state.alpha = min(max(mix(a.0, b.0), 0), 1)
        case .cornerRadius: state.cornerRadius = max(mix(a.0, b.0), 0)
        case .position: state.position = Point(x: mix(a.0, b.0), y: mix(a.1, b.1))
        case .anchorPoint: state.anchorPoint = Point(x: mix(a.0, b.0), y: mix(a.1, b.1))
        case .bounds: state.bounds = Rect(x: mix(a.0, b.0), y: mix(a.1, b.1), width: mix(a.2, b.2), height: mix(a.3, b.3))
        case .backgroundColor:
            let r = mix(a.0, b.0), g = mix(a.1, b.1), bl = mix(a.2, b.2), al = mix(a.3, b.3)
            state.backgroundColor = r == 0 && g == 0 && bl == 0 && al == 0 ? nil : Color(red: r, green: g, blue: bl, alpha: al)
        }
    }

    /// Stores `a + (b - a) * t` (ValueCodec.interpolate's arithmetic, component by component) as
    /// `store` would store that vector, without building it. Not for transforms.
    private func store(mixing a: AnimatableValue, _ b: AnimatableValue, _ t: Double, in state: inout PresentationState) {
        @inline(__always) func mix(_ k: Int) -> Double { a[k] + (b[k] - a[k]) * t }
        switch property {
        case .transform: state.transform = Transform3D(ValueCodec.interpolate(property, a, b, t))
        case .alpha: state.alpha = min(max(mix(0), 0), 1)
        case .cornerRadius: state.cornerRadius = max(mix(0), 0)
        case .position: state.position = Point(x: mix(0), y: mix(1))
        case .anchorPoint: state.anchorPoint = Point(x: mix(0), y: mix(1))
        case .bounds: state.bounds = Rect(x: mix(0), y: mix(1), width: mix(2), height: mix(3))
        case .backgroundColor:
            let r = mix(0), g = mix(1), b = mix(2), a = mix(3)
            state.backgroundColor = r == 0 && g == 0 && b == 0 && a == 0 ? nil : Color(red: r, green: g, blue: b, alpha: a)
        }
    }

    private func store(_ v: AnimatableValue, in state: inout PresentationState) {
        switch property {
        case .alpha: state.alpha = min(max(v[0], 0), 1)
        case .cornerRadius: state.cornerRadius = max(v[0], 0)
        default: state[property] = v
        }
    }
}

/// The animations made by one animate() call, and its completion.
final class AnimationGroup {
    let sequence: Int
    let timeline: AnimationTimeline
    let completion: ((Bool) -> Void)?
    var animations: [(view: View, animation: PropertyAnimation)] = []
    // Constants: the engine keeps the earliest block stop between advances (BlockStopCache).
    let begin: Double
    let end: Double
    var finished = true
    var stopped = false

    init(sequence: Int, timeline: AnimationTimeline, begin: Double, end: Double, completion: ((Bool) -> Void)?) {
        self.sequence = sequence; self.timeline = timeline; self.begin = begin; self.end = end; self.completion = completion
    }
}
