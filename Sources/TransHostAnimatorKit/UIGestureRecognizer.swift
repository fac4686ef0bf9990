import CTransHost

/// UIGestureRecognizer. Without the Objective-C runtime there are no selectors: the target is
/// a closure (`addTarget { recognizer in ... }` or `init { recognizer in ... }`). The scenario's
/// scripted gestures reach the recognizers of the views in the window (see the scenario's
/// "gesture" action); the recognizer's state, translation, velocity and location are the
/// script's.
open class UIGestureRecognizer: NSObject {
    /// UIGestureRecognizer.State (UIKit's values).
    public enum State: Int, Sendable { case possible = 0, began, changed, ended, cancelled, failed
        public static let recognized = State.ended
    }

    open internal(set) var state: State = .possible
    open var isEnabled = true
    open var cancelsTouchesInView = true
    open weak var delegate: UIGestureRecognizerDelegate?
    open internal(set) weak var view: UIView?
    var actions: [(UIGestureRecognizer) -> Void] = []
    nonisolated(unsafe) static var attached: [UIGestureRecognizer] = []
    var location = CGPoint.zero

    public override init() { super.init() }
    /// The closure replacement for init(target:action:).
    public convenience init(_ action: @escaping (UIGestureRecognizer) -> Void) {
        self.init()
        actions.append(action)
    }
    /// The closure replacement for init(target:action:): `action` replaces the `#selector`.
    public convenience init(target: Any?, action: @escaping (UIGestureRecognizer) -> Void) {
        self.init()
        actions.append(action)
    }
    /// The closure replacement for addTarget(_:action:).
    open func addTarget(_ action: @escaping (UIGestureRecognizer) -> Void) { actions.append(action) }
    open func addTarget(_ target: Any?, action: @escaping (UIGestureRecognizer) -> Void) { actions.append(action) }
    open func removeAllTargets() { actions.removeAll() }

    /// location(in:): where the touch is, in `view`'s coordinates (nil: the window).
    open func location(in view: UIView?) -> CGPoint {
        guard let view else { return location }
        return view.convert(location, from: nil)
    }
    open var numberOfTouches: Int { state == .began || state == .changed ? 1 : 0 }

    var kind: UInt32 { 0 }
    var edgeBits: UInt32 { 0 }

    func deliver(_ e: th_gesture_event) {
        guard isEnabled else { return }
        state = State(rawValue: Int(e.state.rawValue)) ?? .possible
        location = CGPoint(e.location)
        if state == .began, let delegate, !delegate.gestureRecognizerShouldBegin(self) { state = .failed; return }
        for a in actions { a(self) }
    }
}

/// UIGestureRecognizerDelegate.
public protocol UIGestureRecognizerDelegate: NSObjectProtocol {
    func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool
    func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer,
                           shouldRecognizeSimultaneouslyWith otherGestureRecognizer: UIGestureRecognizer) -> Bool
}

extension UIGestureRecognizerDelegate {
    public func gestureRecognizerShouldBegin(_ gestureRecognizer: UIGestureRecognizer) -> Bool { true }
    public func gestureRecognizer(_ gestureRecognizer: UIGestureRecognizer,
                                  shouldRecognizeSimultaneouslyWith otherGestureRecognizer: UIGestureRecognizer) -> Bool { false }
}

/// UIPanGestureRecognizer.
open class UIPanGestureRecognizer: UIGestureRecognizer {
    var translation = CGPoint.zero
    var velocity = CGPoint.zero
    var translationOffset = CGPoint.zero
    open var minimumNumberOfTouches = 1
    open var maximumNumberOfTouches = Int.max

    override var kind: UInt32 { TH_GESTURE_PAN }

    /// init(target:action:) with a handler that takes the pan itself, e.g. a method reference:
    /// `UIPanGestureRecognizer(target: self, action: handlePan)` for `#selector(handlePan(_:))`.
    public convenience init(target: Any?, action: @escaping (UIPanGestureRecognizer) -> Void) {
        self.init()
        actions.append { action($0 as! UIPanGestureRecognizer) }
    }

    /// translation(in:): the translation since the gesture began (or since setTranslation),
    /// in `view`'s coordinate system.
    open func translation(in view: UIView?) -> CGPoint {
        let t = CGPoint(x: translation.x - translationOffset.x, y: translation.y - translationOffset.y)
        return UIPanGestureRecognizer.delta(t, in: view)
    }
    /// setTranslation(_:in:): later translations are measured from here. (The value is taken in
    /// window units: views that scale or rotate are not accounted for.)
    open func setTranslation(_ translation: CGPoint, in view: UIView?) {
        translationOffset = CGPoint(x: self.translation.x - translation.x, y: self.translation.y - translation.y)
    }
    /// velocity(in:): points per second in `view`'s coordinate system.
    open func velocity(in view: UIView?) -> CGPoint { UIPanGestureRecognizer.delta(velocity, in: view) }

    /// A window-space vector in `view`'s coordinates (the view's transform scales and turns it).
    static func delta(_ v: CGPoint, in view: UIView?) -> CGPoint {
        guard let view else { return v }
        let o = view.convert(CGPoint.zero, from: nil), p = view.convert(v, from: nil)
        return CGPoint(x: p.x - o.x, y: p.y - o.y)
    }

    override func deliver(_ e: th_gesture_event) {
        translation = CGPoint(e.translation)
        velocity = CGPoint(e.velocity)
        if e.state == TH_GESTURE_BEGAN { translationOffset = .zero }
        super.deliver(e)
    }
}

/// UIScreenEdgePanGestureRecognizer: a pan that starts at `edges` of the screen.
open class UIScreenEdgePanGestureRecognizer: UIPanGestureRecognizer {
    open var edges: UIRectEdge = []
    override var kind: UInt32 { TH_GESTURE_SCREEN_EDGE_PAN }
    public convenience init(target: Any?, action: @escaping (UIScreenEdgePanGestureRecognizer) -> Void) {
        self.init()
        actions.append { action($0 as! UIScreenEdgePanGestureRecognizer) }
    }
    override var edgeBits: UInt32 { UInt32(truncatingIfNeeded: edges.rawValue) }
}

/// UITapGestureRecognizer: accepted (so presentation controllers that dismiss on a tap compile);
/// scenarios script pans only, so it never fires.
open class UITapGestureRecognizer: UIGestureRecognizer {
    open var numberOfTapsRequired = 1
    open var numberOfTouchesRequired = 1
}

/// UIRectEdge.
public struct UIRectEdge: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let top = UIRectEdge(rawValue: 1 << 0)
    public static let left = UIRectEdge(rawValue: 1 << 1)
    public static let bottom = UIRectEdge(rawValue: 1 << 2)
    public static let right = UIRectEdge(rawValue: 1 << 3)
    public static let all: UIRectEdge = [.top, .left, .bottom, .right]
}

let gestureTrampoline: th_gesture_fn = { event, user in
    guard let event, let user else { return }
    Unmanaged<UIGestureRecognizer>.fromOpaque(user).takeUnretainedValue().deliver(event.pointee)
}

extension UIView {
    /// addGestureRecognizer: the host delivers scripted gestures of the recognizer's kind that
    /// reach this view. The view keeps the recognizer.
    public func addGestureRecognizer(_ recognizer: UIGestureRecognizer) {
        recognizer.view = self
        gestureStore.append(recognizer)
        // Scenarios script pans only: other recognizers are kept but never fire.
        guard recognizer.kind != 0 else { return }
        // The host keeps an unretained pointer for the whole run: never let the object go.
        UIGestureRecognizer.attached.append(recognizer)
        host.view_add_gesture(handle, recognizer.kind, recognizer.edgeBits, gestureTrampoline,
                              Unmanaged.passUnretained(recognizer).toOpaque())
    }
    public func removeGestureRecognizer(_ recognizer: UIGestureRecognizer) {
        recognizer.isEnabled = false
        gestureStore.removeAll { $0 === recognizer }
    }
    public var gestureRecognizers: [UIGestureRecognizer]? {
        get { gestureStore.isEmpty ? nil : gestureStore }
        set { for g in newValue ?? [] { addGestureRecognizer(g) } }
    }
}
