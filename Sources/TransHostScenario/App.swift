import TransHostCore
import TransHostCoordinators
import TransHostSupport

/// A scenario's app, built: the window, its controllers and its root coordinator.
public final class App {
    public let scenario: Scenario
    public let engine: AnimationEngine
    public let window: View
    public let host: TransitionHost
    public private(set) var controllers: [String: ViewController] = [:]
    /// The root's navigation or tab coordinator, when the root is a navigation or tab app.
    public private(set) var navigation: NavigationCoordinator?
    public private(set) var tabs: TabCoordinator?
    /// Presents over the root; its container is the window.
    public private(set) var modal: ModalCoordinator!
    /// The window's root view controller (a `UINavigationController` / `UITabBarController` the
    /// app makes for a navigation or tab root).
    public let rootController: ViewController

    public init(scenario: Scenario, engine: AnimationEngine = AnimationEngine()) {
        self.scenario = scenario
        self.engine = engine
        let size = scenario.device.size
        let window = View(engine: engine, frame: Rect(x: 0, y: 0, width: size.width, height: size.height), name: "window")
        self.window = window
        window.backgroundColor = .black
        let host = TransitionHost(engine: engine)
        self.host = host
        host.window = window
        var controllers: [String: ViewController] = [:]
        for c in scenario.controllers {
            // A controller's root view is named after its controller's type, as the trace
            // contract says; the scenario's own name for it is not used.
            var spec = c.view
            spec.name = nil
            let root = Self.build(spec, engine: engine, defaultFrame: window.bounds, name: c.type)
            let vc = ViewController(id: c.id, typeName: c.type, view: root)
            vc.modalPresentationStyle = c.modalPresentationStyle ?? .fullScreen
            vc.definesPresentationContext = c.definesPresentationContext
            controllers[c.id] = vc
        }
        // Containers are built innermost first, so a container's children are complete (their
        // coordinators made, their shown views in place) before it shows them.
        var built: Set<String> = []
        func assemble(_ id: String) {
            guard built.insert(id).inserted, let spec = scenario.controller(id), let vc = controllers[id] else { return }
            for child in spec.contained { assemble(child) }
            switch spec.container {
            case .navigation(let stack)?:
                _ = NavigationCoordinator(stack: stack.map { controllers[$0]! }, view: vc.view, host: host, owner: vc)
            case .tab(let ids, let selected)?:
                _ = TabCoordinator(controllers: ids.map { controllers[$0]! }, selectedIndex: selected, view: vc.view, host: host, owner: vc)
            case nil: break
            }
            for child in spec.children { vc.addChild(controllers[child]!) }
        }
        for c in scenario.controllers { assemble(c.id) }
        self.controllers = controllers
        // The root controller: containers are controllers too (their views hold their children),
        // and modal presentations happen over the root, in the window.
        switch scenario.root {
        case .navigation(let stack):
            let container = View(engine: engine, frame: window.bounds, name: "UINavigationController")
            rootController = ViewController(id: "navigation", typeName: "UINavigationController", view: container)
            navigation = NavigationCoordinator(stack: stack.map { controllers[$0]! }, view: container, host: host, owner: rootController)
        case .tab(let ids, let selected):
            let container = View(engine: engine, frame: window.bounds, name: "UITabBarController")
            rootController = ViewController(id: "tabs", typeName: "UITabBarController", view: container)
            tabs = TabCoordinator(controllers: ids.map { controllers[$0]! }, selectedIndex: selected, view: container, host: host, owner: rootController)
        case .single(let id):
            rootController = controllers[id]!
            navigation = rootController.navigationCoordinator
            tabs = rootController.tabCoordinator
        }
        modal = ModalCoordinator(root: rootController, view: window, host: host)
        host.placement = { [unowned self] vc, asking in place(of: vc, asking: asking) }
    }

    /// Where `vc` already is, for an action of `asking` that would put it somewhere else (nil:
    /// nowhere, or a place the asking coordinator checks itself).
    func place(of vc: ViewController, asking: ContainerKind) -> String? {
        if modal.presented.contains(where: { $0 === vc }) { return asking == .modal ? nil : "presented modally" }
        if vc === rootController { return "the window's root view controller" }
        if let p = vc.parent {
            if p.navigationCoordinator != nil { return "on the navigation stack of \(p.typeName) (\(p.id))" }
            if p.tabCoordinator != nil { return "a tab of the tab bar controller \(p.typeName) (\(p.id))" }
            return "a child of \(p.typeName) (\(p.id))"
        }
        return nil
    }

    /// The controller with scenario id `id`, or the root container the app made for a
    /// navigation (`"navigation"`) or tab (`"tabs"`) root.
    public func controller(_ id: String) -> ViewController? {
        controllers[id] ?? (rootController.id == id ? rootController : nil)
    }

    /// The controller the visible context ends in: the top presented controller's visible
    /// leaf (of those on screen), else the root's (through navigation tops, selected tabs and embedded children).
    public var visibleLeaf: ViewController { modal.visibleTop.visibleLeaf }

    /// The navigation controller an untargeted push or pop acts on: the nearest one above the
    /// visible leaf; failing that (a plain controller presented over a navigation app), the
    /// root's, as before controller trees.
    public var visibleNavigation: NavigationCoordinator? { visibleLeaf.navigationController?.navigationCoordinator ?? navigation }

    /// The tab bar controller an untargeted select acts on: the nearest one above the visible
    /// leaf, else the root's.
    public var visibleTabs: TabCoordinator? {
        var n = visibleLeaf.parent
        while let c = n { if let t = c.tabCoordinator { return t }; n = c.parent }
        return tabs
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

    /// The controller tree as the trace's `final.tree` reports it: from the window's root, each
    /// controller's `id` and `type`, a navigation controller's `stack`, a tab bar controller's
    /// `tabs` and `selected`, embedded `children`, and what it presents (`presented`, with the
    /// presentation's `style`).
    public var treeDescription: JSONValue { Self.describe(rootController) }

    static func describe(_ vc: ViewController) -> JSONValue {
        var o: [String: JSONValue] = ["id": .string(vc.id), "type": .string(vc.typeName)]
        if let nav = vc.navigationCoordinator {
            o["stack"] = .array(nav.stack.map(describe))
        } else if let tabs = vc.tabCoordinator {
            o["tabs"] = .array(tabs.viewControllers.map(describe))
            o["selected"] = .number(Double(tabs.selectedIndex))
        } else if !vc.children.isEmpty {
            o["children"] = .array(vc.children.map(describe))
        }
        if let p = vc.presentedViewController {
            var presented = describe(p).objectValue ?? [:]
            presented["style"] = .string(p.presentedStyle?.name ?? p.modalPresentationStyle.name)
            o["presented"] = .object(presented)
        }
        return .object(o)
    }

    /// The app's state as the trace's "final" reports it: the root navigation stack, the root's
    /// selected tab, the presented controllers (types, bottom to top).
    public var finalState: (stack: [String], selected: Int?, presented: [String]) {
        (navigation?.stack.map(\.typeName) ?? [], tabs?.selectedIndex, modal.presented.map(\.typeName))
    }
}
