import TransHostCore
import TransHostCoordinators
import TransHostManifest
import TransHostRouting
import TransHostScenario

/// One transition a plugin's manifest asks for (an animator, a route, one of its operations),
/// and the scenarios the validator plays to exercise it. The two controllers are called "from"
/// (the one being left) and "to" (the one shown); their types are the route's, or made-up
/// names where the route says `*`.
public struct TransitionCase: Equatable, Sendable {
    public var animator: String
    public var container: ContainerKind
    public var operation: TransitionOperation
    public var fromType: String
    public var toType: String
    /// Whether the route also serves the reverse operation (push -> pop, present -> dismiss).
    public var reversible: Bool
    /// The controllers' views: from the plugin's demo scenario when it has a controller of that
    /// type (an animator may look for subviews its app has), else a plain screen with two subviews.
    public var fromView: Scenario.ViewSpec? = nil
    public var toView: Scenario.ViewSpec? = nil
    /// The presentation style the demo scenario gives the to-controller type (a custom
    /// presentation's animator expects the presenter's view to stay).
    public var toStyle: ModalPresentationStyle? = nil

    /// "navigation push A -> B (animator fade-scale)", for messages.
    public var label: String { "\(container.rawValue) \(operation.rawValue) \(fromType) -> \(toType) (animator \(animator))" }
    public var reverseLabel: String { "\(container.rawValue) \(operation.reverse.rawValue) \(toType) -> \(fromType) (animator \(animator))" }

    /// Every case the manifest's animators' and delegates' routes state, in declaration order,
    /// without repeats (a delegate's route is played the same way: the host asks the delegate,
    /// which vends the animator, and, for a custom presentation, the presentation controller).
    /// A route for `any` container is exercised in the containers its operations belong to
    /// (navigation when it names none).
    public static func cases(of manifest: PluginManifest, demo: Scenario? = nil) -> [TransitionCase] {
        var out: [TransitionCase] = []
        for a in manifest.animators + manifest.delegates {
            for r in a.routes {
                let ops: [TransitionOperation]
                switch r.container {
                case .only(let kind): ops = r.operations.isEmpty ? TransitionOperation.allCases.filter { $0.container == kind } : r.operations
                case .any: ops = r.operations.isEmpty ? [.push] : r.operations
                }
                for op in ops {
                    let from = r.from == RouteRule.wildcard ? "ValidateFromController" : r.from
                    var to = r.to == RouteRule.wildcard ? "ValidateToController" : r.to
                    if to == from && r.to == RouteRule.wildcard { to = "ValidateOtherController" }
                    let forward = [TransitionOperation.push, .present, .select].contains(op)
                    var c = TransitionCase(animator: a.id, container: op.container, operation: op, fromType: from, toType: to,
                                           reversible: r.reverse && forward)
                    c.fromView = demo?.controllers.first { $0.type == from }?.view
                    c.toView = demo?.controllers.first { $0.type == to }?.view
                    c.toStyle = demo?.controllers.first { $0.type == to }?.modalPresentationStyle
                    if !out.contains(c) { out.append(c) }
                }
            }
        }
        return out
    }

    /// UIKit's own class names are the root of the hierarchy; everything else is declared a
    /// direct subclass of UIViewController.
    static let builtInTypes: Set<String> = ["UIViewController", "UINavigationController", "UITabBarController"]

    static func controller(_ id: String, type: String, colour: String, title: String, view given: Scenario.ViewSpec?) -> Scenario.ControllerSpec {
        if let given { return Scenario.ControllerSpec(id: id, type: type, view: given) }
        var view = Scenario.ViewSpec(background: Color(hex: colour))
        var label = Scenario.ViewSpec(name: "\(title) title", frame: Rect(x: 20, y: 80, width: 200, height: 44), background: Color(hex: "#ffffff"))
        label.cornerRadius = 6
        var badge = Scenario.ViewSpec(name: "\(title) badge", frame: Rect(x: 20, y: 140, width: 60, height: 60), background: Color(hex: "#222222"))
        badge.alpha = 0.8
        view.subviews = [label, badge]
        return Scenario.ControllerSpec(id: id, type: type, view: view)
    }

    /// What comes before the transition under test (non-animated set-up) and the action itself.
    func setUp() -> (root: Scenario.Root, prefix: [Scenario.Action]) {
        switch operation {
        case .push: return (.navigation(stack: ["from"]), [])
        case .pop: return (.navigation(stack: ["to", "from"]), [])
        case .present: return (.single("from"), [])
        case .dismiss: return (.single("to"), [.present("from", animated: false, gesture: nil)])
        case .select: return (.tab(tabs: ["from", "to"], selected: 0), [])
        }
    }

    /// The action that makes this case's transition, optionally driven by a gesture.
    func forwardAction(gesture: Scenario.Gesture? = nil) -> Scenario.Action {
        switch operation {
        case .push: return .push("to", animated: true, gesture: gesture)
        case .pop: return .pop(animated: true, gesture: gesture)
        case .present: return .present("to", animated: true, gesture: gesture)
        case .dismiss: return .dismiss(animated: true, gesture: gesture)
        case .select: return .select(1, animated: true, gesture: gesture)
        }
    }

    /// The action that undoes `forwardAction` (only for reversible cases).
    func reverseAction(gesture: Scenario.Gesture? = nil) -> Scenario.Action {
        switch operation {
        case .push: return .pop(animated: true, gesture: gesture)
        case .pop: return .push("from", animated: true, gesture: gesture)
        case .present: return .dismiss(animated: true, gesture: gesture)
        case .dismiss: return .present("from", animated: true, gesture: gesture)
        case .select: return .select(0, animated: true, gesture: gesture)
        }
    }

    /// A scenario on `device` whose script is the set-up followed by `actions`.
    public func scenario(_ actions: [Scenario.Action], device: Device = .standard, times: [Double?] = [], name: String = "validate") -> Scenario {
        var types: [String: String] = [:]
        for t in [fromType, toType] where !Self.builtInTypes.contains(t) { types[t] = "UIViewController" }
        let (root, prefix) = setUp()
        var to = Self.controller("to", type: toType, colour: "#e0533c", title: "To", view: toView)
        to.modalPresentationStyle = toStyle
        var s = Scenario(name: name, device: device, types: types,
                         controllers: [Self.controller("from", type: fromType, colour: "#2f6fdf", title: "From", view: fromView), to],
                         root: root, script: prefix + actions, source: "generated by transhost validate for \(label)")
        if !times.isEmpty { s.times = Array(repeating: nil, count: prefix.count) + times }
        return s
    }

    /// The scenario of the set-up alone: the state the transition under test starts from.
    func setUpScenario(device: Device = .standard) -> Scenario { scenario([], device: device) }

    /// How many transitions the set-up makes before the ones under test (each action makes one).
    var prefixCount: Int { setUp().prefix.count }

    /// A scripted pan that drives the transition to `progress` of the container's width and
    /// releases there without velocity; the rule finishes it only when `finish` is true.
    static func gesture(to progress: Double, width: Double, finish: Bool) -> Scenario.Gesture {
        let x = progress * width
        let script = GestureScript(samples: [PanSample(time: 0.05, x: x * 0.5), PanSample(time: 0.1, x: x)],
                                   release: PanSample(time: 0.3, x: x), velocity: Point(x: 0, y: 0))
        // Progress above the threshold finishes: 1 can never be exceeded, 0 always is (past 0).
        return Scenario.Gesture(script: script, rule: InteractionRule(axis: .horizontal, threshold: finish ? 0 : 1, finishVelocity: nil))
    }
}
