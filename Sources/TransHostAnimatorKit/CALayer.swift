import CTransHost

/// CALayer. A view's layer is the host view itself (its geometry, opacity, colour, corner
/// radius and clipping are the view's); a layer made with `CALayer()` (or a shape or gradient
/// layer) is a standalone host layer, drawn once it is in a view's layer tree. Every property
/// is stored by the host, so the trace and the pictures show it; explicit animations
/// (`add(_:forKey:)`) and, for standalone layers, implicit ones run on the host's virtual clock.
///
/// Not modelled (kept and read back, but without effect): `contents`, `shouldRasterize`,
/// `rasterizationScale`, and the layer's own timing (`speed`, `timeOffset`, `beginTime`): pause
/// a transition through its interactive context instead of a layer's speed.
open class CALayer: NSObject {
    weak var view: UIView?
    private var viewHandle: OpaquePointer?
    private var standaloneHandle: OpaquePointer?
    /// A presentation copy reads what the screen shows now; setting its properties does nothing.
    private var readsPresentation = false
    private var source: CALayer?

    /// The kind of host layer `init()` makes (overridden by CAShapeLayer and CAGradientLayer).
    class var hostKind: UInt32 { TH_LAYER_PLAIN }

    init(view: UIView) { self.view = view; viewHandle = view.handle; super.init() }
    public override init() { super.init() }
    /// CALayer(layer:): Core Animation's shadow copy; here a copy that reads the same host layer.
    /// (Not `required`, as in UIKit, so subclasses may override it or not.)
    public init(layer: Any) {
        super.init()
        if let l = layer as? CALayer { share(l) }
    }
    private func share(_ l: CALayer) { source = l; viewHandle = l.viewHandle; standaloneHandle = l.handle; view = l.view }
    /// An empty layer of the kit class closest to this one, for presentation copies.
    class func emptyCopy() -> CALayer { CALayer() }

    /// The host's handle (created on first use: a layer made before the host called the plugin's
    /// init has none yet).
    var handle: OpaquePointer {
        if let viewHandle { return viewHandle }
        if let standaloneHandle { return standaloneHandle }
        let h = host.layer_create(Self.hostKind)!
        standaloneHandle = h
        return h
    }
    var isViewLayer: Bool { viewHandle != nil }

    // MARK: Values by key

    func set(_ key: String, _ value: CAValue) {
        guard !readsPresentation else { return }
        let arena = CArena()
        var v = arena.value(value)
        _ = key.withCString { host.layer_set_value(handle, $0, &v) }
    }
    func get(_ key: String) -> CAValue? {
        var out = th_layer_value()
        out.struct_size = UInt32(MemoryLayout<th_layer_value>.size)
        let ok = key.withCString { host.layer_value(handle, $0, readsPresentation ? 1 : 0, &out) }
        return ok != 0 ? CAValue(out) : nil
    }
    func number(_ key: String) -> CGFloat { if case .number(let n)? = get(key) { return n }; return 0 }
    func color(_ key: String) -> CGColor? { if case .color(let c)? = get(key) { return c }; return nil }
    func flag(_ key: String) -> Bool { number(key) != 0 }
    func setFlag(_ key: String, _ on: Bool) { set(key, .number(on ? 1 : 0)) }

    // MARK: Geometry

    open var bounds: CGRect {
        get { if case .rect(let r)? = get("bounds") { return r }; return .zero }
        set { set("bounds", .rect(newValue)) }
    }
    open var position: CGPoint {
        get { if case .point(let p)? = get("position") { return p }; return .zero }
        set { set("position", .point(newValue)) }
    }
    open var anchorPoint: CGPoint {
        get { if case .point(let p)? = get("anchorPoint") { return p }; return CGPoint(x: 0.5, y: 0.5) }
        set { set("anchorPoint", .point(newValue)) }
    }
    /// Derived from bounds, position and anchorPoint (for the identity transform), as in Core
    /// Animation; setting it sets bounds.size and position.
    open var frame: CGRect {
        get {
            if let view, !readsPresentation { return view.frame }
            let b = bounds, p = position, a = anchorPoint
            return CGRect(x: p.x - a.x * b.width, y: p.y - a.y * b.height, width: b.width, height: b.height)
        }
        set {
            if let view { view.frame = newValue; return }
            bounds = CGRect(origin: bounds.origin, size: newValue.size)
            let a = anchorPoint
            position = CGPoint(x: newValue.minX + a.x * newValue.width, y: newValue.minY + a.y * newValue.height)
        }
    }
    open var transform: CATransform3D {
        get { if case .transform(let t)? = get("transform") { return t }; return CATransform3DIdentity }
        set { set("transform", .transform(newValue)) }
    }
    /// The affine part of `transform` (setAffineTransform: replaces the whole transform).
    open func affineTransform() -> CGAffineTransform { CATransform3DGetAffineTransform(transform) }
    open func setAffineTransform(_ m: CGAffineTransform) { transform = CATransform3DMakeAffineTransform(m) }
    open var sublayerTransform: CATransform3D {
        get { if case .transform(let t)? = get("sublayerTransform") { return t }; return CATransform3DIdentity }
        set { set("sublayerTransform", .transform(newValue)) }
    }
    open var zPosition: CGFloat { get { number("zPosition") } set { set("zPosition", .number(newValue)) } }
    open var isDoubleSided: Bool { get { flag("doubleSided") } set { setFlag("doubleSided", newValue) } }

    // MARK: Appearance

    open var opacity: Float { get { Float(number("opacity")) } set { set("opacity", .number(CGFloat(newValue))) } }
    open var isHidden: Bool { get { flag("hidden") } set { setFlag("hidden", newValue) } }
    open var backgroundColor: CGColor? {
        get { color("backgroundColor") }
        set { set("backgroundColor", .color(newValue)) }
    }
    /// Rounds the background, the border and (with masksToBounds) the clip of the sublayers.
    open var cornerRadius: CGFloat { get { number("cornerRadius") } set { set("cornerRadius", .number(newValue)) } }
    open var masksToBounds: Bool { get { flag("masksToBounds") } set { setFlag("masksToBounds", newValue) } }
    open var borderWidth: CGFloat { get { number("borderWidth") } set { set("borderWidth", .number(newValue)) } }
    open var borderColor: CGColor? { get { color("borderColor") } set { set("borderColor", .color(newValue)) } }
    open var shadowColor: CGColor? { get { color("shadowColor") } set { set("shadowColor", .color(newValue)) } }
    open var shadowOpacity: Float { get { Float(number("shadowOpacity")) } set { set("shadowOpacity", .number(CGFloat(newValue))) } }
    open var shadowOffset: CGSize {
        get { if case .size(let s)? = get("shadowOffset") { return s }; return CGSize(width: 0, height: -3) }
        set { set("shadowOffset", .size(newValue)) }
    }
    open var shadowRadius: CGFloat { get { number("shadowRadius") } set { set("shadowRadius", .number(newValue)) } }
    open var shadowPath: CGPath? {
        get { if case .path(let p)? = get("shadowPath") { return p }; return nil }
        set { set("shadowPath", .path(newValue)) }
    }
    open var name: String? {
        get { if case .string(let s)? = get("name"), !s.isEmpty { return s }; return nil }
        set { set("name", .string(newValue ?? "")) }
    }

    // Kept, not modelled (see the type's comment).
    open var contents: Any?
    open var shouldRasterize = false
    open var rasterizationScale: CGFloat = 1
    open var speed: Float = 1
    open var timeOffset: TimeInterval = 0
    open var beginTime: TimeInterval = 0

    // MARK: Tree

    private var standaloneSublayers: [CALayer] = []
    private weak var parentLayer: CALayer?
    private var maskLayer: CALayer?

    /// The mask: its alpha (drawn in this layer's coordinates) masks this layer and its subtree.
    open var mask: CALayer? {
        get { source?.mask ?? maskLayer }
        set {
            guard !readsPresentation else { return }
            if let newValue, newValue.isViewLayer {
                kitWarning("a view's layer cannot be a mask; the mask was not set")
                return
            }
            newValue?.removeFromSuperlayer()
            maskLayer = newValue
            host.layer_set_mask(handle, newValue?.handle)
        }
    }
    /// The standalone sublayers, after the layers of the view's subviews for a view's layer.
    /// Setting it replaces the standalone sublayers (`nil` removes them all); a view's subviews
    /// stay (remove those with removeFromSuperview).
    open var sublayers: [CALayer]? {
        get {
            let subs = (view?.subviews.map(\.layer) ?? []) + (source?.standaloneSublayers ?? standaloneSublayers)
            return subs.isEmpty && view == nil ? nil : subs
        }
        set {
            for l in standaloneSublayers { l.removeFromSuperlayer() }
            for l in newValue ?? [] where !l.isViewLayer { addSublayer(l) }
        }
    }
    open var superlayer: CALayer? { view?.superview?.layer ?? parentLayer }

    open func addSublayer(_ layer: CALayer) { insert(layer, at: standaloneSublayers.count) }
    open func insertSublayer(_ layer: CALayer, at index: UInt32) { insert(layer, at: Int(index)) }
    open func insertSublayer(_ layer: CALayer, above sibling: CALayer?) {
        let i = sibling.flatMap { s in standaloneSublayers.firstIndex { $0 === s } }.map { $0 + 1 } ?? standaloneSublayers.count
        insert(layer, at: i)
    }
    open func insertSublayer(_ layer: CALayer, below sibling: CALayer?) {
        insert(layer, at: sibling.flatMap { s in standaloneSublayers.firstIndex { $0 === s } } ?? 0)
    }
    open func replaceSublayer(_ old: CALayer, with new: CALayer) {
        guard let i = standaloneSublayers.firstIndex(where: { $0 === old }) else { return }
        old.removeFromSuperlayer()
        insert(new, at: i)
    }

    private func insert(_ layer: CALayer, at index: Int) {
        guard !readsPresentation, layer !== self else { return }
        if layer.isViewLayer {
            // UIKit allows it, but a view's layer belongs to its view: add the view instead.
            kitWarning("a view's layer was added as a sublayer; add its view as a subview instead (the layer was not moved)")
            return
        }
        var i = index
        if layer.parentLayer === self, let at = standaloneSublayers.firstIndex(where: { $0 === layer }) {
            standaloneSublayers.remove(at: at)
            if at < i { i -= 1 }
        } else {
            layer.removeFromSuperlayer()
        }
        let clamped = min(max(i, 0), standaloneSublayers.count)
        standaloneSublayers.insert(layer, at: clamped)
        layer.parentLayer = self
        host.layer_insert_sublayer_at(handle, layer.handle, Int64(clamped))
    }

    open func removeFromSuperlayer() {
        guard !readsPresentation else { return }
        if let view { view.removeFromSuperview(); return }
        if let p = parentLayer { p.standaloneSublayers.removeAll { $0 === self } }
        parentLayer = nil
        if standaloneHandle != nil { host.layer_remove_from_superlayer(handle) }
    }

    // MARK: Presentation and model

    /// What the screen shows now (the model values with running animations applied). For a
    /// subclass of your own it is nil (the copy can only be a CALayer, CAShapeLayer or
    /// CAGradientLayer): cast `presentation()` of the kit class, or read the model.
    open func presentation() -> Self? {
        let copy = type(of: self).emptyCopy()
        copy.share(self)
        copy.readsPresentation = true
        return copy as? Self
    }
    /// The model layer (what was set).
    open func model() -> Self { self }

    // MARK: Animations

    private var attached: [String: CAAnimation] = [:]

    /// add(_:forKey:): copies the animation (later changes to it have no effect); its delegate is
    /// kept until it stops, as Core Animation retains it.
    open func add(_ anim: CAAnimation, forKey key: String?) {
        guard !readsPresentation else { return }
        let copy = anim.copy() as! CAAnimation
        let arena = CArena()
        guard var spec = copy.th(arena) else { return }
        let box = AnimationDelegateBox(animation: copy)
        let user = Unmanaged.passRetained(box).toOpaque()
        let added = (key ?? "").withCString { k in
            host.layer_add_animation(handle, &spec, key == nil ? nil : k, caAnimationTrampoline, user)
        }
        if added == 0 { Unmanaged<AnimationDelegateBox>.fromOpaque(user).release(); return }
        attached[key ?? "animation-\(ObjectIdentifier(copy).hashValue)"] = copy
        box.onStop = { [weak self] in self?.attached = self?.attached.filter { $0.value !== copy } ?? [:] }
    }
    /// removeAnimation(forKey:): its delegate hears `finished == false`.
    open func removeAnimation(forKey key: String) { key.withCString { host.layer_remove_animation(handle, $0) } }
    /// removeAllAnimations: explicit animations and, on a view's layer, UIView animation blocks
    /// (which complete with finished == false).
    open func removeAllAnimations() { host.layer_remove_all_animations(handle) }
    open func animationKeys() -> [String]? {
        let n = host.layer_animation_count(handle)
        let keys = (0..<n).compactMap { host.layer_animation_key_at(handle, $0).map { String(cString: $0) } }
        return keys.isEmpty ? nil : keys
    }
    open func animation(forKey key: String) -> CAAnimation? { attached[key] }
}

/// CAShapeLayer: fills and strokes `path` in its own coordinates.
open class CAShapeLayer: CALayer {
    override class var hostKind: UInt32 { TH_LAYER_SHAPE }
    override class func emptyCopy() -> CALayer { CAShapeLayer() }

    open var path: CGPath? {
        get { if case .path(let p)? = get("path") { return p }; return nil }
        set { set("path", .path(newValue)) }
    }
    /// Opaque black by default; nil leaves the inside unfilled.
    open var fillColor: CGColor? { get { color("fillColor") } set { set("fillColor", .color(newValue)) } }
    open var strokeColor: CGColor? { get { color("strokeColor") } set { set("strokeColor", .color(newValue)) } }
    open var lineWidth: CGFloat { get { number("lineWidth") } set { set("lineWidth", .number(newValue)) } }
    open var strokeStart: CGFloat { get { number("strokeStart") } set { set("strokeStart", .number(newValue)) } }
    open var strokeEnd: CGFloat { get { number("strokeEnd") } set { set("strokeEnd", .number(newValue)) } }
    open var miterLimit: CGFloat { get { number("miterLimit") } set { set("miterLimit", .number(newValue)) } }
    open var lineDashPhase: CGFloat { get { number("lineDashPhase") } set { set("lineDashPhase", .number(newValue)) } }
    open var lineDashPattern: [NSNumber]? {
        get { if case .numbers(let n)? = get("lineDashPattern") { return n?.map { NSNumber(value: Double($0)) } }; return nil }
        set { set("lineDashPattern", .numbers(newValue?.map { CGFloat($0.doubleValue) })) }
    }
    open var fillRule: CAShapeLayerFillRule {
        get { if case .string(let s)? = get("fillRule") { return CAShapeLayerFillRule(rawValue: s) }; return .nonZero }
        set { set("fillRule", .string(newValue.rawValue)) }
    }
    open var lineCap: CAShapeLayerLineCap {
        get { if case .string(let s)? = get("lineCap") { return CAShapeLayerLineCap(rawValue: s) }; return .butt }
        set { set("lineCap", .string(newValue.rawValue)) }
    }
    open var lineJoin: CAShapeLayerLineJoin {
        get { if case .string(let s)? = get("lineJoin") { return CAShapeLayerLineJoin(rawValue: s) }; return .miter }
        set { set("lineJoin", .string(newValue.rawValue)) }
    }
}

/// CAGradientLayer: an axial gradient over its bounds.
open class CAGradientLayer: CALayer {
    override class var hostKind: UInt32 { TH_LAYER_GRADIENT }
    override class func emptyCopy() -> CALayer { CAGradientLayer() }

    /// The colours, as `[CGColor]` (UIKit code writes `[a.cgColor, b.cgColor]`).
    open var colors: [Any]? {
        get { if case .colors(let c)? = get("colors"), !c.isEmpty { return c }; return nil }
        set { set("colors", .colors((newValue ?? []).compactMap { ($0 as? CGColor) ?? ($0 as? UIColor)?.cgColor })) }
    }
    open var locations: [NSNumber]? {
        get { if case .numbers(let n)? = get("locations") { return n?.map { NSNumber(value: Double($0)) } }; return nil }
        set { set("locations", .numbers(newValue?.map { CGFloat($0.doubleValue) })) }
    }
    /// In unit coordinates of the bounds; (0.5, 0) to (0.5, 1) by default.
    open var startPoint: CGPoint {
        get { if case .point(let p)? = get("startPoint") { return p }; return CGPoint(x: 0.5, y: 0) }
        set { set("startPoint", .point(newValue)) }
    }
    open var endPoint: CGPoint {
        get { if case .point(let p)? = get("endPoint") { return p }; return CGPoint(x: 0.5, y: 1) }
        set { set("endPoint", .point(newValue)) }
    }
    /// Only `.axial` is drawn.
    open var type: CAGradientLayerType = .axial
}

public struct CAShapeLayerFillRule: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let nonZero = CAShapeLayerFillRule(rawValue: "nonZero")
    public static let evenOdd = CAShapeLayerFillRule(rawValue: "evenOdd")
}
public struct CAShapeLayerLineCap: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let butt = CAShapeLayerLineCap(rawValue: "butt")
    public static let round = CAShapeLayerLineCap(rawValue: "round")
    public static let square = CAShapeLayerLineCap(rawValue: "square")
}
public struct CAShapeLayerLineJoin: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let miter = CAShapeLayerLineJoin(rawValue: "miter")
    public static let round = CAShapeLayerLineJoin(rawValue: "round")
    public static let bevel = CAShapeLayerLineJoin(rawValue: "bevel")
}
public struct CAGradientLayerType: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let axial = CAGradientLayerType(rawValue: "axial")
    public static let radial = CAGradientLayerType(rawValue: "radial")
    public static let conic = CAGradientLayerType(rawValue: "conic")
}
