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

    /// The navigation controller whose running transition involves `vc` (the pushed controller
    /// is a child already, as in UIKit).
    private func navigationInTransition(_ vc: ViewController) -> ViewController? {
        guard let ctx = app.host.active?.context, ctx.container == .navigation,
              ctx.fromViewController === vc || ctx.toViewController === vc else { return nil }
        return ctx.fromViewController.parent ?? ctx.toViewController.parent
    }

    public func related(_ vc: ViewController, _ relation: ControllerRelation) -> ViewController? {
        switch relation {
        case .presenting:
            // A child answers for the controller its tree hangs from, as in UIKit.
            var n: ViewController? = vc
            while let c = n { if let p = c.presentingViewController { return p }; n = c.parent }
            if let ctx = app.host.active?.context, ctx.container == .modal, ctx.operation == .present, ctx.toViewController === vc {
                return ctx.fromViewController
            }
            return nil
        case .presented:
            var n: ViewController? = vc
            while let c = n { if let p = c.presentedViewController { return p }; n = c.parent }
            return nil
        case .navigation:
            return vc.navigationController ?? navigationInTransition(vc)
        case .tab:
            var n = vc.parent
            while let c = n { if c.tabCoordinator != nil { return c }; n = c.parent }
            return nil
        case .parent:
            return vc.parent ?? navigationInTransition(vc)
        }
    }

    public func children(of vc: ViewController) -> [ViewController] { vc.children }

    public func presentationStyle(of vc: ViewController) -> Int {
        if let p = app.modal.presentations.first(where: { $0.presented === vc }) { return p.controller.presentationStyle.rawValue }
        if let pc = app.host.active?.context.presentationController, pc.presentedViewController === vc { return pc.presentationStyle.rawValue }
        return vc.modalPresentationStyle.rawValue
    }

    public func pop(_ navigation: ViewController, animated: Bool) -> String? {
        guard let nav = navigation.navigationCoordinator else { return "\(navigation.typeName) is not a navigation controller" }
        nav.pop(animated: animated)
        return nil
    }

    public func push(_ vc: ViewController, on navigation: ViewController, animated: Bool) -> String? {
        guard let nav = navigation.navigationCoordinator else { return "\(navigation.typeName) is not a navigation controller" }
        nav.push(vc, animated: animated)
        return nil
    }

    public func dismiss(_ vc: ViewController, animated: Bool) -> String? {
        guard !app.modal.presented.isEmpty else { return "nothing is presented" }
        app.modal.dismiss(vc, animated: animated)
        return nil
    }

    public func select(_ index: Int, in tabs: ViewController, animated: Bool) -> String? {
        guard let t = tabs.tabCoordinator else { return "\(tabs.typeName) is not a tab bar controller" }
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
                let f = r.view.convert(r.view.bounds, to: nil)
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
