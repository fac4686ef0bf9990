import CTransHost

/// CALayer: a view's layer. The geometry, transform, opacity, corner radius, masking and
/// background colour are the host view's (they animate and render); the other properties are
/// kept in the plugin and read back what was set, but the host does not draw them (shadows,
/// borders, sublayerTransform, zPosition). A layer made with `CALayer()` belongs to no view and
/// is never drawn.
open class CALayer: NSObject {
    weak var view: UIView?

    init(view: UIView) { self.view = view; super.init() }
    public override init() { super.init() }

    private var h: OpaquePointer? { view?.handle }

    open var anchorPoint: CGPoint {
        get { h.map { CGPoint(host.view_anchor_point($0)) } ?? storedAnchor }
        set { if let h { host.view_set_anchor_point(h, newValue.th) } else { storedAnchor = newValue } }
    }
    private var storedAnchor = CGPoint(x: 0.5, y: 0.5)
    open var position: CGPoint {
        get { view?.center ?? storedPosition }
        set { if let view { view.center = newValue } else { storedPosition = newValue } }
    }
    private var storedPosition = CGPoint.zero
    open var bounds: CGRect {
        get { view?.bounds ?? storedBounds }
        set { if let view { view.bounds = newValue } else { storedBounds = newValue } }
    }
    private var storedBounds = CGRect.zero
    open var frame: CGRect {
        get { view?.frame ?? storedBounds.offsetBy(dx: storedPosition.x - storedBounds.width * storedAnchor.x, dy: storedPosition.y - storedBounds.height * storedAnchor.y) }
        set { if let view { view.frame = newValue } else { storedBounds.size = newValue.size; storedPosition = CGPoint(x: newValue.midX, y: newValue.midY) } }
    }
    open var transform: CATransform3D {
        get { h.map { CATransform3D(host.view_transform3d($0)) } ?? storedTransform }
        set { if let h { host.view_set_transform3d(h, newValue.th) } else { storedTransform = newValue } }
    }
    private var storedTransform = CATransform3DIdentity
    /// The affine part of `transform` (setAffineTransform: replaces the whole transform).
    open func affineTransform() -> CGAffineTransform { CATransform3DGetAffineTransform(transform) }
    open func setAffineTransform(_ m: CGAffineTransform) { transform = CATransform3DMakeAffineTransform(m) }

    open var opacity: Float {
        get { view.map { Float($0.alpha) } ?? storedOpacity }
        set { if let view { view.alpha = CGFloat(newValue) } else { storedOpacity = newValue } }
    }
    private var storedOpacity: Float = 1
    open var isHidden: Bool {
        get { view?.isHidden ?? storedHidden }
        set { if let view { view.isHidden = newValue } else { storedHidden = newValue } }
    }
    private var storedHidden = false
    open var cornerRadius: CGFloat {
        get { h.map { CGFloat(host.view_corner_radius($0)) } ?? storedCornerRadius }
        set { if let h { host.view_set_corner_radius(h, Double(newValue)) } else { storedCornerRadius = newValue } }
    }
    private var storedCornerRadius: CGFloat = 0
    open var masksToBounds: Bool {
        get { view?.clipsToBounds ?? storedMasks }
        set { if let view { view.clipsToBounds = newValue } else { storedMasks = newValue } }
    }
    private var storedMasks = false
    open var backgroundColor: CGColor? {
        get { view.map { $0.backgroundColor?.cgColor } ?? storedBackground }
        set { if let view { view.backgroundColor = newValue.map(UIColor.init(cgColor:)) } else { storedBackground = newValue } }
    }
    private var storedBackground: CGColor?

    // Kept, not drawn.
    open var zPosition: CGFloat = 0
    open var sublayerTransform = CATransform3DIdentity
    open var isDoubleSided = true
    open var shadowColor: CGColor? = CGColor(gray: 0, alpha: 1)
    open var shadowOpacity: Float = 0
    open var shadowOffset = CGSize(width: 0, height: -3)
    open var shadowRadius: CGFloat = 3
    open var shadowPath: CGPath?
    open var borderWidth: CGFloat = 0
    open var borderColor: CGColor? = CGColor(gray: 0, alpha: 1)
    open var shouldRasterize = false
    open var rasterizationScale: CGFloat = 1
    open var mask: CALayer?
    open var name: String?
    open var contents: Any?
    open var speed: Float = 1

    open var superlayer: CALayer? { view?.superview?.layer }
    open var sublayers: [CALayer]? { view.map { $0.subviews.map(\.layer) } }

    /// removeAllAnimations: the view's animation blocks complete with finished == false.
    open func removeAllAnimations() { if let h { host.view_remove_all_animations(h) } }
    /// Keyed Core Animation animations do not exist here (UIView blocks have no keys): nothing to remove.
    open func removeAnimation(forKey key: String) {}
    open func animationKeys() -> [String]? { nil }
}
