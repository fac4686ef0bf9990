#if canImport(Glibc)
import Glibc
#endif

/// The value an animation shows, given the underlying value of its key path.
extension LayerAnimation {
    /// The start and end values of a basic or spring animation, as Core Animation pairs
    /// `fromValue`, `toValue` and `byValue` (the missing ends come from the underlying value).
    static func endpoints(from: LayerValue?, to: LayerValue?, by: LayerValue?, underlying u: LayerValue) -> (LayerValue, LayerValue) {
        switch (from, to, by) {
        case (let f?, let t?, _): return (f, t)
        case (let f?, nil, let b?): return (f, f.adding(b) ?? f)
        case (nil, let t?, let b?): return (t.subtracting(b) ?? u, t)
        case (let f?, nil, nil): return (f, u)
        case (nil, let t?, nil): return (u, t)
        case (nil, nil, let b?): return (u, u.adding(b) ?? u)
        case (nil, nil, nil): return (u, u)
        }
    }

    /// The animated value at a pass's `time` (seconds) and timed `progress`; nil for a group or
    /// when there is nothing to show (a keyframe animation without values).
    func value(time: Double, progress: Double, underlying u: LayerValue) -> (value: LayerValue, angle: Double?)? {
        switch kind {
        case .basic(let f, let t, let b):
            let (a, z) = Self.endpoints(from: f, to: t, by: b, underlying: u)
            return (progress >= 1 ? z : progress <= 0 ? a : a.interpolated(to: z, progress), nil)
        case .spring(let f, let t, let b, let spring):
            let (a, z) = Self.endpoints(from: f, to: t, by: b, underlying: u)
            return (a.interpolated(to: z, spring.solver.progress(at: time)), nil)
        case .keyframe(let k):
            if let path = k.path, let (p, angle) = PathWalk(path, mode: k.mode, keyTimes: k.keyTimes, timing: k.timingFunctions).point(at: progress) {
                let turn: Double? = k.rotationMode == .none ? nil : angle + (k.rotationMode == .autoReverse ? Double.pi : 0)
                return (.point(p), turn)
            }
            return k.value(at: progress).map { ($0, nil) }
        case .group:
            return nil
        }
    }
}

extension LayerAnimation.Keyframes {
    /// The key times the values land on: given (one per value), paced by distance, or even.
    var effectiveKeyTimes: [Double] {
        let n = values.count
        if mode == .paced || mode == .cubicPaced {
            var cum = [0.0]
            for i in 1..<max(n, 1) { cum.append(cum[i - 1] + values[i - 1].distance(to: values[i])) }
            if let total = cum.last, total > 0, total.isFinite { return cum.map { $0 / total } }
        } else if let k = keyTimes, k.count == n, k.allSatisfy(\.isFinite) {
            return k
        }
        return n < 2 ? [0] : (0..<n).map { Double($0) / Double(n - 1) }
    }

    /// The value at progress p through the whole animation.
    func value(at p: Double) -> LayerValue? {
        guard let first = values.first else { return nil }
        let n = values.count
        if n == 1 { return first }
        let times = effectiveKeyTimes
        if p <= times[0] { return first }
        var i = 0
        while i + 1 < n && times[i + 1] <= p { i += 1 }
        if mode == .discrete || i == n - 1 { return values[i] }
        let span = times[i + 1] - times[i]
        var f = span > 0 ? (p - times[i]) / span : 1
        // Each segment's own timing function (CAKeyframeAnimation.timingFunctions), per segment.
        if let fs = timingFunctions, i < fs.count { f = fs[i].solve(f) }
        if mode == .cubic || mode == .cubicPaced {
            return catmullRom(i, f)
        }
        return values[i].interpolated(to: values[i + 1], f)
    }

    /// Cubic Hermite segment with Catmull-Rom tangents (an end is its own missing neighbour).
    private func catmullRom(_ i: Int, _ u: Double) -> LayerValue {
        let n = values.count
        let v0 = values[max(i - 1, 0)].vector, v1 = values[i].vector, v2 = values[i + 1].vector, v3 = values[min(i + 2, n - 1)].vector
        guard [v0.count, v2.count, v3.count].allSatisfy({ $0 == v1.count }), values[i].matches(values[i + 1]) else {
            return values[i].interpolated(to: values[i + 1], u)
        }
        let u2 = u * u, u3 = u2 * u
        let h00 = 2 * u3 - 3 * u2 + 1, h10 = u3 - 2 * u2 + u, h01 = -2 * u3 + 3 * u2, h11 = u3 - u2
        let out = (0..<v1.count).map { j in
            h00 * v1[j] + h10 * (v2[j] - v0[j]) / 2 + h01 * v2[j] + h11 * (v3[j] - v1[j]) / 2
        }
        return values[i].with(vector: out)
    }
}

/// A point moving along a path (CAKeyframeAnimation.path): each line or curve is a segment,
/// reached at the key times (one per segment end, the first at 0) or, paced, in proportion to
/// arc length; `moveTo` jumps, `closeSubpath` is a line back to the subpath's start.
struct PathWalk {
    struct Segment { let points: [Point] }
    let segments: [Segment]
    let times: [Double]
    let timing: [UnitBezier]?
    let discrete: Bool

    init(_ path: Path, mode: KeyframeCalculationMode, keyTimes: [Double]?, timing: [UnitBezier]?) {
        var segs: [Segment] = []
        var current = Point.zero, start = Point.zero
        for e in path.elements {
            switch e {
            case .moveTo(let p): current = p; start = p
            case .lineTo(let p): segs.append(Segment(points: [current, p])); current = p
            case .quadCurveTo(let p, let c): segs.append(Segment(points: [current, c, p])); current = p
            case .curveTo(let p, let c1, let c2): segs.append(Segment(points: [current, c1, c2, p])); current = p
            case .closeSubpath: if current != start { segs.append(Segment(points: [current, start])) }; current = start
            }
        }
        segments = segs
        self.timing = timing
        discrete = mode == .discrete
        let n = segs.count
        if mode == .paced || mode == .cubicPaced {
            var cum = [0.0]
            for s in segs { cum.append(cum.last! + Self.length(s)) }
            let total = cum.last!
            times = total > 0 ? cum.map { $0 / total } : (0...n).map { Double($0) / Double(max(n, 1)) }
        } else if let k = keyTimes, k.count == n + 1 {
            times = k
        } else {
            times = (0...n).map { Double($0) / Double(max(n, 1)) }
        }
    }

    static func at(_ s: Segment, _ t: Double) -> Point {
        let p = s.points
        switch p.count {
        case 2: return Point(x: p[0].x + (p[1].x - p[0].x) * t, y: p[0].y + (p[1].y - p[0].y) * t)
        case 3: return Path.quad(p[0], p[1], p[2], t)
        default: return Path.cubic(p[0], p[1], p[2], p[3], t)
        }
    }

    static func length(_ s: Segment) -> Double {
        var len = 0.0, prev = at(s, 0)
        for i in 1...32 { let q = at(s, Double(i) / 32); len += hypot(q.x - prev.x, q.y - prev.y); prev = q }
        return len
    }

    /// The point and the tangent's angle at progress p; nil for a path without segments.
    func point(at p: Double) -> (Point, Double)? {
        guard !segments.isEmpty else { return nil }
        var i = 0
        while i + 1 < segments.count && times[i + 1] <= p { i += 1 }
        let span = times[i + 1] - times[i]
        var f = span > 0 ? min(max((p - times[i]) / span, 0), 1) : 1
        if discrete { f = p >= times[i + 1] ? 1 : 0 }
        if let fs = timing, i < fs.count { f = fs[i].solve(f) }
        let s = segments[i]
        let q = Self.at(s, f)
        let a = Self.at(s, max(f - 1e-4, 0)), b = Self.at(s, min(f + 1e-4, 1))
        return (q, atan2(b.y - a.y, b.x - a.x))
    }
}
