/// Counts the changes to an engine's views that sampling reads: hierarchy, model values, running
/// block animations, visibility, sampled form and layer extras. Shared by an engine and every view
/// it made (held strongly, so a view that outlives its engine can still count its own changes).
final class SamplingEpoch {
    var value: UInt64 = 0
    @inline(__always) func bump() { value &+= 1 }
    /// How many of the engine's views are alive: no tree of them is larger (see sampleTree).
    var views = 0
}

/// A tree's views in painting order, with what sampling reads of each laid out contiguously:
/// its model values, its place in the tree, its sampled form and its animations.
///
/// Why: walking the live tree reads each view's object and its animation list's buffer wherever
/// the heap put them; with thousands of views those cache misses were about half of sampling time
/// (10,000 views). The plan's arrays are read in order, which the processor prefetches. The
/// animations are copied into it too (see PlannedAnimation): read as objects, with the buffers
/// and interpolators they point to, they were then most of the wait.
///
/// The plan is only a faster way to read the same inputs: it is valid while the engine's
/// SamplingEpoch has not moved since it was built, and every input it copies is one whose change
/// moves the epoch (an animation's copied values are its constants). What it does not copy
/// (timelines' local times, explicit layer animations, sublayers) is read live on every frame.
final class SamplingPlan {
    struct Entry {
        /// The model values but the transform (most views have the identity, or animate it).
        let model: Model
        /// The model transform in `tables.transforms`, or -1: the identity, or one of the view's
        /// animations sets the transform (every path of an animation's sampling stores its value).
        let transform: Int32
        /// The view's sampled form, not retained: the view holds it while the plan is valid (its
        /// replacement moves the epoch). A plan then keeps nothing alive that its tree let go
        /// of, such as a removed snapshot's content, however long it goes unused.
        let view: Unmanaged<SampledView.Storage>
        let parentID: String?
        let z: Int32
        let depth: Int32
        /// The end of this view's animations in `animations` (they start where the previous
        /// entry's end).
        let animationEnd: Int32
        let isHidden: Bool
        /// Whether the view has layer extras (sublayers, mask, style, explicit animations):
        /// those are sampled from the live view.
        let hasLayerExtras: Bool
        /// Valid while the plan is: the tree holds every view in it, and any removal moves the epoch.
        let source: Unmanaged<View>
    }

    /// PresentationState without its transform: an entry is read for every view on every frame,
    /// and a transform is half of a state.
    struct Model {
        let bounds: Rect
        let position: Point
        let anchorPoint: Point
        let alpha: Double
        let backgroundColor: Color?
        let cornerRadius: Double

        init(_ s: PresentationState) {
            bounds = s.bounds; position = s.position; anchorPoint = s.anchorPoint
            alpha = s.alpha; backgroundColor = s.backgroundColor; cornerRadius = s.cornerRadius
        }

        @inline(__always) func state(transform: Transform3D) -> PresentationState {
            PresentationState(bounds: bounds, position: position, anchorPoint: anchorPoint, transform: transform, alpha: alpha,
                              backgroundColor: backgroundColor, cornerRadius: cornerRadius)
        }
    }

    let epoch: UInt64
    private(set) var entries: [Entry] = []
    /// Every view's block animations, view after view, each view's in its list's order (the order
    /// sampling applies them). Their sources are held by the views' lists while the plan is valid.
    private(set) var animations: [PlannedAnimation] = []
    /// What the animations' copies index into: blends, held transforms, key times and values.
    private(set) var tables = PlannedAnimation.Tables()
    /// Where sampling leaves what its prefetching read (see `touch`), so that the reads are made.
    var touched: UInt64 = 0
    /// How many views' sampled forms sampling touches ahead at a time: enough loads in flight to
    /// hide a memory access, few enough that what they bring stays in the first-level cache.
    static let touchBatch = 16

    /// The plan of the tree under `root`, or nil when a view in it belongs to another engine
    /// (its changes would not move this engine's epoch).
    init?(root: View, epoch: SamplingEpoch) {
        self.epoch = epoch.value
        // The tree's size at its last frame, or at most every view of the engine on its first.
        let size = root.lastSampledEpoch == nil ? epoch.views : root.lastSampleCount
        entries.reserveCapacity(size)
        // Most animated views have one or two animations; growing an array copies it.
        animations.reserveCapacity(size * 2)
        tables.reserve(views: size)
        guard add(root, parentID: nil, z: 0, depth: 0, epoch: epoch) else { return nil }
    }

    /// The plan's arrays, for one frame's reading.
    func withBuffers<R>(_ body: (UnsafeBufferPointer<Entry>, UnsafeBufferPointer<PlannedAnimation>, PlannedAnimation.Buffers) -> R) -> R {
        entries.withUnsafeBufferPointer { entries in
            animations.withUnsafeBufferPointer { animations in
                tables.blends.withUnsafeBufferPointer { blends in
                    tables.transforms.withUnsafeBufferPointer { transforms in
                        tables.numbers.withUnsafeBufferPointer { numbers in
                            tables.segments.withUnsafeBufferPointer { segments in
                                body(entries, animations, PlannedAnimation.Buffers(blends: blends, transforms: transforms,
                                                                                    numbers: numbers, segments: segments))
                            }
                        }
                    }
                }
            }
        }
    }

    /// Views and animations are borrowed, not retained, as in the recursive walk: retaining a
    /// view is an atomic operation on its side table (subviews hold their superview weakly).
    private func add(_ v: View, parentID: String?, z: Int, depth: Int, epoch: SamplingEpoch) -> Bool {
        guard v.samplingEpoch === epoch else { return false }
        var animatesTransform = false
        v.animations.list.withUnsafeBufferPointer { list in
            for i in list.indices {
                animations.append(PlannedAnimation(list[i], into: &tables))
                if list[i].property == .transform { animatesTransform = true }
            }
        }
        let sampled = SampledView(v).storage   // made and kept by the view if it had none
        var transform: Int32 = -1
        // Bit for bit: a -0 in the model must not become the identity's 0.
        let identity = withUnsafeBytes(of: v.model.transform) { a in withUnsafeBytes(of: Transform3D.identity) { a.elementsEqual($0) } }
        if !animatesTransform && !identity {
            tables.transforms.append(v.model.transform)
            transform = Int32(tables.transforms.count - 1)
        }
        entries.append(Entry(model: Model(v.model), transform: transform, view: Unmanaged.passUnretained(sampled), parentID: parentID,
                             z: Int32(z), depth: Int32(depth), animationEnd: Int32(animations.count), isHidden: v.isHidden,
                             hasLayerExtras: v.hasLayerExtras, source: Unmanaged.passUnretained(v)))
        guard !v.subviews.isEmpty else { return true }
        let id = v.id
        return v.subviews.withUnsafeBufferPointer { children in
            var touchedThrough = 0
            for i in children.indices {
                if i == touchedThrough {
                    touchedThrough = min(i + Self.buildTouchBatch, children.count)
                    touched ^= Self.touch(children, i..<touchedThrough)
                }
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
        out.reserveCapacity(plan.entries.count)   // exactly: a tree's first frame has no size to go by
        var cache = SamplingCache(now: now)
        plan.withBuffers { entries, animations, tables in
                var a = 0
                var touchedThrough = 0
                for i in entries.indices {
                    if i == touchedThrough {
                        touchedThrough = min(i + SamplingPlan.touchBatch, entries.count)
                        plan.touched ^= Self.touch(entries, i..<touchedThrough)
                    }
                    let t = entries[i].transform
                    var state = entries[i].model.state(transform: t < 0 ? .identity : tables.transforms[Int(t)])
                    let end = Int(entries[i].animationEnd)
                    while a < end {
                        animations[a].apply(to: &state, cache: &cache, tables)
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
                                                parentID: entries[i].parentID, z: Int(entries[i].z),
                                                depth: Int(entries[i].depth), state: state, isHidden: entries[i].isHidden,
                                                layerBox: layerBox))
                }
        }
    }
}
