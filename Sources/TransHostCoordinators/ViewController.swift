import TransHostCore

/// A view controller: a type name (its class, for routing), a root view, and its place in the
/// controller tree.
///
/// The tree, as in UIKit: a navigation controller's children are its stack, a tab bar
/// controller's are its tabs, any other controller's are the child view controllers added with
/// `addChild` (their views inside its view). `parent` points back up. Presentation links
/// (`presentedViewController` / `presentingViewController`) join the trees of a presentation
/// chain. Appearance callbacks are forwarded down the shown part of the tree
/// (`shownChildren`), as UIKit's containers forward them.
public final class ViewController {
    /// The id the scenario gave it (unique within a scenario).
    public let id: String
    /// Its class name; routes match on it and on its superclasses.
    public let typeName: String
    public let view: View
    /// modalPresentationStyle: how it is presented when the presentation names no style.
    public var modalPresentationStyle: ModalPresentationStyle = .fullScreen
    /// definesPresentationContext: whether a current-context presentation from it or a
    /// descendant covers this controller (rather than the window).
    public var definesPresentationContext = false
    public internal(set) weak var parent: ViewController?
    /// The coordinator when this controller is a navigation controller (set by the coordinator).
    public internal(set) var navigationCoordinator: NavigationCoordinator?
    /// The coordinator when this controller is a tab bar controller (set by the coordinator).
    public internal(set) var tabCoordinator: TabCoordinator?
    public internal(set) weak var presentedViewController: ViewController?
    public internal(set) weak var presentingViewController: ViewController?
    /// While it is presented: the style it was presented with.
    public internal(set) var presentedStyle: ModalPresentationStyle?
    private var embedded: [ViewController] = []

    public init(id: String, typeName: String, view: View) {
        self.id = id; self.typeName = typeName; self.view = view
        if view.name.isEmpty { view.name = typeName }
    }

    /// children: the navigation stack, the tabs, or the embedded child controllers.
    public var children: [ViewController] {
        navigationCoordinator?.stack ?? tabCoordinator?.viewControllers ?? embedded
    }

    /// The children whose views are shown inside this controller's view: a navigation
    /// controller's top, a tab bar controller's selected tab, every embedded child.
    public var shownChildren: [ViewController] {
        if let nav = navigationCoordinator { return [nav.topViewController] }
        if let tabs = tabCoordinator { return [tabs.selectedViewController] }
        return embedded
    }

    /// addChild(_:) + view.addSubview + didMove(toParent:): embeds `child` (its view keeps the
    /// frame it has). A child that already has a parent is refused: returns false.
    @discardableResult
    public func addChild(_ child: ViewController) -> Bool {
        guard child.parent == nil, child !== self, !child.isAncestor(of: self) else { return false }
        embedded.append(child)
        child.parent = self
        view.addSubview(child.view)
        return true
    }

    /// Whether `vc` is this controller or below it in the tree.
    public func isAncestor(of vc: ViewController) -> Bool {
        var n: ViewController? = vc
        while let c = n { if c === self { return true }; n = c.parent }
        return false
    }

    /// The nearest ancestor (itself excluded) that is a navigation controller.
    public var navigationController: ViewController? {
        var n = parent
        while let c = n { if c.navigationCoordinator != nil { return c }; n = c.parent }
        return nil
    }

    /// The top of its tree (the controller without a parent above it).
    public var treeRoot: ViewController {
        var c = self
        while let p = c.parent { c = p }
        return c
    }

    /// The controller at the end of the shown path: descending through navigation tops,
    /// selected tabs and the last embedded child.
    public var visibleLeaf: ViewController {
        var c = self
        while let next = c.shownChildren.last { c = next }
        return c
    }

    /// This controller and its shown descendants, parents first: who receives a forwarded
    /// appearance callback.
    public var shownSubtree: [ViewController] {
        [self] + shownChildren.flatMap(\.shownSubtree)
    }
}

/// viewWillAppear / viewDidAppear / viewWillDisappear / viewDidDisappear.
public enum AppearanceKind: String, Sendable { case willAppear, didAppear, willDisappear, didDisappear }

/// One appearance callback delivered to a controller, at a virtual time.
public struct AppearanceEvent: Equatable, Sendable {
    public let controller: String
    public let type: String
    public let kind: AppearanceKind
    public let animated: Bool
    public let time: Double
    public init(controller: String, type: String, kind: AppearanceKind, animated: Bool, time: Double) {
        self.controller = controller; self.type = type; self.kind = kind; self.animated = animated; self.time = time
    }
}
