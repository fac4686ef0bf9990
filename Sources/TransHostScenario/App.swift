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
    public private(set) var tabs: TabCoordinator?
    /// Presents over the root; its container is the window.
    public private(set) var modal: ModalCoordinator!

    public init(scenario: Scenario, engine: AnimationEngine = AnimationEngine()) {
        self.scenario = scenario
        self.engine = engine
        let size = scenario.device.size
        window = View(engine: engine, frame: Rect(x: 0, y: 0, width: size.width, height: size.height), name: "window")
        window.backgroundColor = .black
        host = TransitionHost(engine: engine)
        for c in scenario.controllers {
            // A controller's root view is named after its controller's type, as the trace
            // contract says; the scenario's own name for it is not used.
            var spec = c.view
            spec.name = nil
            let root = Self.build(spec, engine: engine, defaultFrame: window.bounds, name: c.type)
            controllers[c.id] = ViewController(id: c.id, typeName: c.type, view: root)
        }
        // The root controller: containers are controllers too (their views hold their children),
        // and modal presentations happen over the root, in the window.
        let rootController: ViewController
        switch scenario.root {
        case .navigation(let stack):
            let container = View(engine: engine, frame: window.bounds, name: "UINavigationController")
            rootController = ViewController(id: "navigation", typeName: "UINavigationController", view: container)
            let nav = NavigationCoordinator(root: controllers[stack[0]]!, view: container, host: host)
            for id in stack.dropFirst() { nav.push(controllers[id]!, animated: false) }
            navigation = nav
        case .tab(let ids, let selected):
            let container = View(engine: engine, frame: window.bounds, name: "UITabBarController")
            rootController = ViewController(id: "tabs", typeName: "UITabBarController", view: container)
            tabs = TabCoordinator(controllers: ids.map { controllers[$0]! }, selectedIndex: selected, view: container, host: host)
        case .single(let id):
            rootController = controllers[id]!
        }
        modal = ModalCoordinator(root: rootController, view: window, host: host)
        host.placement = { [unowned self] vc, asking in
            if asking != .modal, modal.presented.contains(where: { $0 === vc }) { return "presented modally" }
            if asking != .navigation, let nav = navigation, nav.stack.contains(where: { $0 === vc }) { return "on the navigation stack" }
            if asking != .tab, let tabs, tabs.viewControllers.contains(where: { $0 === vc }) { return "a tab of the tab bar controller" }
            return nil
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

    /// The app's state as the trace's "final" reports it: the navigation stack, the selected
    /// tab, the presented controllers (types, bottom to top).
    public var finalState: (stack: [String], selected: Int?, presented: [String]) {
        (navigation?.stack.map(\.typeName) ?? [], tabs?.selectedIndex, modal.presented.map(\.typeName))
    }
}
