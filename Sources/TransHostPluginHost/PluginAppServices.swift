import TransHostCore
import TransHostCoordinators

/// A controller's relatives, as plugins ask for them (ABI 1.2 controller_related).
public enum ControllerRelation: Sendable { case presenting, presented, navigation, tab, parent }

/// What plugins may read about the app beyond the running transition, and the operations they
/// may start (ABI 1.2): provided by the layer that owns the app (the scenario runner).
public protocol PluginAppServices: AnyObject {
    /// UIScreen.main: the device's bounds (points) and scale.
    var screenBounds: Rect { get }
    var screenScale: Double { get }
    func related(_ vc: ViewController, _ relation: ControllerRelation) -> ViewController?
    /// A container's children (the navigation stack or the tabs); empty for other controllers.
    func children(of vc: ViewController) -> [ViewController]
    /// UIModalPresentationStyle raw value of the controller.
    func presentationStyle(of vc: ViewController) -> Int
    /// Operations a plugin starts; nil when started or queued, else the reason it was refused.
    func pop(_ navigation: ViewController, animated: Bool) -> String?
    func push(_ vc: ViewController, on navigation: ViewController, animated: Bool) -> String?
    func dismiss(_ vc: ViewController, animated: Bool) -> String?
    func select(_ index: Int, in tabs: ViewController, animated: Bool) -> String?
    /// The file of a scenario image named `name` (relative to the scenario), or nil.
    func imagePath(_ name: String) -> String?
    /// Gesture recognizers: the services deliver scripted gestures to the registered handlers.
    func addGestureRecognizer(_ recognizer: PluginGestureRecognizer)
    /// ABI 1.3: the running transition's context when `vc` takes part in it (from, to, the
    /// presenting controller, or a container of one of them), else nil.
    func runningTransition(involving vc: ViewController) -> TransitionContext?
}

/// A gesture recognizer a plugin attached to a view (its handler is a C callback).
public final class PluginGestureRecognizer {
    public enum Kind: Sendable { case pan, screenEdgePan }
    public let view: View
    public let kind: Kind
    /// UIRectEdge bits of a screen-edge pan (1 top, 2 left, 4 bottom, 8 right).
    public let edges: UInt32
    /// Delivers one event: state (UIGestureRecognizer.State raw value), translation, velocity
    /// and location in window coordinates.
    public let deliver: (_ state: Int, _ translation: Point, _ velocity: Point, _ location: Point) -> Void
    public init(view: View, kind: Kind, edges: UInt32, deliver: @escaping (Int, Point, Point, Point) -> Void) {
        self.view = view; self.kind = kind; self.edges = edges; self.deliver = deliver
    }
}
