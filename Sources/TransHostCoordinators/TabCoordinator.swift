import TransHostCore

/// UITabBarController: a fixed list of controllers, one selected and shown in `view`.
///
/// Selecting goes through `TransitionHost.perform` (queued behind a running transition, then
/// evaluated against the selection at that time). Routing gets operation .select, container .tab,
/// from = the selected controller, to = the new one. With no routed animator the host's default
/// is an immediate switch (`DefaultTabAnimator`: duration 0, no animation), as UIKit does when the
/// tab bar controller's delegate returns nil. Selecting the selected tab does nothing (no
/// transition, no appearance events). The selection only changes when a transition completes.
/// In a controller tree it belongs to a tab bar controller (`owner`), the tabs' parent; off
/// screen (its view not in the window) a selection changes at once without a transition or
/// appearance callbacks.
public final class TabCoordinator {
    public let view: View
    public let host: TransitionHost
    public let viewControllers: [ViewController]
    public private(set) var selectedIndex: Int
    /// The tab bar controller this coordinator works for (nil outside a controller tree).
    public private(set) weak var owner: ViewController?

    /// `controllers` must be non-empty; `selectedIndex` is clamped into range.
    public init(controllers: [ViewController], selectedIndex: Int = 0, view: View, host: TransitionHost, owner: ViewController? = nil) {
        precondition(!controllers.isEmpty, "a tab coordinator needs at least one controller")
        self.view = view
        self.host = host
        self.viewControllers = controllers
        self.owner = owner
        self.selectedIndex = min(max(selectedIndex, 0), controllers.count - 1)
        owner?.tabCoordinator = self
        if let owner { for vc in controllers { vc.parent = owner } }
        let selected = controllers[self.selectedIndex]
        selected.view.frame = view.bounds
        view.addSubview(selected.view)
    }

    public var selectedViewController: ViewController { viewControllers[selectedIndex] }

    /// Selects the tab at `index`; an index out of range is refused with a warning.
    public func select(_ index: Int, animated: Bool = true, interaction: InteractionController? = nil) {
        host.perform { [self] in
            guard viewControllers.indices.contains(index) else {
                host.warn("select(\(index)) refused: the tab bar has \(viewControllers.count) tabs")
                return
            }
            selectNow(index, animated: animated, interaction: interaction)
        }
    }

    /// Selects the tab showing `vc`; a controller that is not one of the tabs is refused with a warning.
    public func select(_ vc: ViewController, animated: Bool = true, interaction: InteractionController? = nil) {
        host.perform { [self] in
            guard let index = viewControllers.firstIndex(where: { $0 === vc }) else {
                host.warn("select \(vc.typeName) (\(vc.id)) refused: it is not one of the tabs")
                return
            }
            selectNow(index, animated: animated, interaction: interaction)
        }
    }

    private func selectNow(_ index: Int, animated: Bool, interaction: InteractionController?) {
        guard index != selectedIndex else { return }
        let from = selectedViewController, to = viewControllers[index]
        let full = view.bounds
        guard host.isOnScreen(view) else {
            from.view.removeFromSuperview()
            to.view.frame = full
            view.addSubview(to.view)
            selectedIndex = index
            return
        }
        host.begin(container: .tab, operation: .select, from: from, to: to, containerView: view, animated: animated,
                   initialFrames: [ObjectIdentifier(from): full], finalFrames: [ObjectIdentifier(to): full],
                   interaction: interaction, defaultAnimator: DefaultTabAnimator(),
                   finish: { [self] done in if done { selectedIndex = index } })
    }

    /// Returns a sentence naming what is wrong, or nil.
    public func checkInvariants() -> String? {
        if !viewControllers.indices.contains(selectedIndex) { return "the selected index \(selectedIndex) is out of range" }
        for (i, vc) in viewControllers.enumerated() where viewControllers[(i + 1)...].contains(where: { $0 === vc }) {
            return "\(vc.typeName) (\(vc.id)) is a tab twice"
        }
        if host.active == nil {
            for (i, vc) in viewControllers.enumerated() {
                let shown = vc.view.superview === view
                if i == selectedIndex && !shown { return "the selected tab \(vc.typeName) (\(vc.id)) is not shown" }
                if i != selectedIndex && shown { return "the unselected tab \(vc.typeName) (\(vc.id)) is still shown" }
            }
        }
        return nil
    }
}

/// The host's tab switch when no route matches: immediate (duration 0, no animation). The to-view
/// is added at its final frame and the transition completes inside animateTransition.
public final class DefaultTabAnimator: TransitionAnimator {
    public init() {}
    public var identity: AnimatorIdentity? { nil }
    public func transitionDuration(_ context: TransitionContext) -> Double { 0 }
    public func animateTransition(_ ctx: TransitionContext) {
        guard let to = ctx.view(forKey: .to) else { ctx.completeTransition(!ctx.transitionWasCancelled); return }
        to.frame = ctx.finalFrame(for: ctx.toViewController)
        ctx.containerView.addSubview(to)
        ctx.completeTransition(!ctx.transitionWasCancelled)
    }
}
