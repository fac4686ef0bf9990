import TransHostCore
import TransHostCoordinators
import TransHostPluginHost
import TransHostSupport
import TransHostScenario

/// What plugins see of the app (ABI 1.2): the screen, controller relatives, the operations they
/// may start, scenario images, and the gesture recognizers scripted gestures are delivered to.
public final class AppServices: PluginAppServices {
    unowned let app: App
    private(set) var recognizers: [PluginGestureRecognizer] = []

    public init(app: App) { self.app = app }

    public var screenBounds: Rect { app.window.bounds }
    public var screenScale: Double { Double(app.scenario.device.scale) }

    /// The navigation or tab container controller (the modal root when the root is one).
    private var containerController: ViewController? { app.navigation != nil || app.tabs != nil ? app.modal.root : nil }

    /// Whether `vc` is in the running transition of `kind` (its to-controller is a child
    /// already, as in UIKit).
    private func inTransition(_ vc: ViewController, _ kind: ContainerKind) -> Bool {
        guard let ctx = app.host.active?.context, ctx.container == kind else { return false }
        return ctx.fromViewController === vc || ctx.toViewController === vc
    }

    public func related(_ vc: ViewController, _ relation: ControllerRelation) -> ViewController? {
        let presented = app.modal.presented
        switch relation {
        case .presenting:
            guard let i = presented.firstIndex(where: { $0 === vc }) else {
                if let ctx = app.host.active?.context, ctx.container == .modal, ctx.operation == .present, ctx.toViewController === vc {
                    return ctx.fromViewController
                }
                return nil
            }
            return i == 0 ? app.modal.root : presented[i - 1]
        case .presented:
            if let i = presented.firstIndex(where: { $0 === vc }) { return i + 1 < presented.count ? presented[i + 1] : nil }
            let isRootSide = vc === app.modal.root || children(of: app.modal.root).contains { $0 === vc }
            return isRootSide ? presented.first : nil
        case .navigation:
            guard let nav = app.navigation else { return nil }
            return nav.stack.contains(where: { $0 === vc }) || inTransition(vc, .navigation) ? containerController : nil
        case .tab:
            guard let tabs = app.tabs else { return nil }
            return tabs.viewControllers.contains(where: { $0 === vc }) ? containerController : nil
        case .parent:
            return related(vc, .navigation) ?? related(vc, .tab)
        }
    }

    public func children(of vc: ViewController) -> [ViewController] {
        guard vc === app.modal.root else { return [] }
        return app.navigation?.stack ?? app.tabs?.viewControllers ?? []
    }

    public func presentationStyle(of vc: ViewController) -> Int { 0 }

    public func pop(_ navigation: ViewController, animated: Bool) -> String? {
        guard let nav = app.navigation, navigation === app.modal.root else { return "\(navigation.typeName) is not the navigation controller" }
        nav.pop(animated: animated)
        return nil
    }

    public func push(_ vc: ViewController, on navigation: ViewController, animated: Bool) -> String? {
        guard let nav = app.navigation, navigation === app.modal.root else { return "\(navigation.typeName) is not the navigation controller" }
        nav.push(vc, animated: animated)
        return nil
    }

    public func dismiss(_ vc: ViewController, animated: Bool) -> String? {
        guard !app.modal.presented.isEmpty else { return "nothing is presented" }
        app.modal.dismiss(animated: animated)
        return nil
    }

    public func select(_ index: Int, in tabs: ViewController, animated: Bool) -> String? {
        guard let t = app.tabs, tabs === app.modal.root else { return "\(tabs.typeName) is not the tab bar controller" }
        guard t.viewControllers.indices.contains(index) else { return "\(index) is not a tab index (0..<\(t.viewControllers.count))" }
        t.select(index, animated: animated)
        return nil
    }

    public func imagePath(_ name: String) -> String? {
        let dir = PathUtil.dirname(app.scenario.source)
        for candidate in [name, name + ".png"] {
            let path = candidate.hasPrefix("/") ? candidate : PathUtil.join(dir, candidate)
            if FileIO.exists(path) { return path }
        }
        return nil
    }

    public func addGestureRecognizer(_ recognizer: PluginGestureRecognizer) { recognizers.append(recognizer) }

    /// The recognizer a gesture starting at `start` (window points) reaches: the frontmost one
    /// whose view is on screen and contains the start (a screen-edge pan: whose edge the start
    /// lies within 20 points of).
    func recognizer(at start: Point) -> PluginGestureRecognizer? {
        var order: [ObjectIdentifier: Int] = [:]
        var n = 0
        func walk(_ v: View) {
            order[ObjectIdentifier(v)] = n; n += 1
            if v.isHidden { return }
            for s in v.subviews { walk(s) }
        }
        walk(app.window)
        let size = app.window.bounds.size
        let candidates = recognizers.filter { r in
            guard order[ObjectIdentifier(r.view)] != nil, !r.view.isHidden, r.view.isDescendant(of: app.window) else { return false }
            switch r.kind {
            case .pan:
                let f = app.engine.hitTestFrame(of: r.view)
                return start.x >= f.minX && start.x <= f.maxX && start.y >= f.minY && start.y <= f.maxY
            case .screenEdgePan:
                let zone = 20.0
                return (r.edges & 1 != 0 && start.y <= zone) || (r.edges & 2 != 0 && start.x <= zone)
                    || (r.edges & 4 != 0 && start.y >= size.height - zone) || (r.edges & 8 != 0 && start.x >= size.width - zone)
            }
        }
        return candidates.max { order[ObjectIdentifier($0.view)]! < order[ObjectIdentifier($1.view)]! }
    }
}
