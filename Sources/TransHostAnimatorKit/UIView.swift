import CTransHost

/// A host view seen through its handle, with UIView's names. Two UIView values are equal when
/// they stand for the same host view.
public final class UIView: Equatable {
    public let handle: OpaquePointer

    public init(handle: OpaquePointer) { self.handle = handle }

    /// A new empty view (UIView(frame:)).
    public convenience init(frame: CGRect) { self.init(handle: host.view_create(frame.c)!) }

    static func wrap(_ h: OpaquePointer?) -> UIView? { h.map(UIView.init(handle:)) }

    public static func == (a: UIView, b: UIView) -> Bool { a.handle == b.handle }

    public var frame: CGRect {
        get { CGRect(host.view_frame(handle)) }
        set { host.view_set_frame(handle, newValue.c) }
    }
    public var bounds: CGRect {
        get { CGRect(host.view_bounds(handle)) }
        set { host.view_set_bounds(handle, newValue.c) }
    }
    public var center: CGPoint {
        get { CGPoint(host.view_center(handle)) }
        set { host.view_set_center(handle, newValue.c) }
    }
    public var transform: CGAffineTransform {
        get { CGAffineTransform(host.view_transform(handle)) }
        set { host.view_set_transform(handle, newValue.cValue) }
    }
    public var alpha: CGFloat {
        get { host.view_alpha(handle) }
        set { host.view_set_alpha(handle, newValue) }
    }
    public var isHidden: Bool {
        get { host.view_hidden(handle) != 0 }
        set { host.view_set_hidden(handle, newValue ? 1 : 0) }
    }
    /// Write-only here: the host keeps the colour; reading it back is not part of the ABI.
    public var backgroundColor: UIColor? {
        get { nil }
        set { host.view_set_background_color(handle, (newValue ?? .clear).c) }
    }
    public var clipsToBounds: Bool {
        get { false }
        set { host.view_set_clips_to_bounds(handle, newValue ? 1 : 0) }
    }
    public var layer: CALayer { CALayer(view: self) }

    public var superview: UIView? { UIView.wrap(host.view_superview(handle)) }
    public var subviews: [UIView] {
        (0..<host.view_subview_count(handle)).compactMap { UIView.wrap(host.view_subview_at(handle, $0)) }
    }

    public func addSubview(_ view: UIView) { host.view_add_subview(handle, view.handle) }
    public func insertSubview(_ view: UIView, at index: Int) { host.view_insert_subview_at(handle, view.handle, Int64(index)) }
    public func insertSubview(_ view: UIView, aboveSubview sibling: UIView) { host.view_insert_subview_above(handle, view.handle, sibling.handle) }
    public func insertSubview(_ view: UIView, belowSubview sibling: UIView) { host.view_insert_subview_below(handle, view.handle, sibling.handle) }
    public func removeFromSuperview() { host.view_remove_from_superview(handle) }
    public func bringSubviewToFront(_ view: UIView) { host.view_bring_to_front(view.handle) }
    public func sendSubviewToBack(_ view: UIView) { host.view_send_to_back(view.handle) }

    /// The first view of this subtree named `name` (scenario views carry their names), like
    /// viewWithTag:.
    public func viewNamed(_ name: String) -> UIView? { UIView.wrap(name.withCString { host.view_find_named(handle, $0) }) }

    /// convert(_:to:) (nil: the window).
    public func convert(_ rect: CGRect, to view: UIView?) -> CGRect { CGRect(host.view_convert_rect(handle, rect.c, view?.handle)) }

    public func snapshotView(afterScreenUpdates: Bool) -> UIView? { UIView.wrap(host.view_snapshot(handle, afterScreenUpdates ? 1 : 0)) }

    public func resizableSnapshotView(from rect: CGRect, afterScreenUpdates: Bool, withCapInsets insets: UIEdgeInsets) -> UIView? {
        UIView.wrap(host.view_resizable_snapshot(handle, rect.c, afterScreenUpdates ? 1 : 0, insets.c))
    }
}

/// The view's layer: anchorPoint, position and the 3D transform.
public struct CALayer {
    let view: UIView
    public var anchorPoint: CGPoint {
        get { CGPoint(host.view_anchor_point(view.handle)) }
        nonmutating set { host.view_set_anchor_point(view.handle, newValue.c) }
    }
    public var position: CGPoint {
        get { view.center }
        nonmutating set { view.center = newValue }
    }
    public var transform: CATransform3D {
        get { CATransform3D(host.view_transform3d(view.handle)) }
        nonmutating set { host.view_set_transform3d(view.handle, newValue.c) }
    }
    public var cornerRadius: CGFloat {
        get { 0 }
        nonmutating set { host.view_set_corner_radius(view.handle, newValue) }
    }
    public func removeAllAnimations() { host.view_remove_all_animations(view.handle) }
}
