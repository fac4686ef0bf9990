import TransHostCore
import TransHostCoordinators

/// A small app to play: controller types (with superclasses), controllers and their views, the
/// root container, and a script of actions. Schema: docs/scenario.md.
public struct Scenario: Sendable {
    public static let format = "transhost-scenario/1"

    public struct TextSpec: Equatable, Sendable {
        public var string: String
        public var size: Double
        public var color: Color
        public var alignment: TextAlignment
    }

    /// A view to build: geometry, look and subviews.
    public struct ViewSpec: Equatable, Sendable {
        public var name: String?
        /// nil for a controller's root view: it fills its container.
        public var frame: Rect?
        public var background: Color?
        public var cornerRadius: Double = 0
        public var alpha: Double = 1
        public var hidden = false
        public var clipsToBounds = false
        public var text: TextSpec?
        public var image: String?
        public var borderWidth: Double = 0
        public var borderColor: Color = .black
        public var subviews: [ViewSpec] = []
        public init(name: String? = nil, frame: Rect? = nil, background: Color? = nil) {
            self.name = name; self.frame = frame; self.background = background
        }
    }

    /// A controller entry. A container entry (`container`) is a navigation or tab bar
    /// controller over other entries; `children` embeds child view controllers in any entry.
    public struct ControllerSpec: Equatable, Sendable {
        public var id: String
        public var type: String
        public var view: ViewSpec
        public var container: ContainerSpec?
        /// Ids of embedded child view controllers (their views go inside this one's view).
        public var children: [String] = []
        public var modalPresentationStyle: ModalPresentationStyle?
        public var definesPresentationContext = false
        public init(id: String, type: String, view: ViewSpec, container: ContainerSpec? = nil, children: [String] = [],
                    modalPresentationStyle: ModalPresentationStyle? = nil, definesPresentationContext: Bool = false) {
            self.id = id; self.type = type; self.view = view; self.container = container; self.children = children
            self.modalPresentationStyle = modalPresentationStyle; self.definesPresentationContext = definesPresentationContext
        }
        /// The ids this entry places in the tree below it.
        public var contained: [String] {
            switch container {
            case .navigation(let stack)?: return stack + children
            case .tab(let tabs, _)?: return tabs + children
            case nil: return children
            }
        }
    }

    /// What a container entry holds.
    public enum ContainerSpec: Equatable, Sendable {
        case navigation(stack: [String])
        case tab(tabs: [String], selected: Int)
    }

    /// Where an action goes and how, beyond its kind (all optional; docs/scenario.md).
    public struct ActionOptions: Equatable, Sendable {
        /// push, pop, popTo, popToRoot, setViewControllers: the navigation controller; select:
        /// the tab bar controller (default: the one of the visible context).
        public var target: String?
        /// present: the source controller (default: the visible context's leaf).
        public var from: String?
        /// present: the style (default: the presented controller's modalPresentationStyle).
        public var style: ModalPresentationStyle?
        /// dismiss: the controller dismiss is sent to (default: the top presented one).
        public var dismissing: String?
        public init(target: String? = nil, from: String? = nil, style: ModalPresentationStyle? = nil, dismissing: String? = nil) {
            self.target = target; self.from = from; self.style = style; self.dismissing = dismissing
        }
    }

    public enum Root: Equatable, Sendable {
        case navigation(stack: [String])
        case tab(tabs: [String], selected: Int)
        /// A single controller (that presents modally).
        case single(String)
    }

    /// A scripted pan that drives an action's transition interactively, and the rule that
    /// decides at release whether it finishes or cancels.
    /// A scripted pan that drives an action's transition interactively. `rule` (axis and
    /// finish threshold) is the scenario's own; when it is nil, the interaction the routed
    /// animator's manifest names is used, and failing that seed 001's rule (horizontal, past half).
    public struct Gesture: Equatable, Sendable {
        public var script: GestureScript
        public var rule: InteractionRule?
        /// The interaction controller's completionSpeed and completionCurve (nil: 1, ease-in-out).
        public var completionSpeed: Double?
        public var completionCurve: TimingCurve?
        public init(script: GestureScript, rule: InteractionRule? = nil, completionSpeed: Double? = nil, completionCurve: TimingCurve? = nil) {
            self.script = script; self.rule = rule; self.completionSpeed = completionSpeed; self.completionCurve = completionCurve
        }
    }

    public enum Action: Equatable, Sendable {
        case push(String, animated: Bool, gesture: Gesture?)
        case pop(animated: Bool, gesture: Gesture?)
        case popToRoot(animated: Bool, gesture: Gesture? = nil)
        /// popToViewController(_:animated:).
        case popTo(String, animated: Bool, gesture: Gesture?)
        /// setViewControllers(_:animated:): the new stack, bottom first.
        case setViewControllers([String], animated: Bool, gesture: Gesture?)
        case present(String, animated: Bool, gesture: Gesture?)
        case dismiss(animated: Bool, gesture: Gesture?)
        case select(Int, animated: Bool, gesture: Gesture?)
        /// Lets virtual time pass (seconds).
        case wait(Double)
        /// A scripted pan delivered to the gesture recognizers plugins attached to views in the
        /// window (their handlers decide what happens): it starts at `start` (window points),
        /// and `velocity` (points per second), when given, is the release's.
        case gesture(GestureScript, start: Point, velocity: Point?)
    }

    public var name: String
    public var device: Device
    /// type -> superclass.
    public var types: [String: String]
    public var controllers: [ControllerSpec]
    public var root: Root
    public var script: [Action]
    /// Per action (same indices as `script`; missing entries are nil): the virtual time, in
    /// seconds since the script began, at which it arrives ("at"). nil: after everything before
    /// it has ended. See docs/scenario.md, "Timed actions".
    public var times: [Double?] = []
    /// Per action (same indices as `script`; missing entries are the defaults): its target,
    /// source, style or dismissed controller.
    public var options: [ActionOptions] = []
    /// Where the scenario came from (a path, or "built-in").
    public var source: String

    /// When action `i` arrives, if it is timed.
    public func time(ofAction i: Int) -> Double? { i < times.count ? times[i] : nil }
    public func options(ofAction i: Int) -> ActionOptions { i < options.count ? options[i] : ActionOptions() }

    /// Whether the app is more than one root container over plain controllers (some entry is a
    /// container or has children): the trace's `final` then also describes the tree.
    public var hasControllerTree: Bool { controllers.contains { $0.container != nil || !$0.children.isEmpty } }

    public init(name: String, device: Device, types: [String: String], controllers: [ControllerSpec], root: Root,
                script: [Action], source: String) {
        self.name = name; self.device = device; self.types = types; self.controllers = controllers
        self.root = root; self.script = script; self.source = source
    }

    public func controller(_ id: String) -> ControllerSpec? { controllers.first { $0.id == id } }

    /// The built-in default: A pushes B, then B pops back (seeds 003/004).
    public static let builtInDefault: Scenario = {
        func screen(_ title: String, _ hex: String) -> ViewSpec {
            var v = ViewSpec(background: Color(hex: hex))
            var label = ViewSpec(name: "\(title) title", frame: Rect(x: 20, y: 80, width: 280, height: 44))
            label.text = TextSpec(string: title, size: 28, color: .white, alignment: .center)
            v.subviews = [label]
            return v
        }
        return Scenario(
            name: "default", device: .standard,
            types: ["A": "UIViewController", "B": "UIViewController"],
            controllers: [ControllerSpec(id: "a", type: "A", view: screen("A", "#2f6fdf")),
                          ControllerSpec(id: "b", type: "B", view: screen("B", "#e0533c"))],
            root: .navigation(stack: ["a"]),
            script: [.push("b", animated: true, gesture: nil), .pop(animated: true, gesture: nil)],
            source: "built-in")
    }()
}
