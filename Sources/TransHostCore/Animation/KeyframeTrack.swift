/// Calculation modes of animateKeyframes (UIViewKeyframeAnimationOptionCalculationMode*).
public enum KeyframeCalculationMode: String, Sendable, CaseIterable {
    case linear, discrete, paced, cubic, cubicPaced

    /// From UIViewKeyframeAnimationOptions bits 10-12.
    public init(optionBits options: UInt32) {
        switch (options >> 10) & 7 {
        case 1: self = .discrete
        case 2: self = .paced
        case 3: self = .cubic
        case 4: self = .cubicPaced
        default: self = .linear
        }
    }
}

/// The keyframes of one property: values at key times in [0, 1], evaluated as
/// CAKeyframeAnimation evaluates its calculation modes:
///
/// - `linear`: straight segments between successive (keyTime, value) pairs.
/// - `discrete`: value i holds over [keyTimes[i], keyTimes[i + 1]); the last value holds from
///   its key time through 1. Where key times repeat, the later value wins.
/// - `paced`: key times are ignored; value i is reached at D_i / D, D_i being the cumulative
///   Euclidean distance between successive value vectors (for a transform, its 16 values),
///   with linear segments. If every value is equal, the key times are uniform.
/// - `cubic`: a Catmull-Rom spline through the values; each segment is parametrized by the
///   key times (u = (p - k_i) / (k_i+1 - k_i)) with tangents m_i = (v_i+1 - v_i-1) / 2; at the
///   ends the missing neighbour is the end value itself (m_0 = (v_1 - v_0) / 2, likewise at the
///   last value), so the ends are treated like any other point.
/// - `cubicPaced`: the paced key times with the cubic values.
///
/// Transforms interpolate with `Transform3D.interpolate` (decomposition) in the linear, discrete
/// and paced modes; in the cubic modes a transform's spline is taken component-wise over its 16
/// values (Core Animation offers no better-defined cubic blend of matrices).
///
/// Progress outside [0, 1] is clamped: a keyframe animation holds its end values.
public struct KeyframeTrack: Equatable, Sendable {
    public var keyTimes: [Double]
    public var values: [AnimatableValue]
    public var mode: KeyframeCalculationMode

    public init(keyTimes: [Double], values: [AnimatableValue], mode: KeyframeCalculationMode) {
        self.keyTimes = keyTimes; self.values = values; self.mode = mode
    }

    /// Composes UIKit-style keyframes: `frames` are (relativeStart, relativeDuration, value).
    /// Frames are sorted by start (stably); the initial value is prepended at 0; each value lands
    /// at min(start + duration, next start) and is held until the next frame starts; the last
    /// value is held through 1.
    public static func compose(initial: AnimatableValue, frames: [(start: Double, duration: Double, value: AnimatableValue)],
                               mode: KeyframeCalculationMode) -> KeyframeTrack {
        func clamp(_ x: Double) -> Double { x.isFinite ? min(max(x, 0), 1) : 0 }
        let sorted = frames.enumerated()
            .map { (offset: $0.offset, start: clamp($0.element.start), duration: $0.element.duration, value: $0.element.value) }
            .sorted { ($0.start, $0.offset) < ($1.start, $1.offset) }
        var times: [Double] = [0], values: [AnimatableValue] = [initial]
        for (i, f) in sorted.enumerated() {
            let nextStart = i + 1 < sorted.count ? sorted[i + 1].start : 1
            let duration = f.duration.isFinite ? max(f.duration, 0) : 0
            let land = min(f.start + duration, nextStart)
            // Hold the previous value until this frame starts.
            if f.start > times.last! { times.append(f.start); values.append(values.last!) }
            times.append(max(land, times.last!)); values.append(f.value)
        }
        if times.last! < 1 { times.append(1); values.append(values.last!) }
        return KeyframeTrack(keyTimes: times, values: values, mode: mode)
    }

    /// The key times the mode uses: the given ones, or the paced ones.
    public var effectiveKeyTimes: [Double] {
        switch mode {
        case .linear, .discrete, .cubic: return keyTimes
        case .paced, .cubicPaced: return Self.pacedKeyTimes(values)
        }
    }

    /// Key times proportional to the cumulative Euclidean distance between successive values;
    /// uniform when the values are all equal.
    public static func pacedKeyTimes(_ values: [AnimatableValue]) -> [Double] {
        let n = values.count
        guard n > 1 else { return n == 1 ? [0] : [] }
        var cumulative = [0.0]
        for i in 1..<n {
            var s = 0.0
            for j in 0..<min(values[i].count, values[i - 1].count) {
                let d = values[i][j] - values[i - 1][j]
                s += d * d
            }
            cumulative.append(cumulative.last! + s.squareRoot())
        }
        let total = cumulative.last!
        guard total > 0, total.isFinite else { return (0..<n).map { Double($0) / Double(n - 1) } }
        var out = cumulative.map { $0 / total }
        out[n - 1] = 1
        return out
    }

    /// The value at progress p of the whole keyframe animation (clamped to [0, 1]).
    public func value(at p: Double, property: AnimatableProperty) -> AnimatableValue {
        guard !values.isEmpty else { return [] }
        switch locate(p, times: samplingKeyTimes) {
        case .value(let i): return values[i]
        case .segment(let i, let u):
            switch mode {
            case .linear, .paced, .discrete:
                return ValueCodec.interpolate(property, values[i], values[i + 1], u)
            case .cubic, .cubicPaced:
                return catmullRom(segment: i, u: u)
            }
        }
    }

    /// Where progress p falls: on one value, or between values i and i + 1 at u.
    enum Location { case value(Int), segment(Int, Double) }

    /// The key times `value(at:)` samples with: the effective ones, or uniform ones when they
    /// are malformed (rather than failing). An animation computes them once.
    var samplingKeyTimes: [Double] {
        let n = values.count
        let times = effectiveKeyTimes
        return times.count == n ? times : (0..<n).map { Double($0) / Double(max(n - 1, 1)) }
    }

    /// Locates p (clamped to [0, 1]) among `times` (samplingKeyTimes; values must not be empty).
    func locate(_ p: Double, times: [Double]) -> Location { Self.locate(p, times: times, count: values.count, mode: mode) }

    /// `locate` for `count` values in `mode`, over key times held anywhere (sampling keeps its
    /// own copy outside reference-counted storage).
    static func locate<Times: RandomAccessCollection>(_ p: Double, times: Times, count n: Int, mode: KeyframeCalculationMode)
        -> Location where Times.Element == Double, Times.Index == Int {
        if n == 1 { return .value(0) }
        let p = p.isFinite ? min(max(p, 0), 1) : 0
        if p < times[0] { return .value(0) }
        // The segment: the last i with times[i] <= p (so a repeated key time shows its later value).
        var i = 0
        while i + 1 < n && times[i + 1] <= p { i += 1 }
        if mode == .discrete || i == n - 1 { return .value(i) }
        let span = times[i + 1] - times[i]
        return .segment(i, span > 0 ? (p - times[i]) / span : 1)
    }

    /// Cubic Hermite segment i at u with Catmull-Rom tangents (ends: the end value is its own
    /// missing neighbour).
    private func catmullRom(segment i: Int, u: Double) -> AnimatableValue {
        let n = values.count
        let v0 = values[max(i - 1, 0)], v1 = values[i], v2 = values[i + 1], v3 = values[min(i + 2, n - 1)]
        let u2 = u * u, u3 = u2 * u
        let h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2
        let width = min(v0.count, v1.count, v2.count, v3.count)
        var out = v1
        for j in 0..<width {
            let m1 = (v2[j] - v0[j]) / 2, m2 = (v3[j] - v1[j]) / 2
            out[j] = h00 * v1[j] + h10 * m1 + h01 * v2[j] + h11 * m2
        }
        return out
    }
}
