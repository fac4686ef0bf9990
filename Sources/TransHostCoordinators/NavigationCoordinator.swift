import TransHostCore

/// UINavigationController: a stack of controllers shown one at a time in `view`.
///
/// Invariant: the stack is never empty, has no controller twice, and only changes when a
/// transition completes (never on cancel). See `checkInvariants()`.
public final class NavigationCoordinator {
    public let view: View
    public let host: TransitionHost
    public private(set) var stack: [ViewController]

    public init(root: ViewController, view: View, host: TransitionHost) {
        self.view = view
        self.host = host
        self.stack = [root]
        root.view.frame = view.bounds
        view.addSubview(root.view)
    }

    public var topViewController: ViewController { stack[stack.count - 1] }

    /// pushViewController(_:animated:). Pushing a controller that is already on the stack is
    /// refused with a warning (UIKit raises an exception).
    public func push(_ vc: ViewController, animated: Bool = true) {
        host.perform { [self] in
            guard !stack.contains(where: { $0 === vc }) else {
                host.warn("push of \(vc.typeName) (\(vc.id)) refused: it is already on the navigation stack")
                return
            }
            transition(.push, to: vc, animated: animated) { [self] done in if done { stack.append(vc) } }
        }
    }

    /// popViewController(animated:). Popping the root is refused with a warning.
    public func pop(animated: Bool = true) {
        host.perform { [self] in
            guard stack.count > 1 else { host.warn("pop refused: the navigation stack holds only its root"); return }
            let to = stack[stack.count - 2]
            transition(.pop, to: to, animated: animated) { [self] done in if done { stack.removeLast() } }
        }
    }

    private func transition(_ op: TransitionOperation, to: ViewController, animated: Bool, finish: @escaping (Bool) -> Void) {
        let from = topViewController
        let full = view.bounds
        host.begin(container: .navigation, operation: op, from: from, to: to, containerView: view, animated: animated,
                   initialFrames: [ObjectIdentifier(from): full], finalFrames: [ObjectIdentifier(to): full],
                   defaultAnimator: DefaultNavigationAnimator(operation: op), finish: finish)
    }

    /// Returns a sentence naming what is wrong with the stack, or nil.
    public func checkInvariants() -> String? {
        if stack.isEmpty { return "the navigation stack is empty" }
        for (i, vc) in stack.enumerated() where stack[(i + 1)...].contains(where: { $0 === vc }) {
            return "\(vc.typeName) (\(vc.id)) is on the navigation stack twice"
        }
        return nil
    }
}
