/// Counts the changes to an engine's views that sampling reads: hierarchy, model values, running
/// block animations, visibility, sampled form and layer extras. Shared by an engine and every view
/// it made (held strongly, so a view that outlives its engine can still count its own changes).
final class SamplingEpoch {
    var value: UInt64 = 0
    @inline(__always) func bump() { value &+= 1 }
}

/// A tree's views in painting order, with what sampling reads of each laid out contiguously:
/// its model values, its place in the tree, its sampled form and its animations.
///
/// Why: walking the live tree reads each view's object and its animation list's buffer wherever
/// the heap put them; with thousands of views those cache misses were about half of sampling time
/// (10,000 views). The plan's two arrays are read in order, which the processor prefetches. The
/// animations themselves are still objects, and their first read is now the longest wait.
///
/// The plan is only a faster way to read the same inputs: it is valid while the engine's
/// SamplingEpoch has not moved since it was built, and every input it copies is one whose change
/// moves the epoch. What it does not copy (timelines' local times, the animations' own values,
/// explicit layer animations, sublayers) is read live on every frame.
final class SamplingPlan {
    struct Entry {
        let model: PresentationState
        /// The view's sampled form, not retained: the view holds it while the plan is valid (its
        /// replacement moves the epoch). A plan then keeps nothing alive that its tree let go
        /// of, such as a removed snapshot's content, however long it goes unused.
        let view: Unmanaged<SampledView.Storage>
        let parentID: String?
        let z: Int
        let depth: Int
        /// The end of this view's animations in `animations` (they start where the previous
        /// entry's end).
        let animationEnd: Int
        let isHidden: Bool
        /// Whether the view has layer extras (sublayers, mask, style, explicit animations):
        /// those are sampled from the live view.
        let hasLayerExtras: Bool
        /// Valid while the plan is: the tree holds every view in it, and any removal moves the epoch.
        let source: Unmanaged<View>
    }

    let epoch: UInt64
    private(set) var entries: [Entry] = []
    /// Every view's block animations, view after view, each view's in its list's order (the order
    /// sampling applies them). Held by the views' lists while the plan is valid.
    private(set) var animations: [Unmanaged<PropertyAnimation>] = []
    /// Where sampling leaves what its prefetching read (see PropertyAnimation.touch(level:)),
    /// so that the reads are made.
    var touched: UInt64 = 0
    /// How many views' animations sampling touches ahead at a time: enough loads in flight to
    /// hide a memory access, few enough that what they bring stays in the first-level cache.
    static let touchBatch = 16

    /// The plan of the tree under `root`, or nil when a view in it belongs to another engine
    /// (its changes would not move this engine's epoch).
    init?(root: View, epoch: SamplingEpoch) {
        self.epoch = epoch.value
        entries.reserveCapacity(root.lastSampleCount)
        guard add(root, parentID: nil, z: 0, depth: 0, epoch: epoch) else { return nil }
    }

    /// Views and animations are borrowed, not retained, as in the recursive walk: retaining a
    /// view is an atomic operation on its side table (subviews hold their superview weakly).
    private func add(_ v: View, parentID: String?, z: Int, depth: Int, epoch: SamplingEpoch) -> Bool {
        guard v.samplingEpoch === epoch else { return false }
        v.animations.list.withUnsafeBufferPointer { list in
            for i in list.indices { animations.append(Unmanaged.passUnretained(list[i])) }
        }
        let sampled = SampledView(v).storage   // made and kept by the view if it had none
        entries.append(Entry(model: v.model, view: Unmanaged.passUnretained(sampled), parentID: parentID, z: z, depth: depth,
                             animationEnd: animations.count, isHidden: v.isHidden, hasLayerExtras: v.hasLayerExtras,
                             source: Unmanaged.passUnretained(v)))
        guard !v.subviews.isEmpty else { return true }
        let id = v.id
        return v.subviews.withUnsafeBufferPointer { children in
            for i in children.indices {
                let added = Unmanaged.passUnretained(children[i])._withUnsafeGuaranteedRef {
                    add($0, parentID: id, z: i, depth: depth + 1, epoch: epoch)
                }
                guard added else { return false }
            }
            return true
        }
    }
}

extension AnimationEngine {
    /// Touches the animations in `range` level by level (see PropertyAnimation.touch(level:)).
    private static func touch(_ animations: UnsafeBufferPointer<Unmanaged<PropertyAnimation>>, _ range: Range<Int>) -> UInt64 {
        var w: UInt64 = 0
        for level in 0..<3 {
            for k in range { w ^= animations[k]._withUnsafeGuaranteedRef { $0.touch(level: level) } }
        }
        return w
    }

    /// Touches the header (reference count) of the sampled forms in `range`: each frame's node
    /// retains its view's form.
    private static func touch(_ entries: UnsafeBufferPointer<SamplingPlan.Entry>, _ range: Range<Int>) -> UInt64 {
        var w: UInt64 = 0
        for k in range { w ^= UInt64(UInt(bitPattern: UnsafeRawPointer(entries[k].view.toOpaque()).load(as: Int.self))) }
        return w
    }

    /// sampleTree from a plan: the same nodes, from the same inputs, in the same order of
    /// operations (the plan's order is the recursive walk's, and the cache is shared the same way).
    func sample(_ plan: SamplingPlan, into out: inout [PresentationNode]) {
        var cache = SamplingCache(now: now)
        plan.entries.withUnsafeBufferPointer { entries in
            plan.animations.withUnsafeBufferPointer { animations in
                var a = 0
                var touchedThrough = 0
                for i in entries.indices {
                    if i == touchedThrough {
                        touchedThrough = min(i + SamplingPlan.touchBatch, entries.count)
                        plan.touched ^= Self.touch(animations, a..<entries[touchedThrough - 1].animationEnd)
                            ^ Self.touch(entries, i..<touchedThrough)
                    }
                    var state = entries[i].model
                    let end = entries[i].animationEnd
                    while a < end {
                        animations[a]._withUnsafeGuaranteedRef { $0.apply(to: &state, cache: &cache) }
                        a += 1
                    }
                    var layerBox: PresentationNode.LayerBox?
                    if entries[i].hasLayerExtras {
                        entries[i].source._withUnsafeGuaranteedRef { v in
                            if !v.layerAnimations.isEmpty { state = coreAnimation.applying(to: v, state) }
                            layerBox = sampleLayers(of: v).map(PresentationNode.LayerBox.init)
                        }
                    }
                    out.append(PresentationNode(view: SampledView(storage: entries[i].view.takeUnretainedValue()),
                                                parentID: entries[i].parentID, z: entries[i].z,
                                                depth: entries[i].depth, state: state, isHidden: entries[i].isHidden,
                                                layerBox: layerBox))
                }
            }
        }
    }
}
