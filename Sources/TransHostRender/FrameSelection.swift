/// Which frames of a transition to export, as `--at` writes them: progress fractions
/// (`0`, `0.25`, `1`), times (`250ms`, `0.25s`) or frame numbers (`f12`), comma-separated.
public enum FrameSelector: Equatable, Sendable {
    case progress(Double)
    case time(Double)
    case frame(Int)

    public struct ParseError: Error, CustomStringConvertible, Equatable {
        public let item: String
        public var description: String {
            "--at: \"\(item)\" is not a progress fraction in [0, 1] (0.25), a time (250ms, 0.25s) or a frame number (f12)"
        }
    }

    public static func parse(list: String) throws -> [FrameSelector] {
        try list.split(separator: ",").map { try parse(String($0).trimmingCharacters()) }
    }

    public static func parse(_ s: String) throws -> FrameSelector {
        if s.hasPrefix("f"), let n = Int(s.dropFirst()), n >= 0 { return .frame(n) }
        if s.hasSuffix("ms"), let v = Double(s.dropLast(2)), v.isFinite, v >= 0 { return .time(v / 1000) }
        if s.hasSuffix("s"), let v = Double(s.dropLast()), v.isFinite, v >= 0 { return .time(v) }
        if let v = Double(s), v.isFinite, (0...1).contains(v) { return .progress(v) }
        throw ParseError(item: s)
    }

    /// The index of the frame this selects among frames at `times` (seconds from the start),
    /// the nearest one; nil for a frame number out of range.
    public func index(in times: [Double]) -> Int? {
        guard let last = times.last else { return nil }
        switch self {
        case .frame(let n): return n < times.count ? n : nil
        case .progress(let p): return Self.nearest(p * last, in: times)
        case .time(let t): return Self.nearest(min(t, last), in: times)
        }
    }

    /// Why this selection does not name an instant of a transition with frames at `times`, or
    /// nil when it does.
    public func problem(in times: [Double]) -> String? {
        guard let last = times.last else { return nil }
        switch self {
        case .frame(let n) where n >= times.count:
            return "--at f\(n): there are only \(times.count) frames (f0 to f\(times.count - 1)); skipped"
        case .time(let t) where t > last + 1e-9:
            return "--at \(t)s is past the end (\(last) s); the last frame was used"
        default:
            return nil
        }
    }

    static func nearest(_ t: Double, in times: [Double]) -> Int {
        var best = 0
        for (i, x) in times.enumerated() where abs(x - t) < abs(times[best] - t) - 1e-12 { best = i }
        return best
    }
}

extension String {
    func trimmingCharacters() -> String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
