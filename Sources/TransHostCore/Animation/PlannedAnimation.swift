/// One block animation as a SamplingPlan keeps it: a copy of what `PropertyAnimation.apply`
/// reads on its usual paths (timing, curve, ends, and the index of what else it reads in the
/// plan's other arrays), so that sampling reads the plan's arrays in order instead of every
/// animation and the buffers and objects it points to wherever the heap put them.
///
/// Why: with 10,000 animated views those reads were out of every cache (this machine's caches
/// hold about a megabyte; a random read costs about 200 ns there), and sampling spent most of
/// its time waiting for them. Read in order, the processor fetches them ahead.
///
/// The copy is only a faster way to read the same inputs: every field copied is a constant of
/// the animation, and the plan is dropped when the animation is (a view's animation list moves
/// the engine's SamplingEpoch). The timeline is read live. Every path computes what `apply`
/// computes, with the same operations (they call the same functions); the rare ones (a property
/// animator's blocks, the cubic keyframe modes, ends that are not a plain value, transforms
/// that do not decompose, exact ends of a transform) are left to the animation itself, which
/// then finds the same cached progress.
struct PlannedAnimation {
    enum Form: UInt8 {
        /// Sampled by the animation itself.
        case live
        /// A property of up to four numbers between two ends.
        case ends
        /// A transform between two decomposable ends (`first`: its blend).
        case transform
        /// A transform's keyframes in a straight mode (`first`: key times; `segment`: the segments).
        case keyTransform
        /// Another property's keyframes in a straight mode (`first`: key times, then values).
        case keyValues
    }

    /// The curve in four numbers: a Bezier's control points (its coefficients are computed from
    /// them, the same way each time) or a spring's stiffness, damping and initial velocity.
    enum CurveKind: UInt8 { case bezier, spring }

    /// The keyframe segment of a transform, as the plan keeps it.
    struct Segment {
        enum Kind: UInt8 { case live, same, blend }
        let kind: Kind
        /// The blend (`blend`) or the held value in `transforms` (`same`).
        let index: Int32
    }

    let source: Unmanaged<PropertyAnimation>
    let timeline: Unmanaged<AnimationTimeline>
    let begin: Double
    let duration: Double
    let endThreshold: Double
    let groupSequence: Int
    let curve: (Double, Double, Double, Double)
    let curveKind: CurveKind
    let form: Form
    let property: AnimatableProperty
    let keyMode: KeyframeCalculationMode
    /// Whether `from` and `to` have exactly `property.width` numbers (so that their copies store as they do).
    let plainEnds: Bool
    let keyCount: Int32
    let first: Int32
    let segment: Int32

    /// The plan's arrays the animations index into.
    struct Tables {
        var blends: [Transform3D.Blend] = []
        var transforms: [Transform3D] = []
        var numbers: [Double] = []
        var segments: [Segment] = []

        /// Room for a tree of `views` views with an animated transform and a few numbers each.
        /// Growing an array copies it; room never written costs next to nothing (a large
        /// allocation is a mapping whose pages are only made when first written).
        mutating func reserve(views: Int) {
            blends.reserveCapacity(views); transforms.reserveCapacity(views)
            numbers.reserveCapacity(views * 8); segments.reserveCapacity(views)
        }
    }

    /// Views of `Tables` for one frame.
    struct Buffers {
        let blends: UnsafeBufferPointer<Transform3D.Blend>
        let transforms: UnsafeBufferPointer<Transform3D>
        let numbers: UnsafeBufferPointer<Double>
        let segments: UnsafeBufferPointer<Segment>
    }

    init(_ a: PropertyAnimation, into tables: inout Tables) {
        source = Unmanaged.passUnretained(a)
        timeline = Unmanaged.passUnretained(a.timeline)
        begin = a.begin; duration = a.duration; endThreshold = a.endThreshold; groupSequence = a.groupSequence
        // As PropertyAnimation.progress: its spring's solver, or else its curve (a Bezier: a
        // spring curve always has its solver).
        var curve = (0.0, 0.0, 1.0, 1.0), kind = CurveKind.bezier, hasCurve = true
        if let s = a.spring {
            curve = (s.stiffness, s.damping, s.initialVelocity, 0); kind = .spring
        } else if case .bezier(let b) = a.curve {
            curve = (b.p1x, b.p1y, b.p2x, b.p2y)
        } else {
            hasCurve = false
        }
        self.curve = curve; curveKind = kind
        property = a.property
        keyMode = a.keyMode
        keyCount = Int32(a.keyCount)
        let width = a.property.width
        plainEnds = a.plainEnds
        var form = Form.live
        var first = 0, segment = 0
        if a.extrapolates || !hasCurve {
            form = .live
        } else if a.hasKeyframes {
            first = tables.numbers.count
            if !a.segments.isEmpty {
                tables.numbers.append(contentsOf: a.keyTimes)
                segment = tables.segments.count
                for s in a.segments {
                    tables.segments.append(s._withUnsafeGuaranteedRef { s in
                        if s.bothFinite && s.same {
                            tables.transforms.append(s.from)
                            return Segment(kind: .same, index: Int32(tables.transforms.count - 1))
                        }
                        guard s.bothFinite && s.decomposes else { return Segment(kind: .live, index: 0) }
                        tables.blends.append(s.blend)
                        return Segment(kind: .blend, index: Int32(tables.blends.count - 1))
                    })
                }
                form = .keyTransform
            } else if !a.keyValues.isEmpty {
                tables.numbers.append(contentsOf: a.keyTimes)
                tables.numbers.append(contentsOf: a.keyValues)
                form = .keyValues
            }
        } else if a.property == .transform {
            if let storage = a.transformStorage, storage._withUnsafeGuaranteedRef({ $0.bothFinite && !$0.same && $0.decomposes }) {
                first = tables.blends.count
                tables.blends.append(storage._withUnsafeGuaranteedRef { $0.blend })
                form = .transform
            }
        } else {
            // The ends' inline copies, `property.width` numbers each (the rest are not read).
            first = tables.numbers.count
            for e in [a.from4, a.to4] {
                tables.numbers.append(e.0)
                if width > 1 { tables.numbers.append(e.1) }
                if width > 2 { tables.numbers.append(e.2); tables.numbers.append(e.3) }
            }
            form = .ends
        }
        self.form = form
        self.first = Int32(first)
        self.segment = Int32(segment)
    }

    @inline(__always) private func progress(_ u: Double) -> Double {
        let c = curve
        switch curveKind {
        case .bezier: return TimingCurve.bezier(UnitBezier(c.0, c.1, c.2, c.3)).progress(u, duration: duration)
        case .spring: return PropertyAnimation.progress(u, spring: SpringSolver(stiffness: c.0, damping: c.1, initialVelocity: c.2), duration: duration)
        }
    }

    /// What the animation's `apply(to:cache:)` writes into `state`.
    @inline(__always) func apply(to state: inout PresentationState, cache: inout SamplingCache, _ tables: Buffers) {
        guard form != .live else { return live(&state, &cache) }
        let l = timeline._withUnsafeGuaranteedRef { cache.local($0) }
        let atEnd = l >= endThreshold
        let u: Double = atEnd ? 1 : duration > 0 ? (l - begin) / duration : (l >= begin ? 1 : 0)
        let p = cache.progress(group: groupSequence, at: u) { progress($0) }
        switch form {
        case .live: live(&state, &cache)
        case .ends:
            let width = property.width, from = tables.numbers.baseAddress! + Int(first), to = from + width
            if p <= 0 && u <= 0 {
                guard plainEnds else { return live(&state, &cache) }
                PropertyAnimation.store(Self.four(from, width), property, in: &state)
            } else if p == 1 {
                guard plainEnds else { return live(&state, &cache) }
                PropertyAnimation.store(Self.four(to, width), property, in: &state)
            } else {
                PropertyAnimation.store(mixing: Self.four(from, width), Self.four(to, width), p, property, in: &state)
            }
        case .transform:
            // Interpolator.value's usual path; its ends and edge cases are the animation's.
            guard !(p <= 0 && u <= 0), p != 1, p.isFinite, p != 0,
                  let t = tables.blends[Int(first)].value(at: p) else { return live(&state, &cache) }
            state.transform = t
        case .keyTransform:
            let n = Int(keyCount), times = UnsafeBufferPointer(rebasing: tables.numbers[Int(first)..<Int(first) + n])
            guard case .segment(let i, let v) = KeyframeTrack.locate(p, times: times, count: n, mode: keyMode) else {
                return live(&state, &cache)
            }
            let s = tables.segments[Int(segment) + i]
            switch s.kind {
            case .same where v.isFinite: state.transform = tables.transforms[Int(s.index)]
            case .blend where v.isFinite && v != 0 && v != 1:
                guard let t = tables.blends[Int(s.index)].value(at: v) else { return live(&state, &cache) }
                state.transform = t
            default: live(&state, &cache)
            }
        case .keyValues:
            let n = Int(keyCount), base = tables.numbers.baseAddress! + Int(first)
            guard case .segment(let i, let v) = KeyframeTrack.locate(p, times: UnsafeBufferPointer(start: base, count: n), count: n,
                                                                     mode: keyMode) else { return live(&state, &cache) }
            let width = property.width, values = base + n
            PropertyAnimation.store(mixing: values + i * width, values + (i + 1) * width, v, property, in: &state)
        }
    }

    /// `width` numbers from `p`, then zeros.
    @inline(__always) private static func four(_ p: UnsafePointer<Double>, _ width: Int) -> (Double, Double, Double, Double) {
        (p[0], width > 1 ? p[1] : 0, width > 2 ? p[2] : 0, width > 3 ? p[3] : 0)
    }

    /// The animation itself, borrowed (the plan is valid only while its views hold their animations).
    private func live(_ state: inout PresentationState, _ cache: inout SamplingCache) {
        source._withUnsafeGuaranteedRef { $0.apply(to: &state, cache: &cache) }
    }
}
