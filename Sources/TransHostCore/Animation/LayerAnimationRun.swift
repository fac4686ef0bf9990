/// What an explicit animation is attached to: a view's own layer, or a standalone layer.
public enum LayerTarget {
    case view(View)
    case layer(Layer)

    var engine: AnimationEngine {
        switch self { case .view(let v): return v.engine; case .layer(let l): return l.engine }
    }
    var id: String {
        switch self { case .view(let v): return v.id; case .layer(let l): return l.id }
    }
}

/// One explicit animation added to a layer (`layer.add(_:forKey:)`), in its timeline's time.
final class LayerAnimationRun {
    let key: String
    let animation: LayerAnimation
    let timeline: AnimationTimeline
    /// The timeline-local time at which its active time is 0.
    let begin: Double
    let sequence: Int
    let onStart: (() -> Void)?
    let onStop: ((Bool) -> Void)?
    private(set) weak var view: View?
    private(set) weak var layer: Layer?
    var started = false
    var stopped = false
    /// Removed from its layer (by its end with isRemovedOnCompletion, or by a removal).
    var removed = false

    init(key: String, animation: LayerAnimation, target: LayerTarget, timeline: AnimationTimeline, begin: Double, sequence: Int,
         onStart: (() -> Void)?, onStop: ((Bool) -> Void)?) {
        self.key = key; self.animation = animation; self.timeline = timeline; self.begin = begin; self.sequence = sequence
        self.onStart = onStart; self.onStop = onStop
        switch target { case .view(let v): view = v; case .layer(let l): layer = l }
    }

    var target: LayerTarget? {
        if let view { return .view(view) }
        if let layer { return .layer(layer) }
        return nil
    }

    /// Active time (x speed) at timeline-local time `l`.
    func activeTime(atLocal l: Double) -> Double { (l - begin) * animation.speed }

    /// The timeline-local time at which it ends in its direction of travel; nil: never (an
    /// infinite repeat, a speed of 0).
    var endLocal: Double? {
        let d = animation.activeDuration
        guard d.isFinite, animation.speed > 0, animation.speed.isFinite else { return nil }
        return begin + d / animation.speed
    }

    /// When it starts and stops, in timeline-local time, in the timeline's direction of travel:
    /// on a reversed timeline (a cancelled transition) it stops when time is back at its start
    /// (or the timeline's reverse stop), as view animation blocks do.
    var stopLocal: Double? {
        if timeline.speed < 0 { return min(timeline.reverseStop ?? begin, begin) }
        return endLocal
    }
}
