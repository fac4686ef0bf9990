/// One running animation of one property of one view, in its timeline's local time.
final class PropertyAnimation {
    // Stored in the order sampling reads them, so that the fields of one frame's evaluation
    // share as few cache lines as possible (Swift lays a class out in declaration order): with
    // thousands of animated views, each animation is a cache miss per line it touches.
    //
    // What sampling reads through a reference is borrowed (Unmanaged) or kept outside
    // reference-counted storage (buffers this object allocates and frees): a retain and release
    // are atomic operations, and each one also keeps the processor from starting the next
    // animations' loads early, which is what hides memory latency with thousands of views.

    /// The group's timeline, held directly: sampling reads it for every animation every frame,
    /// and going through the unowned group costs an atomic check each time.
    let timeline: AnimationTimeline
    let begin: Double
    let duration: Double
    /// See AnimationTimeline.extrapolates (its value when the animation was made).
    let extrapolates: Bool
    /// Whether `from` and `to` have exactly `property.width` numbers (see PlannedAnimation).
    let plainEnds: Bool
    let property: AnimatableProperty
    /// Whether this is a keyframe animation (`keyframes` is set).
    let hasKeyframes: Bool
    /// The group's sequence number. Every animation of a group has its curve and duration (one
    /// animate block), so they share progress at equal normalized times (see SamplingCache).
    let groupSequence: Int
    /// `end - endSlack * max(1, |end|)`, the local time from which a sample counts as the end:
    /// the same number the expression gives every frame, computed once.
    let endThreshold: Double
    /// For a transform: the two ends decomposed once (`transformInterpolator`'s storage, borrowed).
    let transformStorage: Unmanaged<Transform3D.Interpolator.Storage>?
    /// A keyframe animation's value count, mode and sampling key times (KeyframeTrack.samplingKeyTimes).
    let keyCount: Int
    let keyMode: KeyframeCalculationMode
    let keyTimes: UnsafeMutableBufferPointer<Double>
    /// For a transform in the linear, paced and discrete modes: one interpolator per segment
    /// (`segmentInterpolators`' storages, borrowed); empty otherwise.
    let segments: UnsafeMutableBufferPointer<Unmanaged<Transform3D.Interpolator.Storage>>
    /// For another property in those modes: the key values' first `property.width` numbers, value
    /// after value; empty otherwise (or when a value is shorter).
    let keyValues: UnsafeMutableBufferPointer<Double>

    /// `from` and `to` inline for the properties of up to four numbers (all but the transform):
    /// mixing them every frame then reads no array buffer (with many views, a miss each).
    let from4: (Double, Double, Double, Double)
    let to4: (Double, Double, Double, Double)
    let from: AnimatableValue
    let to: AnimatableValue
    /// The spring's stiffness and damping, solved once (Newton's method is not free).
    let spring: SpringSolver?
    let curve: TimingCurve
    unowned let group: AnimationGroup
    /// Keyframe values and key times, when this animation is a keyframe one; `from` is then the
    /// first value and `to` the last.
    let keyframes: KeyframeTrack?
    /// The owners of `transformStorage` and `segments`.
    private let transformInterpolator: Transform3D.Interpolator?
    private let segmentInterpolators: [Transform3D.Interpolator]?

    /// The curve's progress at normalized time u (see TimingCurve.progress).
    func progress(_ u: Double) -> Double {
        guard let spring else { return curve.progress(u, duration: duration) }
        return Self.progress(u, spring: spring, duration: duration)
    }

    /// A spring's progress at normalized time u (what `progress` computes with one).
    @inline(__always) static func progress(_ u: Double, spring: SpringSolver, duration: Double) -> Double {
        let u = min(max(u, 0), 1)
        return u >= 1 ? 1 : spring.progress(at: u * duration)
    }

    // Everything sampling needs is computed here, once per animation, and kept in constants:
    // lazy properties would be checked (and copied) on every frame.
    init(property: AnimatableProperty, from: AnimatableValue, to: AnimatableValue, keyframes: KeyframeTrack? = nil,
         begin: Double, duration: Double, curve: TimingCurve, group: AnimationGroup, extrapolates: Bool = false) {
        self.property = property; self.from = from; self.to = to; self.keyframes = keyframes; self.extrapolates = extrapolates
        self.begin = begin; self.duration = duration; self.curve = curve; self.group = group
        timeline = group.timeline
        hasKeyframes = keyframes != nil
        let end = begin + duration
        endThreshold = end - Self.endSlack * max(1, abs(end))
        func four(_ v: AnimatableValue) -> (Double, Double, Double, Double) {
            (v.count > 0 ? v[0] : 0, v.count > 1 ? v[1] : 0, v.count > 2 ? v[2] : 0, v.count > 3 ? v[3] : 0)
        }
        from4 = four(from); to4 = four(to)
        plainEnds = from.count == property.width && to.count == property.width
        groupSequence = group.sequence
        if case .spring(let zeta, let v) = curve {
            spring = SpringSolver(dampingRatio: zeta, duration: duration, initialVelocity: v)
        } else {
            spring = nil
        }
        transformInterpolator = property == .transform && keyframes == nil ? Transform3D.Interpolator(Transform3D(from), Transform3D(to)) : nil
        transformStorage = transformInterpolator.map { Unmanaged.passUnretained($0.storage) }
        keyCount = keyframes?.values.count ?? 0
        keyMode = keyframes?.mode ?? .linear
        let times = keyframes.map { $0.values.isEmpty ? [] : $0.samplingKeyTimes } ?? []
        keyTimes = .allocate(capacity: times.count)
        _ = keyTimes.initialize(from: times)
        let straight = keyMode != .cubic && keyMode != .cubicPaced
        if property == .transform, let k = keyframes, straight, k.values.count > 1 {
            let list = (0..<(k.values.count - 1)).map { Transform3D.Interpolator(Transform3D(k.values[$0]), Transform3D(k.values[$0 + 1])) }
            segmentInterpolators = list
            segments = .allocate(capacity: list.count)
            _ = segments.initialize(from: list.map { Unmanaged.passUnretained($0.storage) })
        } else {
            segmentInterpolators = nil
            segments = .allocate(capacity: 0)
        }
        let width = property.width
        if property != .transform, let k = keyframes, straight, !times.isEmpty, k.values.allSatisfy({ $0.count >= width }) {
            keyValues = .allocate(capacity: k.values.count * width)
            _ = keyValues.initialize(from: k.values.flatMap { $0.prefix(width) })
        } else {
            keyValues = .allocate(capacity: 0)
        }
    }

    deinit {
        keyTimes.deallocate()
        segments.deallocate()
        keyValues.deallocate()
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
        let atEnd = l >= endThreshold
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
        let atEnd = l >= endThreshold
        let u: Double = atEnd ? 1 : duration > 0 ? (l - begin) / duration : (l >= begin ? 1 : 0)
        let p = cache.progress(of: self, at: u)
        if hasKeyframes { applyKeyframes(at: p, to: &state); return }
        if p <= 0 && u <= 0 { store(from, in: &state); return }
        if p == 1 { store(to, in: &state); return }
        if property == .transform {
            if let transformStorage {
                state.transform = transformStorage._withUnsafeGuaranteedRef { Transform3D.Interpolator.value($0, at: p) }
            } else {
                state.transform = Transform3D(ValueCodec.interpolate(property, from, to, p))
            }
            return
        }
        storeMixingEnds(p, in: &state)
    }

    /// What keyframes.value(at: p) computes, stored as `store` would store it; for the straight
    /// modes without building a value vector (a segment between two values, found among the key
    /// times kept at init).
    private func applyKeyframes(at p: Double, to state: inout PresentationState) {
        if !segments.isEmpty {
            switch KeyframeTrack.locate(p, times: UnsafeBufferPointer(keyTimes), count: keyCount, mode: keyMode) {
            case .value(let i): state.transform = Transform3D(keyframes!.values[i])
            case .segment(let i, let u):
                state.transform = segments[i]._withUnsafeGuaranteedRef { Transform3D.Interpolator.value($0, at: u) }
            }
        } else if !keyValues.isEmpty {
            switch KeyframeTrack.locate(p, times: UnsafeBufferPointer(keyTimes), count: keyCount, mode: keyMode) {
            case .value(let i): store(keyframes!.values[i], in: &state)
            case .segment(let i, let u):
                let width = keyValues.count / keyCount
                Self.store(mixing: keyValues.baseAddress! + i * width, keyValues.baseAddress! + (i + 1) * width, u, property, in: &state)
            }
        } else {
            store(keyframes!.value(at: p, property: property), in: &state)
        }
    }

    /// `store(mixing: from, to, p)` from the inline copies of the ends (the same numbers, the
    /// same operations). Not for transforms.
    private func storeMixingEnds(_ t: Double, in state: inout PresentationState) {
        Self.store(mixing: from4, to4, t, property, in: &state)
    }

    /// `a + (b - a) * t` component by component, stored as `store` would store that vector.
    @inline(__always) static func store(mixing a: (Double, Double, Double, Double), _ b: (Double, Double, Double, Double), _ t: Double,
                                        _ property: AnimatableProperty, in state: inout PresentationState) {
        @inline(__always) func mix(_ x: Double, _ y: Double) -> Double { x + (y - x) * t }
        store((mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2), mix(a.3, b.3)), property, in: &state)
    }

    /// Stores a value of `property.width` numbers (the rest unused) as `store` stores a vector of
    /// that many. Not for transforms.
    @inline(__always) static func store(_ v: (Double, Double, Double, Double), _ property: AnimatableProperty,
                                        in state: inout PresentationState) {
        switch property {
        case .transform: break   // never called: transforms go through their interpolators
        case .alpha: state.alpha = min(max(v.0, 0), 1)
        case .cornerRadius: state.cornerRadius = max(v.0, 0)
        case .position: state.position = Point(x: v.0, y: v.1)
        case .anchorPoint: state.anchorPoint = Point(x: v.0, y: v.1)
        case .bounds: state.bounds = Rect(x: v.0, y: v.1, width: v.2, height: v.3)
        case .backgroundColor:
            state.backgroundColor = v.0 == 0 && v.1 == 0 && v.2 == 0 && v.3 == 0 ? nil : Color(red: v.0, green: v.1, blue: v.2, alpha: v.3)
        }
    }

    /// Stores `a + (b - a) * t` (ValueCodec.interpolate's arithmetic, component by component) as
    /// `store` would store that vector, without building it. Not for transforms; `a` and `b`
    /// hold `property.width` numbers each.
    @inline(__always) static func store(mixing a: UnsafePointer<Double>, _ b: UnsafePointer<Double>, _ t: Double, _ property: AnimatableProperty,
                                        in state: inout PresentationState) {
        @inline(__always) func mix(_ k: Int) -> Double { a[k] + (b[k] - a[k]) * t }
        switch property {
        case .transform: break   // never called: a transform's keyframes mix through their interpolators
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
