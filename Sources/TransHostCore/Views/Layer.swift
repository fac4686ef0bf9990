/// A standalone layer (CALayer, CAShapeLayer, CAGradientLayer): a sublayer of a view's layer or
/// of another layer, or a mask. A view's own layer is the `View` itself; this type is for the
/// layers a plugin makes with `CALayer()`.
///
/// Properties hold model values. Setting an animatable one of a layer that has been in a view's
/// layer tree since an earlier instant, outside `CATransaction`'s disabled actions, starts an
/// implicit animation from the presentation value (0.25 s unless the transaction says
/// otherwise), as Core Animation does for standalone layers; see CoreAnimation.
///
/// Invariant: a layer is in at most one place: one parent's `sublayers` (a view's or a layer's),
/// or one owner's `mask`.
public final class Layer {
    /// Stable id, unique per engine ("l1", "l2", ... in creation order).
    public let id: String
    public var name: String
    public let kind: LayerKind
    public unowned let engine: AnimationEngine

    var model: LayerState
    /// Explicit animations by key, in the order they were added (later ones apply on top).
    var animations: [LayerAnimationRun] = []

    public private(set) var sublayers: [Layer] = []
    /// The layer this one is a sublayer of (nil for a sublayer of a view's layer: see `hostView`).
    public private(set) weak var superlayer: Layer?
    /// The view whose layer this is a direct sublayer of.
    public internal(set) weak var hostView: View?
    /// The view or layer this layer masks (set by `View.mask` / `Layer.mask`).
    weak var maskOwnerView: View?
    weak var maskOwnerLayer: Layer?
    public var isMask: Bool { maskOwnerView != nil || maskOwnerLayer != nil }
    /// When it last joined a parent (a layer, a view's layer, or a mask slot).
    var attachedAt: Double?

    /// Whether a change animates implicitly: Core Animation animates a layer whose previous
    /// value was already on screen, i.e. one in a view's layer tree since an earlier instant. A
    /// layer being set up (made, styled, then added in the same instant) does not animate.
    var animatesImplicitly: Bool {
        guard let t = attachedAt, t < engine.now else { return false }
        var l: Layer? = self
        while let c = l {
            if c.hostView != nil || c.maskOwnerView != nil { return true }
            l = c.superlayer ?? c.maskOwnerLayer
        }
        return false
    }

    /// This layer's mask: the mask's alpha (its presentation, drawn in this layer's
    /// coordinates) multiplies this layer and everything under it.
    public var mask: Layer? {
        get { maskStorage }
        set { Layer.attachMask(newValue, replacing: &maskStorage) { $0.maskOwnerLayer = self } }
    }
    private var maskStorage: Layer?

    public init(engine: AnimationEngine, kind: LayerKind = .plain, name: String = "") {
        self.engine = engine
        self.kind = kind
        self.name = name
        id = engine.coreAnimation.nextLayerID()
        model = LayerState(kind: kind)
    }

    /// Releasing a deep chain one level per nested deinit would overflow the stack; layers
    /// nobody else holds are taken apart here, one at a time (as View does).
    deinit {
        var pending = sublayers
        sublayers = []
        while var l = pending.popLast() {
            if isKnownUniquelyReferenced(&l) {
                pending.append(contentsOf: l.sublayers)
                l.sublayers = []
            }
        }
    }

    // MARK: Model values

    /// All model values (what the layer shows once its animations end).
    public var modelState: LayerState { model }

    /// The model value of `property` (nil when this kind of layer has no such property).
    public func modelValue(_ property: LayerProperty) -> LayerValue? { property.value(in: model) }

    /// Sets a model value, as the property's setter does: a change starts an implicit animation
    /// unless actions are disabled. A value of the wrong kind or with a non-finite component is
    /// refused with a warning; returns whether it was stored.
    @discardableResult
    public func setModelValue(_ value: LayerValue, for property: LayerProperty) -> Bool {
        guard value.isFinite else {
            engine.warn("\(property.rawValue) of layer \(id) (\(name)) was set to a non-finite value; the change was ignored")
            return false
        }
        guard let old = property.value(in: model) else {
            engine.warn("a \(kind.rawValue) layer has no \(property.rawValue) (layer \(id)); the change was ignored")
            return false
        }
        guard old != value else { return true }
        var next = model
        guard property.set(value, in: &next) else {
            engine.warn("\(property.rawValue) of layer \(id) takes a \(old.kindName), not a \(value.kindName); the change was ignored")
            return false
        }
        let from = engine.coreAnimation.presentationValue(of: self, property)
        model = next
        engine.coreAnimation.modelDidChange(self, property, from: from ?? old, to: value)
        return true
    }

    /// Values that do not animate (Core Animation changes them at once).
    public var isHidden: Bool { get { model.isHidden } set { model.isHidden = newValue } }
    public var masksToBounds: Bool { get { model.masksToBounds } set { model.masksToBounds = newValue } }
    public var isDoubleSided: Bool { get { model.style.isDoubleSided } set { model.style.isDoubleSided = newValue } }
    public var fillRule: FillRule { get { model.shape?.fillRule ?? .nonZero } set { model.shape?.fillRule = newValue } }
    public var lineCap: LineCap { get { model.shape?.lineCap ?? .butt } set { model.shape?.lineCap = newValue } }
    public var lineJoin: LineJoin { get { model.shape?.lineJoin ?? .miter } set { model.shape?.lineJoin = newValue } }
    public var lineDashPattern: [Double]? { get { model.shape?.lineDashPattern } set { model.shape?.lineDashPattern = newValue } }

    // MARK: Hierarchy

    /// addSublayer: appends (or moves) `layer` to the top of the sublayers.
    public func addSublayer(_ layer: Layer) { insertSublayer(layer, at: sublayers.count) }

    /// insertSublayer(_:at:); the index is clamped. A cycle or a tree deeper than View.maxDepth
    /// is refused with a warning (nothing changes).
    public func insertSublayer(_ layer: Layer, at index: Int) {
        if let problem = sublayerProblem(layer) { engine.warn(problem + "; the layer was not added"); return }
        var i = index
        if layer.superlayer === self, let at = sublayers.firstIndex(where: { $0 === layer }) {
            sublayers.remove(at: at)
            if at < i { i -= 1 }
        } else {
            layer.removeFromSuperlayer()
        }
        sublayers.insert(layer, at: min(max(i, 0), sublayers.count))
        layer.superlayer = self
        layer.attachedAt = engine.now
    }

    /// Why `layer` cannot become a sublayer here (a cycle, or too deep), or nil when it can.
    func sublayerProblem(_ layer: Layer) -> String? {
        var l: Layer? = self
        var depth = 0
        while let c = l {
            if c === layer { return "layer \(layer.id) is layer \(id) or one of its ancestors (a cycle)" }
            depth += 1
            l = c.superlayer ?? c.maskOwnerLayer
        }
        if depth + layer.height > View.maxDepth {
            return "adding layer \(layer.id) under layer \(id) would nest layers more than \(View.maxDepth) deep"
        }
        return nil
    }

    var height: Int {
        var deepest = 0
        var stack: [(Layer, Int)] = [(self, 0)]
        while let (l, d) = stack.popLast() {
            deepest = max(deepest, d)
            for s in l.sublayers { stack.append((s, d + 1)) }
            if let m = l.maskStorage { stack.append((m, d + 1)) }
        }
        return deepest
    }

    /// removeFromSuperlayer: leaves its parent (a layer or a view's layer); a mask stays a mask.
    public func removeFromSuperlayer() {
        if let p = superlayer { p.sublayers.removeAll { $0 === self }; superlayer = nil }
        if let v = hostView { v.removeSublayer(self); hostView = nil }
        if !isMask { attachedAt = nil }
    }

    /// Takes `layer` out of wherever it is and makes it the mask held in `slot`.
    static func attachMask(_ layer: Layer?, replacing slot: inout Layer?, owner: (Layer) -> Void) {
        if slot === layer { return }
        if let old = slot { old.maskOwnerLayer = nil; old.maskOwnerView = nil; old.attachedAt = nil }
        slot = nil
        guard let layer else { return }
        layer.removeFromSuperlayer()
        if let v = layer.maskOwnerView { v.mask = nil }
        if let l = layer.maskOwnerLayer { l.mask = nil }
        slot = layer
        owner(layer)
        layer.attachedAt = layer.engine.now
    }
}
