import TransHostCore

/// UINavigationController: a stack of controllers shown one at a time in `view`.
///
/// Invariant: the stack is never empty, has no controller twice, and only changes when a
/// transition completes (never on cancel). See `checkInvariants()`.
///
/// Every action goes through `TransitionHost.perform`: it runs now, or is queued behind the
/// running transition and then evaluated against the stack as it is when it runs.
/// The routing request's operation is .push or .pop; for popTo/popToRoot it is .pop from the top
/// to the target, for setViewControllers it is .push when the new top was not in the old stack,
/// else .pop (no transition at all when the top does not change).
///
/// In a controller tree the coordinator belongs to a navigation controller (`owner`): the
/// stack's controllers are its children (`parent`). A navigation controller whose view is not in
/// the window (covered by a full-screen presentation, an unselected tab) changes its stack at
/// once, without a transition and without appearance callbacks, as UIKit does off screen: its
/// new top appears when the navigation controller does.
///
/// Interactive back navigation: `pop(animated:interaction:)` (or `beginInteractivePop`) drives
/// the routed animator, custom or default, with the given interaction controller; routing a
/// custom animator never disables it (unlike UIKit's edge-pan recognizer).
public final class NavigationCoordinator {
    public let view: View
    public let host: TransitionHost
    public private(set) var stack: [ViewController] {
        didSet { adopt(old: oldValue) }
    }
    /// The navigation controller this coordinator works for (nil outside a controller tree).
    public private(set) weak var owner: ViewController?

    public convenience init(root: ViewController, view: View, host: TransitionHost, owner: ViewController? = nil) {
        self.init(stack: [root], view: view, host: host, owner: owner)
    }

    /// A navigation controller starting with `stack` (non-empty, no controller twice), the top
    /// shown, without transitions.
    public init(stack: [ViewController], view: View, host: TransitionHost, owner: ViewController? = nil) {
        precondition(!stack.isEmpty, "a navigation coordinator needs a root controller")
        self.view = view
        self.host = host
        self.stack = stack
        self.owner = owner
        owner?.navigationCoordinator = self
        adopt(old: [])
        let top = stack[stack.count - 1]
        top.view.frame = view.bounds
        view.addSubview(top.view)
    }

    private func adopt(old: [ViewController]) {
        for vc in old where vc.parent === owner && !stack.contains(where: { $0 === vc }) { vc.parent = nil }
        if let owner { for vc in stack { vc.parent = owner } }
    }

    public var topViewController: ViewController { stack[stack.count - 1] }
    public var rootViewController: ViewController { stack[0] }

    /// pushViewController(_:animated:). Pushing a controller that is already on the stack is
    /// refused with a warning; pushing one that is presented or a tab is an error naming it
    /// (UIKit raises an exception for both).
    public func push(_ vc: ViewController, animated: Bool = true, interaction: InteractionController? = nil) {
        host.perform { [self] in
            guard !stack.contains(where: { $0 === vc }) else {
                host.warn("push of \(vc.typeName) (\(vc.id)) refused: it is already on the navigation stack")
                return
            }
            if host.refuseIfPlacedElsewhere(vc, by: .navigation, action: "push") || refuseIfAncestor(vc, action: "push") { return }
            transition(.push, to: vc, animated: animated, interaction: interaction) { [self] in stack.append(vc) }
        }
    }

    /// popViewController(animated:). Popping the root is refused with a warning.
    public func pop(animated: Bool = true, interaction: InteractionController? = nil) {
        host.perform { [self] in
            guard stack.count > 1 else { host.warn("pop refused: the navigation stack holds only its root"); return }
            let to = stack[stack.count - 2]
            transition(.pop, to: to, animated: animated, interaction: interaction) { [self] in stack.removeLast() }
        }
    }

    /// The interactive edge-pan back gesture: an animated pop driven by `interaction`.
    public func beginInteractivePop(_ interaction: InteractionController) { pop(animated: true, interaction: interaction) }

    /// popToRootViewController(animated:). With only the root on the stack it does nothing.
    public func popToRoot(animated: Bool = true, interaction: InteractionController? = nil) {
        host.perform { [self] in popToNow(stack[0], animated: animated, interaction: interaction) }
    }

    /// popToViewController(_:animated:): one .pop transition from the top to `vc`; the controllers
    /// above `vc` leave the stack when it completes. `vc` not on the stack is refused with a
    /// warning; `vc` already on top does nothing.
    public func popTo(_ vc: ViewController, animated: Bool = true, interaction: InteractionController? = nil) {
        host.perform { [self] in popToNow(vc, animated: animated, interaction: interaction) }
    }

    private func popToNow(_ vc: ViewController, animated: Bool, interaction: InteractionController?) {
        guard let i = stack.firstIndex(where: { $0 === vc }) else {
            host.warn("popTo \(vc.typeName) (\(vc.id)) refused: it is not on the navigation stack")
            return
        }
        guard i < stack.count - 1 else { return }
        transition(.pop, to: vc, animated: animated, interaction: interaction) { [self] in stack.removeSubrange((i + 1)...) }
    }

    /// setViewControllers(_:animated:). The new stack must be non-empty and hold no controller
    /// twice (else the call is refused with a warning). When the top changes, one transition runs
    /// from the old top to the new top: .push if the new top was not in the old stack, else .pop;
    /// the whole stack is replaced when it completes and kept on cancel. When the top is the same,
    /// the stack is replaced at once without a transition.
    public func setViewControllers(_ controllers: [ViewController], animated: Bool = true, interaction: InteractionController? = nil) {
        host.perform { [self] in
            guard let newTop = controllers.last else { host.warn("setViewControllers refused: the new stack is empty"); return }
            for (i, vc) in controllers.enumerated() where controllers[(i + 1)...].contains(where: { $0 === vc }) {
                host.warn("setViewControllers refused: \(vc.typeName) (\(vc.id)) is in the new stack twice")
                return
            }
            for vc in controllers where !stack.contains(where: { $0 === vc }) {
                if host.refuseIfPlacedElsewhere(vc, by: .navigation, action: "setViewControllers") || refuseIfAncestor(vc, action: "setViewControllers") {
                    return
                }
            }
            if newTop === topViewController { stack = controllers; return }
            let op: TransitionOperation = stack.contains(where: { $0 === newTop }) ? .pop : .push
            transition(op, to: newTop, animated: animated, interaction: interaction) { [self] in stack = controllers }
        }
    }

    /// A controller that contains this navigation controller cannot go on its stack.
    private func refuseIfAncestor(_ vc: ViewController, action: String) -> Bool {
        guard let owner, vc.isAncestor(of: owner) else { return false }
        host.fail("\(action) of \(vc.typeName) (\(vc.id)) refused: it contains the navigation controller \(owner.typeName) (\(owner.id)) it would be pushed onto (UIKit raises an exception)")
        return true
    }

    private func transition(_ op: TransitionOperation, to: ViewController, animated: Bool, interaction: InteractionController?,
                            onComplete: @escaping () -> Void) {
        let from = topViewController
        let full = view.bounds
        guard host.isOnScreen(view) else {
            from.view.removeFromSuperview()
            to.view.frame = full
            view.addSubview(to.view)
            onComplete()
            return
        }
        host.begin(container: .navigation, operation: op, from: from, to: to, containerView: view, animated: animated,
                   initialFrames: [ObjectIdentifier(from): full], finalFrames: [ObjectIdentifier(to): full],
                   interaction: interaction,
                   defaultAnimator: DefaultNavigationAnimator(operation: op), finish: { done in if done { onComplete() } })
    }

    /// Returns a sentence naming what is wrong with the stack, or nil.
    public func checkInvariants() -> String? {
        if stack.isEmpty { return "the navigation stack is empty" }
        for (i, vc) in stack.enumerated() where stack[(i + 1)...].contains(where: { $0 === vc }) {
            return "\(vc.typeName) (\(vc.id)) is on the navigation stack twice"
        }
        if topViewController.view.superview !== view && host.active == nil {
            return "the top controller \(topViewController.typeName) (\(topViewController.id)) is not shown in the navigation view"
        }
        return nil
    }
}
