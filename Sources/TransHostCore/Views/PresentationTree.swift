/// What a frame keeps of a view besides its presentation values: its identity and what it draws,
/// as they were at the sampled instant. A value, so frames can be kept, compared and sent
/// elsewhere (a worker process) without the live view.
public struct SampledView: Hashable, Sendable {
    /// The values, shared by every frame that sampled the view unchanged: a frame then holds
    /// one reference per view instead of a copy of each string (sampling is the engine's hot
    /// path, and long transitions keep thousands of frames).
    final class Storage: Sendable {
        let id: String
        let name: String
        let content: ViewContent
        let contentVersion: Int
        let clipsToBounds: Bool
        let isSnapshot: Bool
        let resizableSize: Size?
        let capInsets: EdgeInsets

        init(id: String, name: String, content: ViewContent, contentVersion: Int, clipsToBounds: Bool, isSnapshot: Bool,
             resizableSize: Size?, capInsets: EdgeInsets) {
            self.id = id; self.name = name; self.content = content; self.contentVersion = contentVersion
            self.clipsToBounds = clipsToBounds; self.isSnapshot = isSnapshot
            self.resizableSize = resizableSize; self.capInsets = capInsets
        }
    }

    let storage: Storage

    public var id: String { storage.id }
    public var name: String { storage.name }
    public var content: ViewContent { storage.content }
    /// Changes whenever the content, clipping, background or radius does (raster cache key).
    public var contentVersion: Int { storage.contentVersion }
    public var clipsToBounds: Bool { storage.clipsToBounds }
    public var isSnapshot: Bool { storage.isSnapshot }
    /// A resizable snapshot's size when taken, and its cap insets (see View.resizableSize).
    public var resizableSize: Size? { storage.resizableSize }
    public var capInsets: EdgeInsets { storage.capInsets }
    /// The same for views that share their stored values (every frame that sampled a view
    /// unchanged): a key cheaper than the values, for a table of the distinct views.
    public var storageIdentity: ObjectIdentifier { ObjectIdentifier(storage) }

    public init(_ v: View) {
        if let s = v.sampledStorage {
            storage = s
        } else {
            storage = Storage(id: v.id, name: v.name, content: v.content, contentVersion: v.contentVersion,
                              clipsToBounds: v.clipsToBounds, isSnapshot: v.isSnapshot,
                              resizableSize: v.resizableSize, capInsets: v.capInsets)
            v.sampledStorage = storage
        }
    }

    /// Whether this is a resizable snapshot shown at another size than it was taken at.
    public func isStretched(toBounds bounds: Rect) -> Bool {
        guard let n = resizableSize else { return false }
        return abs(n.width - bounds.width) > 1e-9 || abs(n.height - bounds.height) > 1e-9
    }

    /// The form a SamplingPlan keeps for a view.
    init(storage: Storage) { self.storage = storage }

    /// A view as another process sampled it (a playback worker's frames, decoded).
    public init(id: String, name: String, content: ViewContent, contentVersion: Int, clipsToBounds: Bool, isSnapshot: Bool,
                resizableSize: Size? = nil, capInsets: EdgeInsets = EdgeInsets(top: 0, left: 0, bottom: 0, right: 0)) {
        storage = Storage(id: id, name: name, content: content, contentVersion: contentVersion, clipsToBounds: clipsToBounds,
                          isSnapshot: isSnapshot, resizableSize: resizableSize, capInsets: capInsets)
    }

    public static func == (a: SampledView, b: SampledView) -> Bool {
        if a.storage === b.storage { return true }
        return a.id == b.id && a.name == b.name && a.content == b.content && a.contentVersion == b.contentVersion
            && a.clipsToBounds == b.clipsToBounds && a.isSnapshot == b.isSnapshot && a.resizableSize == b.resizableSize
            && a.capInsets == b.capInsets
    }

    public func hash(into h: inout Hasher) {
        h.combine(id); h.combine(name); h.combine(content); h.combine(contentVersion)
        h.combine(clipsToBounds); h.combine(isSnapshot); h.combine(resizableSize); h.combine(capInsets)
    }
}

/// One view as the screen shows it at one instant: what traces record and renderers draw.
public struct PresentationNode: Equatable, Sendable {
    /// The view as it was at that instant (its model values are not used).
    public let view: SampledView
    public let parentID: String?
    /// Index among the parent's subviews (0 is at the back).
    public let z: Int
    /// Depth in the tree (the root is 0).
    public let depth: Int
    public let state: PresentationState
    public let isHidden: Bool
    /// The view layer's sublayers, mask and style at that instant (presentation values); nil
    /// when it has none of them. What a renderer must draw with it: see LayerTreeSample.
    public var layers: LayerTreeSample? { layerBox?.sample }

    /// The layer sample behind a reference: inline it would make every node about a kilobyte
    /// (a style, a mask's whole LayerState), though most views have none. Every frame builds
    /// a node per view and long transitions keep thousands of frames.
    private let layerBox: LayerBox?

    final class LayerBox: Equatable, Sendable {
        let sample: LayerTreeSample
        init(_ sample: LayerTreeSample) { self.sample = sample }
        static func == (a: LayerBox, b: LayerBox) -> Bool { a === b || a.sample == b.sample }
    }

    public init(view: SampledView, parentID: String?, z: Int, depth: Int, state: PresentationState, isHidden: Bool,
                layers: LayerTreeSample? = nil) {
        self.init(view: view, parentID: parentID, z: z, depth: depth, state: state, isHidden: isHidden, layerBox: layers.map(LayerBox.init))
    }

    init(view: SampledView, parentID: String?, z: Int, depth: Int, state: PresentationState, isHidden: Bool, layerBox: LayerBox?) {
        self.view = view; self.parentID = parentID; self.z = z; self.depth = depth; self.state = state; self.isHidden = isHidden
        self.layerBox = layerBox
    }

    /// The same node showing `state` (a renderer draws a stretched snapshot's content at the size
    /// it was taken at, then stretches it).
    public func with(state: PresentationState) -> PresentationNode {
        PresentationNode(view: view, parentID: parentID, z: z, depth: depth, state: state, isHidden: isHidden, layerBox: layerBox)
    }
}

extension AnimationEngine {
    /// The presentation tree under `root` (included) in painting order: depth-first, parents
    /// before children, children back to front.
    ///
    /// This is the engine's hot path (every frame, every view): it computes the same values as
    /// `presentation(of:)` and `sampleLayers(of:)` for each view, in the same order of
    /// operations, but reads the clock once and shares what animations of one timeline or one
    /// block have in common (see SamplingCache), and while the tree holds still it reads a plan
    /// of it instead of the views themselves (see SamplingPlan).
    public func sampleTree(_ root: View) -> [PresentationNode] {
        var out: [PresentationNode] = []
        out.reserveCapacity(root.lastSampleCount)
        let epoch = samplingEpoch.value
        // A plan counts this engine's changes; another engine's root is always walked.
        if root.samplingEpoch === samplingEpoch, let plan = root.samplingPlan, plan.epoch == epoch {
            sample(plan, into: &out)
        } else if let plan = newPlan(for: root, at: epoch) {
            root.samplingPlan = plan
            sample(plan, into: &out)
        } else {
            root.samplingPlan = nil
            var cache = SamplingCache(now: now)
            sample(root, parentID: nil, z: 0, depth: 0, cache: &cache, into: &out)
        }
        root.lastSampledEpoch = epoch
        root.lastSampleCount = out.count
        return out
    }

    /// A plan of the tree under `root`, when one is likely to pay: a large tree (see
    /// samplingPlanMinimumViews) unchanged since its last frame is likely to hold still for the
    /// next frames too (building a plan costs about a walk). A tree that changes every frame is
    /// walked instead, and costs no more than before plans existed; so is one with another
    /// engine's view in it, which is not tried again until something changes.
    ///
    /// A tree's size is known from its last frame. Its first frame has none: it is planned when
    /// the engine has enough views alive for the tree to be large, since a tree's first frames
    /// tend to be alike (a transition's first frame is followed by the rest of it), and walking
    /// it and then building its plan on the next frame read every view from memory twice.
    private func newPlan(for root: View, at epoch: UInt64) -> SamplingPlan? {
        if let last = root.lastSampledEpoch {
            guard last == epoch, root.lastSampleCount >= samplingPlanMinimumViews else { return nil }
        } else {
            guard samplingEpoch.views >= samplingPlanMinimumViews else { return nil }
        }
        guard root.planRefusedEpoch != epoch else { return nil }
        guard let plan = SamplingPlan(root: root, epoch: samplingEpoch) else {
            root.planRefusedEpoch = epoch
            return nil
        }
        return plan
    }

    /// Appends `v`'s node, then its subtree's, back to front. Recursive, unlike most walks here:
    /// hierarchies are at most View.maxDepth deep (insertSubview refuses deeper ones), and a
    /// view passed down is borrowed, where an explicit stack retains and releases every view
    /// (an atomic operation on its side table, since subviews hold their superview weakly).
    private func sample(_ v: View, parentID: String?, z: Int, depth: Int, cache: inout SamplingCache, into out: inout [PresentationNode]) {
        var state = v.model
        // Borrowed, not retained: nothing here adds or removes animations or views.
        v.animations.list.withUnsafeBufferPointer { list in
            for i in list.indices { Unmanaged.passUnretained(list[i])._withUnsafeGuaranteedRef { $0.apply(to: &state, cache: &cache) } }
        }
        var layerBox: PresentationNode.LayerBox?
        // Explicit layer animations count among a layer's extras: a plain view skips both.
        if v.hasLayerExtras {
            if !v.layerAnimations.isEmpty { state = coreAnimation.applying(to: v, state) }
            layerBox = sampleLayers(of: v).map(PresentationNode.LayerBox.init)
        }
        out.append(PresentationNode(view: SampledView(v), parentID: parentID, z: z, depth: depth, state: state, isHidden: v.isHidden,
                                    layerBox: layerBox))
        guard !v.subviews.isEmpty else { return }
        let id = v.id
        v.subviews.withUnsafeBufferPointer { children in
            for i in children.indices {
                Unmanaged.passUnretained(children[i])._withUnsafeGuaranteedRef {
                    sample($0, parentID: id, z: i, depth: depth + 1, cache: &cache, into: &out)
                }
            }
        }
    }
}
