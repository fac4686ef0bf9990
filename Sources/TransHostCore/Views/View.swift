/// A view and its backing layer in one object (UIView + CALayer).
///
/// Geometry follows Core Animation: `bounds`, `position` (= UIKit's center) and `anchorPoint`
/// are stored; `frame` is derived (origin = position - anchorPoint x bounds.size, for the
/// identity transform). Properties hold *model* values; inside an animation block a change
/// becomes an animation, and `AnimationEngine.presentation(of:)` gives what the screen shows.
///
/// Invariant: a view is in at most one superview's `subviews`, once; `superview` and
/// `subviews` always agree (see `checkInvariants()`).
public final class View {
    // Properties marked `@exclusivity(unchecked)` are read for every view on every frame by
    // sampleTree. The engine is single-threaded and never hands out a reference (inout) to
    // them across a call that could touch the same view, so the run-time exclusivity check
    // Swift would otherwise make on each read (a thread-local access-set lookup) buys nothing
    // here and cost about a quarter of sampling time.
    /// Stable id, unique per engine ("v1", "v2", ... in creation order).
    public let id: String
    /// A readable name for traces (a controller's root view carries its controller's type).
    public var name: String { didSet { sampledStorage = nil } }
    public unowned let engine: AnimationEngine

    /// Set on views made by `snapshotView`: their look is frozen, so renderers may cache them.
    public internal(set) var isSnapshot = false { didSet { sampledStorage = nil } }
    /// Bumped whenever content, background, corner radius, border or the subtree's membership
    /// changes; renderers key their raster caches on it.
    public internal(set) var contentVersion = 0 { didSet { sampledStorage = nil } }

    // The didSets moving `samplingEpoch` mark the inputs of sampling: a SamplingPlan built
    // before any of them changed is out of date.
    @exclusivity(unchecked) public private(set) var subviews: [View] = [] { didSet { samplingEpoch.bump() } }
    public private(set) weak var superview: View?

    /// The stored model values of the animatable properties (see the computed accessors below).
    @exclusivity(unchecked) var model: PresentationState { didSet { samplingEpoch.bump() } }
    /// Running animations by property (at most one per property; see AnimationEngine).
    @exclusivity(unchecked) var animations = ViewAnimations() { didSet { samplingEpoch.bump() } }

    @exclusivity(unchecked) public var isHidden = false { didSet { samplingEpoch.bump() } }
    /// The last sampled form of this view, reused by every frame until something it holds
    /// changes (the didSets here and of contentVersion drop it; content and clipsToBounds bump
    /// contentVersion), and the size of the last tree sampled from this view.
    /// (Storing a new form moves no epoch: only sampling stores one, from the view as it is.)
    @exclusivity(unchecked) var sampledStorage: SampledView.Storage? { didSet { if sampledStorage == nil { samplingEpoch.bump() } } }
    @exclusivity(unchecked) var lastSampleCount = 0
    /// The engine's change counter, and this view's last sampling plan as a root, with the
    /// epochs it was last sampled at and last refused a plan at (see sampleTree).
    let samplingEpoch: SamplingEpoch
    var samplingPlan: SamplingPlan?
    var lastSampledEpoch: UInt64?
    var planRefusedEpoch: UInt64?
    /// `hasLayerExtras`, kept by the didSets of what it depends on: sampling asks for every view
    /// on every frame, and those four fields lie on other cache lines than the ones it reads.
    @exclusivity(unchecked) var layerExtrasFlag = false { didSet { if layerExtrasFlag != oldValue { samplingEpoch.bump() } } }
    /// Cap insets of a resizable snapshot (see resizableSnapshotView).
    public internal(set) var capInsets = EdgeInsets.zero { didSet { sampledStorage = nil } }
    /// The size a resizable snapshot was taken at. When its bounds differ, its frozen content
    /// stretches to them (only the part inside capInsets; the caps keep their size), as UIKit's
    /// resizable snapshots do; its subviews keep the geometry they were taken with.
    public internal(set) var resizableSize: Size? { didSet { sampledStorage = nil } }
    /// Whether this is a resizable snapshot shown at another size than it was taken at.
    public func isStretched(toBounds bounds: Rect) -> Bool {
        guard let n = resizableSize else { return false }
        return abs(n.width - bounds.width) > 1e-9 || abs(n.height - bounds.height) > 1e-9
    }
    public var clipsToBounds = false { didSet { contentVersion += 1 } }

    /// Standalone layers added to this view's layer (View+Layers.swift).
    @exclusivity(unchecked) public internal(set) var sublayers: [Layer] = [] { didSet { noteLayerExtras() } }
    @exclusivity(unchecked) var maskStorage: Layer? { didSet { noteLayerExtras() } }
    /// The model values of what the view's layer has beyond `PresentationState` (perspective
    /// for its sublayers, depth sorting, culling, shadow). They change at once, as UIKit's layer
    /// properties do outside Core Animation.
    public var layerStyle = LayerStyle.plain { didSet { hasPlainStyle = layerStyle == .plain; noteLayerExtras() } }
    /// Whether `layerStyle` is `.plain`, kept by its didSet: sampling asks for every view on every
    /// frame, and comparing two styles (a transform, a shadow with its path) is not free.
    @exclusivity(unchecked) private(set) var hasPlainStyle = true
    /// Explicit Core Animation animations on the view's own layer, in the order added.
    @exclusivity(unchecked) var layerAnimations: [LayerAnimationRun] = [] { didSet { noteLayerExtras() } }
    public var content = ViewContent.none { didSet { contentVersion += 1 } }

    /// Releasing a deep chain one level per nested deinit would overflow the stack; views
    /// nobody else holds are taken apart here, one at a time.
    deinit {
        samplingEpoch.views -= 1
        var pending = subviews
        subviews = []
        while var v = pending.popLast() {
            if isKnownUniquelyReferenced(&v) {
                pending.append(contentsOf: v.subviews)
                v.subviews = []
            }
        }
    }

    public init(engine: AnimationEngine, frame: Rect = .zero, name: String = "") {
        self.engine = engine
        samplingEpoch = engine.samplingEpoch
        samplingEpoch.views += 1
        self.id = engine.nextViewID()
        self.name = name
        model = PresentationState(bounds: Rect(x: 0, y: 0, width: frame.width, height: frame.height),
                                  position: Point(x: frame.midX, y: frame.midY), anchorPoint: Point(x: 0.5, y: 0.5),
                                  transform: .identity, alpha: 1, backgroundColor: nil, cornerRadius: 0)
    }

    // MARK: Model properties

    public var bounds: Rect {
        get { model.bounds }
        set { set(.bounds, ValueCodec.rect(newValue)) }
    }
    /// UIKit's center: the layer's position.
    public var position: Point {
        get { model.position }
        set { set(.position, ValueCodec.point(newValue)) }
    }
    public var center: Point {
        get { position }
        set { position = newValue }
    }
    public var anchorPoint: Point {
        get { model.anchorPoint }
        set { set(.anchorPoint, ValueCodec.point(newValue)) }
    }
    /// The layer's 3D transform (CALayer.transform).
    public var transform3D: Transform3D {
        get { model.transform }
        set { set(.transform, newValue.values) }
    }
    /// UIView.transform: the affine part of the layer transform.
    public var transform: AffineTransform {
        get { model.transform.affine }
        set { transform3D = Transform3D(newValue) }
    }
    public var alpha: Double {
        get { model.alpha }
        set { set(.alpha, [newValue.isFinite ? min(max(newValue, 0), 1) : newValue]) }   // non-finite: rejected with a warning
    }
    public var backgroundColor: Color? {
        get { model.backgroundColor }
        set { set(.backgroundColor, ValueCodec.color(newValue)) }
    }
    public var cornerRadius: Double {
        get { model.cornerRadius }
        set { set(.cornerRadius, [newValue.isFinite ? max(newValue, 0) : newValue]) }
    }

    /// The frame in the superview's coordinates. With a non-identity transform UIKit calls it
    /// undefined; like Core Animation we return the bounding box of the transformed bounds.
    /// Setting it sets bounds.size and position and ignores the transform.
    public var frame: Rect {
        get { Self.frame(bounds: model.bounds, position: model.position, anchor: model.anchorPoint, transform: model.transform) }
        set {
            bounds = Rect(origin: model.bounds.origin, size: newValue.size)
            position = Point(x: newValue.origin.x + model.anchorPoint.x * newValue.width,
                             y: newValue.origin.y + model.anchorPoint.y * newValue.height)
        }
    }

    static func frame(bounds: Rect, position: Point, anchor: Point, transform: Transform3D) -> Rect {
        let w = bounds.width, h = bounds.height
        if transform.isIdentity {
            return Rect(x: position.x - anchor.x * w, y: position.y - anchor.y * h, width: w, height: h)
        }
        let corners = [Point(x: 0, y: 0), Point(x: w, y: 0), Point(x: 0, y: h), Point(x: w, y: h)].compactMap { c -> Point? in
            let local = Point(x: c.x - anchor.x * w, y: c.y - anchor.y * h)
            guard let p = transform.project(local) else { return nil }
            return Point(x: p.x + position.x, y: p.y + position.y)
        }
        guard let first = corners.first else { return .zero }
        var minX = first.x, maxX = first.x, minY = first.y, maxY = first.y
        for c in corners { minX = min(minX, c.x); maxX = max(maxX, c.x); minY = min(minY, c.y); maxY = max(maxY, c.y) }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    func set(_ property: AnimatableProperty, _ value: AnimatableValue) {
        guard value.allSatisfy({ $0.isFinite }) else {
            engine.warn("\(property.rawValue) of view \(id) (\(name)) was set to a non-finite value \(value); the change was ignored")
            return
        }
        let old = modelValue(property)
        guard old != value else { return }
        engine.modelWillChange(self, property, from: old, to: value)
        storeModel(property, value)
        if property == .backgroundColor || property == .cornerRadius { contentVersion += 1 }
    }

    /// The model values of the animatable properties (what the view will show once its
    /// animations end).
    public var modelState: PresentationState { model }

    /// Sets one model value, as the property's own setter does (inside an animations block the
    /// change animates; a non-finite value is refused with a warning).
    public func setModelValue(_ value: AnimatableValue, for property: AnimatableProperty) { set(property, value) }

    func modelValue(_ p: AnimatableProperty) -> AnimatableValue { model[p] }

    func storeModel(_ p: AnimatableProperty, _ v: AnimatableValue) { model[p] = v }

    // MARK: Hierarchy

    /// addSubview: appends (or moves) `view` to the top of the subviews.
    public func addSubview(_ view: View) { insertSubview(view, at: subviews.count) }

    /// How deep a hierarchy may be (the root is depth 0). Deeper trees are refused, like a
    /// cycle, so that every walk over a tree (sampling, snapshots, rendering, teardown) has a
    /// bounded depth whatever a plugin builds.
    public static let maxDepth = 128

    /// Why `view` cannot become a subview of this view (a cycle, or a tree deeper than
    /// `maxDepth`), or nil when it can.
    public func subviewProblem(_ view: View) -> String? {
        if view === self || isDescendant(of: view) { return "view \(view.id) is this view or one of its ancestors (a cycle)" }
        var depth = 0
        var v = superview
        while let c = v { depth += 1; v = c.superview }
        let total = depth + 1 + view.height
        if total > Self.maxDepth {
            return "adding view \(view.id) under view \(id) would make the hierarchy \(total) levels deep; at most \(Self.maxDepth) are allowed"
        }
        return nil
    }

    /// Levels below this view (0 for a leaf), found without recursion.
    var height: Int {
        var deepest = 0
        var stack: [(View, Int)] = [(self, 0)]
        while let (v, d) = stack.popLast() {
            deepest = max(deepest, d)
            for s in v.subviews { stack.append((s, d + 1)) }
        }
        return deepest
    }

    /// insertSubview(_:at:); the index is clamped to [0, subviews.count]. A cycle or a tree
    /// deeper than `maxDepth` is refused (nothing changes; see `subviewProblem`).
    public func insertSubview(_ view: View, at index: Int) {
        guard subviewProblem(view) == nil else { return }
        if view.superview === self, let i = subviews.firstIndex(where: { $0 === view }) {
            subviews.remove(at: i)
        } else {
            view.removeFromSuperview()
        }
        subviews.insert(view, at: min(max(index, 0), subviews.count))
        view.superview = self
        contentVersion += 1
    }

    public func insertSubview(_ view: View, aboveSubview sibling: View) {
        guard sibling.superview === self else { addSubview(view); return }
        if view.superview === self { subviews.removeAll { $0 === view } ; view.superview = nil }
        let i = subviews.firstIndex { $0 === sibling }!
        insertSubview(view, at: i + 1)
    }

    public func insertSubview(_ view: View, belowSubview sibling: View) {
        guard sibling.superview === self else { insertSubview(view, at: 0); return }
        if view.superview === self { subviews.removeAll { $0 === view } ; view.superview = nil }
        let i = subviews.firstIndex { $0 === sibling }!
        insertSubview(view, at: i)
    }

    public func bringSubviewToFront(_ view: View) { if view.superview === self { addSubview(view) } }
    public func sendSubviewToBack(_ view: View) { if view.superview === self { insertSubview(view, at: 0) } }

    public func removeFromSuperview() {
        guard let parent = superview else { return }
        parent.subviews.removeAll { $0 === self }
        parent.contentVersion += 1
        superview = nil
    }

    public func isDescendant(of view: View) -> Bool {
        var v: View? = self
        while let c = v { if c === view { return true }; v = c.superview }
        return false
    }

    /// Checks the hierarchy invariant; returns a sentence naming the broken link, or nil.
    public func checkInvariants() -> String? {
        for s in subviews {
            if s.superview !== self { return "view \(s.id) is in \(id)'s subviews but its superview is \(s.superview?.id ?? "nil")" }
            if subviews.filter({ $0 === s }).count != 1 { return "view \(s.id) appears more than once in \(id)'s subviews" }
            if let problem = s.checkInvariants() { return problem }
        }
        return nil
    }
}
