import TransHostCore

/// One sample of a pan gesture: the translation since the gesture began (translationInView:),
/// at `time` seconds after the gesture began.
public struct PanSample: Equatable, Sendable {
    public var time: Double
    public var translation: Point
    public init(time: Double, translation: Point) { self.time = time; self.translation = translation }
    public init(time: Double, x: Double, y: Double = 0) { self.init(time: time, translation: Point(x: x, y: y)) }
}

/// A scripted pan: it begins at time 0 (UIGestureRecognizerStateBegan, which starts the
/// transition), changes at each sample, and is released at `release.time` with the release's
/// translation (UIGestureRecognizerStateEnded). Times are relative to the gesture's start.
public struct GestureScript: Equatable, Sendable {
    public var samples: [PanSample]
    public var release: PanSample
    /// velocityInView: at the release, in points per second; nil: from the last movement (see
    /// `releaseVelocity`).
    public var velocity: Point?

    public init(samples: [PanSample], release: PanSample, velocity: Point? = nil) {
        self.samples = samples; self.release = release; self.velocity = velocity
    }

    /// The velocity at the release: the given one, else the translation change from the last
    /// sample before the release to the release over the time between them (0 without one).
    public var releaseVelocity: Point {
        if let velocity { return velocity }
        guard let last = samples.last(where: { $0.time < release.time }) else { return Point(x: 0, y: 0) }
        let dt = release.time - last.time
        return Point(x: (release.translation.x - last.translation.x) / dt, y: (release.translation.y - last.translation.y) / dt)
    }

    /// A release with the last sample's translation at `releaseTime` (or at the last sample's time).
    public init(samples: [PanSample], releaseTime: Double? = nil) {
        let last = samples.last ?? PanSample(time: 0, x: 0)
        self.init(samples: samples, release: PanSample(time: releaseTime ?? last.time, translation: last.translation))
    }

    /// Problems that make the script unusable (non-finite values, negative or decreasing times,
    /// a release before the last sample), each a sentence; empty when the script is fine.
    public func validate() -> [String] {
        var problems: [String] = []
        var previous = 0.0
        for (i, s) in samples.enumerated() {
            if !s.time.isFinite || !s.translation.isFinite { problems.append("sample \(i) has a non-finite value"); continue }
            if s.time < previous { problems.append("sample \(i) at \(s.time) s comes before the previous one (\(previous) s)") }
            previous = max(previous, s.time)
        }
        if !release.time.isFinite || !release.translation.isFinite { problems.append("the release has a non-finite value") }
        if let v = velocity, !v.isFinite { problems.append("the release velocity is not finite") }
        else if release.time < previous { problems.append("the release at \(release.time) s comes before the last sample (\(previous) s)") }
        return problems
    }
}

/// How a pan maps to progress, and whether its release finishes or cancels the transition.
public struct InteractionRule: Equatable, Sendable {
    public enum Axis: String, Sendable { case horizontal, vertical }
    /// The translation component that drives progress.
    public var axis: Axis
    /// The release finishes when progress > threshold, else cancels (unless the velocity decides).
    public var threshold: Double
    /// When set: a release moving toward completion at least this fast (points per second along
    /// the axis) finishes at any progress above 0, and one moving back at least this fast
    /// cancels; slower releases go by `threshold`. nil: only the position counts.
    public var finishVelocity: Double?

    public init(axis: Axis = .horizontal, threshold: Double = 0.5, finishVelocity: Double? = nil) {
        self.axis = axis; self.threshold = threshold; self.finishVelocity = finishVelocity
    }

    /// Seed 001's rule: progress = translation.x / container width; at release, finish when the
    /// pan passed half the width (progress > 0.5), else cancel (exactly 0.5 cancels).
    public static let seed001 = InteractionRule()

    /// The navigation controller's built-in back swipe (interactivePopGestureRecognizer), as
    /// transhost models it: horizontal; a release moving right at 300 pt/s or more finishes (a
    /// fast flick at 30% pops), one moving left at 300 pt/s or more cancels, and otherwise the
    /// pop finishes past half the width.
    public static let backSwipe = InteractionRule(axis: .horizontal, threshold: 0.5, finishVelocity: 300)

    /// Signed progress for a translation in a container of `size`: component / extent (0 for an
    /// empty extent). A pan that goes back past its start is negative, and the interaction
    /// controller clamps it at 0: it does not count its absolute value.
    public func progress(_ translation: Point, in size: Size) -> Double {
        let (d, extent) = axis == .horizontal ? (translation.x, size.width) : (translation.y, size.height)
        guard extent > 0, d.isFinite else { return 0 }
        return d / extent
    }

    /// The velocity component along the axis (points per second).
    public func speed(_ velocity: Point) -> Double { axis == .horizontal ? velocity.x : velocity.y }

    /// Whether a release at `progress` moving at `velocity` (points per second) finishes the
    /// transition (else it is cancelled).
    public func finishes(atProgress progress: Double, velocity: Point = Point(x: 0, y: 0)) -> Bool {
        if let limit = finishVelocity {
            let v = speed(velocity)
            if v.isFinite && v >= limit { return progress > 0 }
            if v.isFinite && v <= -limit { return false }
        }
        return progress > threshold
    }
}

extension GestureScript {
    /// Schedules this gesture on `engine`, starting at `start` (virtual time): `began` runs at
    /// `start` (it should start the transition with `interaction` attached, e.g.
    /// `nav.pop(interaction: interaction)`), every sample calls `interaction.update(progress)`, and
    /// the release updates to the release progress then calls finish() or cancel() by `rule`.
    /// `containerSize` is read when each event runs, so a closure over the container's bounds
    /// sees its current size. Returns the problems of `validate()`; nothing is scheduled when
    /// there are any.
    @discardableResult
    public func schedule(on engine: AnimationEngine, at start: Double, driving interaction: InteractionController,
                         containerSize: @escaping () -> Size, rule: InteractionRule = .seed001,
                         began: (() -> Void)? = nil) -> [String] {
        schedule(on: engine, at: start, driving: interaction, containerSize: containerSize, rule: { rule }, began: began)
    }

    /// The same, with the rule asked for at each sample (so it can depend on the transition
    /// that began, e.g. on the routed animator's interaction).
    @discardableResult
    public func schedule(on engine: AnimationEngine, at start: Double, driving interaction: InteractionController,
                         containerSize: @escaping () -> Size, rule: @escaping () -> InteractionRule,
                         began: (() -> Void)? = nil) -> [String] {
        let problems = validate()
        guard problems.isEmpty else { return problems }
        if let began { engine.schedule(at: start, began) }
        for s in samples {
            engine.schedule(at: start + s.time) {
                interaction.update(rule().progress(s.translation, in: containerSize()))
            }
        }
        let r = release
        engine.schedule(at: start + r.time) {
            let settled = rule()
            let p = settled.progress(r.translation, in: containerSize())
            interaction.update(p)
            if settled.finishes(atProgress: p, velocity: self.releaseVelocity) { interaction.finish() } else { interaction.cancel() }
        }
        return []
    }

    /// The same, for a container view: progress is measured against `container.bounds`.
    @discardableResult
    public func schedule(on engine: AnimationEngine, at start: Double, driving interaction: InteractionController,
                         container: View, rule: InteractionRule = .seed001, began: (() -> Void)? = nil) -> [String] {
        schedule(on: engine, at: start, driving: interaction, containerSize: { [unowned container] in container.bounds.size },
                 rule: rule, began: began)
    }
}
