import TransHostCore
import TransHostCoordinators

/// A scenario's app, built: the window, its controllers and its root coordinator.
public final class App {
    public let scenario: Scenario
    public let engine: AnimationEngine
    public let window: View
    public let host: TransitionHost
    public private(set) var controllers: [String: ViewController] = [:]
    public private(set) var navigation: NavigationCoordinator?

    public init(scenario: Scenario, engine: AnimationEngine = AnimationEngine()) {
        self.scenario = scenario
        self.engine = engine
        let size = scenario.device.size
        window = View(engine: engine, frame: Rect(x: 0, y: 0, width: size.width, height: size.height), name: "window")
        window.backgroundColor = .black
        host = TransitionHost(engine: engine)
        for c in scenario.controllers {
            let root = Self.build(c.view, engine: engine, defaultFrame: window.bounds, name: c.type)
            controllers[c.id] = ViewController(id: c.id, typeName: c.type, view: root)
        }
        switch scenario.root {
        case .navigation(let stack):
            let container = View(engine: engine, frame: window.bounds, name: "UINavigationController")
            window.addSubview(container)
            let nav = NavigationCoordinator(root: controllers[stack[0]]!, view: container, host: host)
            for id in stack.dropFirst() { nav.push(controllers[id]!, animated: false) }
            navigation = nav
        case .tab, .single:
            // Tab and modal roots arrive with the coordinator issue; until then the first
            // controller is shown on its own.
            let id: String
            if case .tab(let tabs, let sel) = scenario.root { id = tabs[sel] } else if case .single(let c) = scenario.root { id = c } else { id = "" }
            if let vc = controllers[id] { vc.view.frame = window.bounds; window.addSubview(vc.view) }
        }
    }

    /// Builds a view tree from its spec.
    static func build(_ s: Scenario.ViewSpec, engine: AnimationEngine, defaultFrame: Rect, name: String) -> View {
        let v = View(engine: engine, frame: s.frame ?? defaultFrame, name: s.name ?? name)
        v.backgroundColor = s.background
        v.cornerRadius = s.cornerRadius
        v.alpha = s.alpha
        v.isHidden = s.hidden
        v.clipsToBounds = s.clipsToBounds
        var content = ViewContent.none
        if let t = s.text { content.text = TextContent(string: t.string, fontSize: t.size, color: t.color, alignment: t.alignment) }
        content.imagePath = s.image
        content.borderWidth = s.borderWidth
        content.borderColor = s.borderColor
        v.content = content
        for sub in s.subviews { v.addSubview(build(sub, engine: engine, defaultFrame: .zero, name: sub.name ?? "")) }
        return v
    }

    /// The app's state as the trace's "final" reports it.
    public var finalState: (stack: [String], selected: Int?, presented: [String]) {
        (navigation?.stack.map(\.typeName) ?? [], nil, [])
    }
}
