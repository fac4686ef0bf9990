import TransHostCore

/// Modal presentation (presentViewController / dismissViewController) with UIKit's full-screen
/// style, over a root controller shown in `view` (the window's transition container).
///
/// - `presented` is the stack of presented controllers: presenting over a presented controller
///   pushes onto it (the presenting controller is the current top), dismiss dismisses the top.
/// - Routing gets container .modal and operation .present (from: the presenting controller,
///   to: the presented one) or .dismiss (from: the presented, to: the one below it); the
///   animator learns which through `context.operation` (`isPresenting`).
/// - Full screen: after a completed present the presenting view is removed from the container;
///   during a dismiss the animator puts the presenting view back (the default inserts it below
///   the presented view; if an animator forgets, the host reports `to-view-missing` and adds it),
///   and after the dismiss the presented view is gone.
/// - `presented` only changes when a transition completes. Actions go through
///   `TransitionHost.perform` (queued behind a running navigation or tab transition).
/// - A present or dismiss that arrives while a presentation or dismissal runs is refused with a
///   warning, as UIKit refuses it ("while a presentation is in progress").
/// - Presenting a controller that is the root or already presented is refused with a warning;
///   presenting one that is on a navigation stack or a tab is an error naming it (UIKit raises).
///   Dismiss with nothing presented is refused with a warning.
public final class ModalCoordinator {
    public let view: View
    public let host: TransitionHost
    public let root: ViewController
    public private(set) var presented: [ViewController] = []

    public init(root: ViewController, view: View, host: TransitionHost) {
        self.view = view
        self.host = host
        self.root = root
        if root.view.superview !== view {
            root.view.frame = view.bounds
            view.addSubview(root.view)
        }
    }

    /// The controller on screen: the last presented one, or the root.
    public var topViewController: ViewController { presented.last ?? root }

    public func present(_ vc: ViewController, animated: Bool = true, interaction: InteractionController? = nil) {
        guard !host.isModalTransitionInFlight else {
            host.warn("present of \(vc.typeName) (\(vc.id)) refused: a presentation or dismissal is in progress (UIKit refuses it too)")
            return
        }
        host.perform { [self] in
            guard vc !== root, !presented.contains(where: { $0 === vc }) else {
                host.warn("present of \(vc.typeName) (\(vc.id)) refused: it is already presented or is the root")
                return
            }
            if host.refuseIfPlacedElsewhere(vc, by: .modal, action: "present") { return }
            transition(.present, from: topViewController, to: vc, animated: animated, interaction: interaction) { [self] in
                presented.append(vc)
            }
        }
    }

    /// Dismisses the top presented controller.
    public func dismiss(animated: Bool = true, interaction: InteractionController? = nil) {
        guard !host.isModalTransitionInFlight else {
            host.warn("dismiss refused: a presentation or dismissal is in progress (UIKit refuses it too)")
            return
        }
        host.perform { [self] in
            guard let top = presented.last else { host.warn("dismiss refused: nothing is presented"); return }
            let below = presented.count >= 2 ? presented[presented.count - 2] : root
            transition(.dismiss, from: top, to: below, animated: animated, interaction: interaction) { [self] in
                presented.removeLast()
            }
        }
    }

    private func transition(_ op: TransitionOperation, from: ViewController, to: ViewController, animated: Bool,
                            interaction: InteractionController?, onComplete: @escaping () -> Void) {
        let full = view.bounds
        host.begin(container: .modal, operation: op, from: from, to: to, containerView: view, animated: animated,
                   initialFrames: [ObjectIdentifier(from): full], finalFrames: [ObjectIdentifier(to): full],
                   interaction: interaction, defaultAnimator: DefaultModalAnimator(operation: op),
                   finish: { done in if done { onComplete() } })
    }

    /// Returns a sentence naming what is wrong, or nil.
    public func checkInvariants() -> String? {
        let all = [root] + presented
        for (i, vc) in all.enumerated() where all[(i + 1)...].contains(where: { $0 === vc }) {
            return "\(vc.typeName) (\(vc.id)) is presented twice"
        }
        if host.active == nil {
            for vc in all where vc !== topViewController && vc.view.superview === view {
                return "\(vc.typeName) (\(vc.id)) is covered by a full-screen presentation but still in the container"
            }
            if topViewController.view.superview !== view {
                return "the top controller \(topViewController.typeName) (\(topViewController.id)) is not in the container"
            }
        }
        return nil
    }
}

extension TransitionContext {
    /// For modal transitions: whether this is a presentation (false for a dismissal).
    public var isPresenting: Bool { operation == .present }
}

/// The host's present/dismiss when no route matches: UIKit's cover vertical.
///
/// Timing: 0.3 s, ease-in-out. Present: the to-view is added above the from-view at its final
/// frame moved down by the container's height and slides up to the final frame; the from-view
/// does not move. Dismiss: the to-view (the presenting view) is inserted below the from-view at
/// its final frame, and the from-view slides down by the container's height; the completion puts
/// the from-view's frame back so that it can be presented again.
public final class DefaultModalAnimator: TransitionAnimator {
    public static let duration = 0.3
    let operation: TransitionOperation

    public init(operation: TransitionOperation) { self.operation = operation }

    public var identity: AnimatorIdentity? { nil }

    public func transitionDuration(_ context: TransitionContext) -> Double { Self.duration }

    public func animateTransition(_ ctx: TransitionContext) {
        let container = ctx.containerView
        let fromView = ctx.view(forKey: .from), toView = ctx.view(forKey: .to)
        let final = ctx.finalFrame(for: ctx.toViewController)
        let h = container.bounds.height
        let engine = container.engine
        let fromStart = fromView.frame
        if operation == .dismiss {
            container.insertSubview(toView, belowSubview: fromView)
            toView.frame = final
            var fromEnd = fromStart
            fromEnd.origin.y += h
            engine.animate(AnimationParameters(duration: Self.duration), animations: {
                fromView.frame = fromEnd
            }, completion: { _ in
                fromView.frame = fromStart
                ctx.completeTransition(!ctx.transitionWasCancelled)
            })
        } else {
            container.addSubview(toView)
            var start = final
            start.origin.y += h
            toView.frame = start
            engine.animate(AnimationParameters(duration: Self.duration), animations: {
                toView.frame = final
            }, completion: { _ in
                ctx.completeTransition(!ctx.transitionWasCancelled)
            })
        }
    }
}
