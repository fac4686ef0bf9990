import CTransHost

/// UIView: a host view, with UIKit's names. Every host view has exactly one UIView object in
/// the plugin (the same object comes back from `subviews`, `superview` and the context), so
/// identity comparisons and a subclass's stored properties work as in UIKit.
open class UIView: NSObject {
    /// The host's handle for this view (for C interop and the kit's own use).
    public let handle: OpaquePointer

    nonisolated(unsafe) static var registry: [OpaquePointer: UIView] = [:]

    init(transhostHandle h: OpaquePointer) {
        handle = h
        super.init()
        UIView.registry[h] = self
    }

    /// A new view, not in any hierarchy.
    public init(frame: CGRect) {
        handle = UIView.makeHostView(frame)
        super.init()
        UIView.registry[handle] = self
    }

    /// Views are never decoded from archives here; this gives an empty view so subclasses'
    /// `required init?(coder:)` compile and behave.
    public required init?(coder: NSCoder) {
        handle = UIView.makeHostView(.zero)
        super.init()
        UIView.registry[handle] = self
    }

    public convenience override init() { self.init(frame: .zero) }

    static func makeHostView(_ frame: CGRect) -> OpaquePointer {
        if let h = host.view_create(frame.th) { return h }
        // The host rejected the frame (non-finite values; it reported them): an empty view.
        return host.view_create(th_rect())!
    }

    static func wrap(_ h: OpaquePointer?) -> UIView? {
        guard let h else { return nil }
        if let v = registry[h] { return v }
        // A view that shows an image is an image view, as in the app it stands for.
        if let path = host.view_image(h) { return UIImageView(transhostHandle: h, shown: UIImage(named: String(cString: path))) }
        // The root of the scenario's hierarchy is its window.
        if host.view_superview(h) == nil, let name = host.view_name(h), String(cString: name) == "window" {
            return UIWindow(transhostHandle: h)
        }
        return UIView(transhostHandle: h)
    }

    // MARK: Geometry

    open var frame: CGRect {
        get { CGRect(host.view_frame(handle)) }
        set { host.view_set_frame(handle, newValue.th) }
    }
    open var bounds: CGRect {
        get { CGRect(host.view_bounds(handle)) }
        set { host.view_set_bounds(handle, newValue.th) }
    }
    open var center: CGPoint {
        get { CGPoint(host.view_center(handle)) }
        set { host.view_set_center(handle, newValue.th) }
    }
    open var transform: CGAffineTransform {
        get { CGAffineTransform(host.view_transform(handle)) }
        set { host.view_set_transform(handle, newValue.th) }
    }

    // MARK: Appearance

    open var alpha: CGFloat {
        get { CGFloat(host.view_alpha(handle)) }
        set { host.view_set_alpha(handle, Double(newValue)) }
    }
    open var isHidden: Bool {
        get { host.view_hidden(handle) != 0 }
        set { host.view_set_hidden(handle, newValue ? 1 : 0) }
    }
    open var backgroundColor: UIColor? {
        get {
            var c = th_color()
            return host.view_background_color(handle, &c) != 0 ? UIColor(c) : nil
        }
        set {
            if let newValue { host.view_set_background_color(handle, newValue.th) } else { host.view_clear_background_color(handle) }
        }
    }
    open var clipsToBounds: Bool {
        get { host.view_clips_to_bounds(handle) != 0 }
        set { host.view_set_clips_to_bounds(handle, newValue ? 1 : 0) }
    }
    /// The view's layer (one object per view).
    open private(set) lazy var layer: CALayer = CALayer(view: self)

    /// The scenario's name for the view until the plugin sets one (scenario views have names
    /// where an app has outlets or identifiers).
    open var accessibilityIdentifier: String? {
        get { ownIdentifier ?? host.view_name(handle).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
        set { ownIdentifier = newValue }
    }
    private var ownIdentifier: String?

    // Stored in the plugin: the host does not use these.
    open var tag = 0
    open var isUserInteractionEnabled = true
    open var isOpaque = true
    open var tintColor: UIColor! = .systemBlue
    open var contentMode: ContentMode = .scaleToFill
    open var autoresizingMask: AutoresizingMask = []
    open var translatesAutoresizingMaskIntoConstraints = true
    open var isMultipleTouchEnabled = false
    /// Recognizers attached with addGestureRecognizer (kept alive with the view, which
    /// lives for the run: the host keeps the user pointer).
    var gestureStore: [UIGestureRecognizer] = []
    open var contentScaleFactor: CGFloat { UIScreen.main.scale }

    public enum ContentMode: Int, Sendable {
        case scaleToFill, scaleAspectFit, scaleAspectFill, redraw, center, top, bottom, left, right
        case topLeft, topRight, bottomLeft, bottomRight
    }
    public struct AutoresizingMask: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        public static let flexibleLeftMargin = AutoresizingMask(rawValue: 1 << 0)
        public static let flexibleWidth = AutoresizingMask(rawValue: 1 << 1)
        public static let flexibleRightMargin = AutoresizingMask(rawValue: 1 << 2)
        public static let flexibleTopMargin = AutoresizingMask(rawValue: 1 << 3)
        public static let flexibleHeight = AutoresizingMask(rawValue: 1 << 4)
        public static let flexibleBottomMargin = AutoresizingMask(rawValue: 1 << 5)
    }

    // MARK: Hierarchy

    open var superview: UIView? { UIView.wrap(host.view_superview(handle)) }
    open var subviews: [UIView] {
        (0..<host.view_subview_count(handle)).compactMap { UIView.wrap(host.view_subview_at(handle, $0)) }
    }
    /// The window the view is in, or nil when it is in none.
    open var window: UIWindow? {
        var v: UIView = self
        while let s = v.superview { v = s }
        return v as? UIWindow
    }
    open var safeAreaInsets: UIEdgeInsets { .zero }
    open var layoutMargins = UIEdgeInsets(top: 8, left: 8, bottom: 8, right: 8)

    open func addSubview(_ view: UIView) { host.view_add_subview(handle, view.handle) }
    open func insertSubview(_ view: UIView, at index: Int) { host.view_insert_subview_at(handle, view.handle, Int64(index)) }
    open func insertSubview(_ view: UIView, aboveSubview sibling: UIView) { host.view_insert_subview_above(handle, view.handle, sibling.handle) }
    open func insertSubview(_ view: UIView, belowSubview sibling: UIView) { host.view_insert_subview_below(handle, view.handle, sibling.handle) }
    open func removeFromSuperview() { host.view_remove_from_superview(handle) }
    open func bringSubviewToFront(_ view: UIView) { host.view_bring_to_front(view.handle) }
    open func sendSubviewToBack(_ view: UIView) { host.view_send_to_back(view.handle) }
    open func exchangeSubview(at index1: Int, withSubviewAt index2: Int) {
        let s = subviews
        guard s.indices.contains(index1), s.indices.contains(index2), index1 != index2 else { return }
        let (lo, hi) = (min(index1, index2), max(index1, index2))
        insertSubview(s[hi], at: lo)
        insertSubview(s[lo], at: hi)
    }
    open func isDescendant(of view: UIView) -> Bool {
        var v: UIView? = self
        while let c = v { if c === view { return true }; v = c.superview }
        return false
    }
    /// viewWithTag: this view or the first subview (depth-first) with this tag.
    open func viewWithTag(_ tag: Int) -> UIView? {
        if self.tag == tag { return self }
        for s in subviews { if let f = s.viewWithTag(tag) { return f } }
        return nil
    }
    /// The first view of this subtree the scenario named `name` (transhost's replacement for
    /// outlets: scenario views carry names, not outlets).
    public func viewNamed(_ name: String) -> UIView? { UIView.wrap(name.withCString { host.view_find_named(handle, $0) }) }

    // MARK: Coordinates

    /// convert(_:to:) (nil: the window).
    open func convert(_ rect: CGRect, to view: UIView?) -> CGRect { CGRect(host.view_convert_rect(handle, rect.th, view?.handle)) }
    open func convert(_ rect: CGRect, from view: UIView?) -> CGRect {
        if let view { return view.convert(rect, to: self) }
        return CGRect(host.view_convert_rect(windowRoot.handle, rect.th, handle))
    }
    open func convert(_ point: CGPoint, to view: UIView?) -> CGPoint { convert(CGRect(origin: point, size: .zero), to: view).origin }
    open func convert(_ point: CGPoint, from view: UIView?) -> CGPoint { convert(CGRect(origin: point, size: .zero), from: view).origin }
    private var windowRoot: UIView {
        var v: UIView = self
        while let s = v.superview { v = s }
        return v
    }

    // MARK: Snapshots

    open func snapshotView(afterScreenUpdates: Bool) -> UIView? { UIView.wrap(host.view_snapshot(handle, afterScreenUpdates ? 1 : 0)) }

    open func resizableSnapshotView(from rect: CGRect, afterScreenUpdates: Bool, withCapInsets insets: UIEdgeInsets) -> UIView? {
        UIView.wrap(host.view_resizable_snapshot(handle, rect.th, afterScreenUpdates ? 1 : 0, insets.th))
    }

    // MARK: Layout (no Auto Layout: frames are what they are set to)

    open func setNeedsLayout() {}
    open func layoutIfNeeded() { layoutSubviews() }
    open func layoutSubviews() {}
    open func setNeedsDisplay() {}
    open func sizeToFit() {}
    open func sizeThatFits(_ size: CGSize) -> CGSize { bounds.size }
    open var intrinsicContentSize: CGSize { CGSize(width: UIView.noIntrinsicMetric, height: UIView.noIntrinsicMetric) }
    public static let noIntrinsicMetric: CGFloat = -1
}

/// UIEdgeInsets.
public struct UIEdgeInsets: Equatable, Hashable, Sendable {
    public var top, left, bottom, right: CGFloat
    public init(top: CGFloat, left: CGFloat, bottom: CGFloat, right: CGFloat) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    public init() { self.init(top: 0, left: 0, bottom: 0, right: 0) }
    public static let zero = UIEdgeInsets()
    var th: th_insets { th_insets(top: Double(top), left: Double(left), bottom: Double(bottom), right: Double(right)) }
}

extension CGRect {
    /// UIEdgeInsetsInsetRect.
    public func inset(by insets: UIEdgeInsets) -> CGRect {
        CGRect(x: minX + insets.left, y: minY + insets.top,
               width: width - insets.left - insets.right, height: height - insets.top - insets.bottom)
    }
}
