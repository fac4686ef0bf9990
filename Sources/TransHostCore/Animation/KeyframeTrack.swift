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

/// The keyframes of one property: values at key times in [0, 1].
/// Placeholder: linear interpolation only; the engine issue brings every calculation mode.
public struct KeyframeTrack: Equatable, Sendable {
    public var keyTimes: [Double]
    public var values: [AnimatableValue]
    public var mode: KeyframeCalculationMode

    public init(keyTimes: [Double], values: [AnimatableValue], mode: KeyframeCalculationMode) {
        self.keyTimes = keyTimes; self.values = values; self.mode = mode
    }

    /// Composes UIKit-style keyframes: `frames` are (relativeStart, relativeDuration, value);
    /// the initial value is prepended at 0, each value lands at min(start + duration, next start)
    /// and is held until the next frame starts.
    public static func compose(initial: AnimatableValue, frames: [(start: Double, duration: Double, value: AnimatableValue)],
                               mode: KeyframeCalculationMode) -> KeyframeTrack {
        let sorted = frames.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        var times: [Double] = [0], values: [AnimatableValue] = [initial]
        for (i, f) in sorted.enumerated() {
            let start = min(max(f.start, 0), 1)
            let nextStart = i + 1 < sorted.count ? min(max(sorted[i + 1].start, 0), 1) : 1
            let land = min(start + max(f.duration, 0), nextStart)
            if start > times.last! { times.append(start); values.append(values.last!) }
            times.append(max(land, times.last!)); values.append(f.value)
        }
        if times.last! < 1 { times.append(1); values.append(values.last!) }
        return KeyframeTrack(keyTimes: times, values: values, mode: mode)
    }

    /// The value at progress p in [0, 1] of the whole keyframe animation.
    public func value(at p: Double, property: AnimatableProperty) -> AnimatableValue {
        guard let first = values.first else { return [] }
        if p <= keyTimes[0] { return first }
        for i in 1..<keyTimes.count where p <= keyTimes[i] {
            let span = keyTimes[i] - keyTimes[i - 1]
            let u = span > 0 ? (p - keyTimes[i - 1]) / span : 1
            return ValueCodec.interpolate(property, values[i - 1], values[i], u)
        }
        return values.last!
    }
}
