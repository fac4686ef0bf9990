import TransHostCore

/// Modal presentation (present(_:animated:) / dismiss(animated:)) for one window: the chain of
/// presentations over the root controller, each laid out by a `PresentationController`.
///
/// - Who presents: the action names a source (default: the visible leaf of the top of the
///   chain). For `fullScreen`, `overFullScreen` and `custom` the presenting controller is the
///   top of the source's tree (UIKit's nearest full-screen ancestor), and the presentation
///   happens in the window. For `currentContext` / `overCurrentContext` it is the nearest
///   controller at or above the source whose `definesPresentationContext` is true (else the top
///   of its tree), and the container view is that controller's view.
/// - A presenting controller presents one controller at a time: presenting from one that
///   already presents is refused with a warning, as UIKit refuses it ("already presenting").
/// - Routing gets container .modal and operation .present (from: the presenting controller, to:
///   the presented one, source: the source) or .dismiss (from: the top presented, to: the
///   controller that becomes visible); `context.operation` tells the animator which.
/// - The presenter's view: `shouldRemovePresentersView` (true for full screen and current
///   context) takes it out once the presentation completes, and the dismissal's animator puts it
///   back (view(forKey: .to)). Otherwise it stays, and view(forKey: .from) on present and
///   view(forKey: .to) on dismiss are nil, as in UIKit; the presenter then gets no appearance
///   callbacks. For the current-context styles the presenter's view is the container itself, so
///   those views are nil too; `currentContext` takes the context's other subviews out while it
///   is covered and puts them back when the dismissal begins.
/// - Dismissing from a controller lower in the chain dismisses everything above it; only the top
///   presentation animates, from the top presented controller to that controller; the ones in
///   between leave at once when the dismissal begins (and come back if it is cancelled).
/// - The chain only changes when a transition completes. A present or dismiss that arrives while
///   a presentation or dismissal runs is refused with a warning, as UIKit refuses it ("while a
///   presentation is in progress"); other actions are queued by `TransitionHost.perform`.
/// - Presenting a controller that is the root or already presented is refused with a warning;
///   presenting one that is in another container is an error naming it (UIKit raises).
///   Dismiss with nothing presented is refused with a warning.
public final class ModalCoordinator {
    /// The window: the container of the full-screen styles.
    public let view: View
    public let host: TransitionHost
    public let root: ViewController
    /// Vends each presentation's controller; nil, or a nil answer, gives `PresentationController`.
    public weak var presentationControllerProvider: PresentationControllerProvider?

    /// One completed presentation of the chain.
    public final class Presentation {
        public let controller: PresentationController
        public let containerView: View
        public var presented: ViewController { controller.presentedViewController }
        public var presenting: ViewController { controller.presentingViewController }
        /// The view shown for the presented controller.
        public var presentedView: View { controller.presentedView ?? presented.view }
        /// Whether the presenter's view left the screen (it then reappears on dismissal).
        public let removesPresenter: Bool
        /// currentContext: the context's subviews taken out while it is covered (with their index).
        var covered: [(view: View, index: Int)] = []
        init(controller: PresentationController, containerView: View, removesPresenter: Bool) {
            self.controller = controller; self.containerView = containerView; self.removesPresenter = removesPresenter
        }

        func cover() {
            let shown = presentedView
            covered = containerView.subviews.enumerated().filter { $0.element !== shown }.map { ($0.element, $0.offset) }
            for c in covered { c.view.removeFromSuperview() }
        }

        func uncover() {
            for c in covered { containerView.insertSubview(c.view, at: min(c.index, containerView.subviews.count)) }
            covered = []
        }
    }

    /// The chain, bottom first.
    public private(set) var presentations: [Presentation] = []
    /// The presentation controller of every present that began as a transition, in order
    /// (cancelled ones too): for callers that check a finished run (the validator).
    public private(set) var presentationHistory: [PresentationController] = []

    public init(root: ViewController, view: View, host: TransitionHost) {
        self.view = view
        self.host = host
        self.root = root
        // The modal coordinator's view is the window: what is not in it is off screen.
        if host.window == nil { host.window = view }
        if root.view.superview !== view {
            root.view.frame = view.bounds
            view.addSubview(root.view)
        }
    }

    /// The presented controllers, bottom first.
    public var presented: [ViewController] { presentations.map(\.presented) }

    /// The controller on screen: the last presented one, or the root.
    public var topViewController: ViewController { presented.last ?? root }

    /// The top of the visible context: the last presented controller that is on screen (a
    /// current-context presentation in an unselected tab is not), or the root.
    public var visibleTop: ViewController { presented.last { host.isOnScreen($0.view) } ?? root }

    /// present(_:animated:). `source` is the controller it is asked of (default: the visible leaf
    /// of `visibleTop`); `style` overrides the presented controller's
    /// `modalPresentationStyle`.
    public func present(_ vc: ViewController, from source: ViewController? = nil, style: ModalPresentationStyle? = nil,
                        animated: Bool = true, interaction: InteractionController? = nil) {
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
            let source = source ?? visibleTop.visibleLeaf
            let style = style ?? vc.modalPresentationStyle
            var presenting = source.treeRoot
            if style.isContextBased {
                var n: ViewController? = source
                while let c = n, !c.definesPresentationContext { n = c.parent }
                presenting = n ?? presenting
            }
            if let already = presenting.presentedViewController {
                host.warn("present of \(vc.typeName) (\(vc.id)) refused: \(presenting.typeName) (\(presenting.id)) is already presenting \(already.typeName) (\(already.id)) (UIKit refuses it too)")
                return
            }
            guard host.isOnScreen(source.view) else {
                host.warn("present of \(vc.typeName) (\(vc.id)) refused: \(source.typeName) (\(source.id)) is not in the window (UIKit refuses it too)")
                return
            }
            let pc = presentationControllerProvider?.presentationController(forPresented: vc, presenting: presenting, source: source, style: style)
                ?? PresentationController(presentedViewController: vc, presenting: presenting, source: source, style: style)
            let container = style.isContextBased ? presenting.view : view
            pc.containerView = container
            let removes = pc.shouldRemovePresentersView
            let presenterIsContainer = presenting.view === container
            let views = TransitionViews(from: removes && !presenterIsContainer ? presenting.view : nil,
                                        to: pc.presentedView ?? vc.view, fromAppears: removes)
            let finalFrame = pc.frameOfPresentedViewInContainerView
            pc.finalFrameOfPresentedView = finalFrame
            presentationHistory.append(pc)
            host.begin(container: .modal, operation: .present, from: presenting, to: vc, containerView: container, animated: animated,
                       initialFrames: [ObjectIdentifier(presenting): container.bounds],
                       finalFrames: [ObjectIdentifier(vc): finalFrame],
                       interaction: interaction, views: views, source: source, presentationController: pc,
                       willAnimate: { pc.recordingChrome(in: container) { pc.presentationTransitionWillBegin(); pc.containerViewWillLayoutSubviews() } },
                       defaultAnimator: DefaultModalAnimator(operation: .present),
                       finish: { [self] done in
                if done {
                    let p = Presentation(controller: pc, containerView: container, removesPresenter: removes)
                    presentations.append(p)
                    presenting.presentedViewController = vc
                    vc.presentingViewController = presenting
                    vc.presentedStyle = style
                    if removes && presenterIsContainer { p.cover() }
                }
                pc.recordingChrome(in: container) { pc.presentationTransitionDidEnd(done) }
            })
        }
    }

    /// dismiss(animated:) sent to `target` (default: the top presented controller): dismisses
    /// what `target` (or its nearest ancestor that presents) presented and everything above it;
    /// a presented controller that presents nothing dismisses itself.
    public func dismiss(_ target: ViewController? = nil, animated: Bool = true, interaction: InteractionController? = nil) {
        guard !host.isModalTransitionInFlight else {
            host.warn("dismiss refused: a presentation or dismissal is in progress (UIKit refuses it too)")
            return
        }
        host.perform { [self] in
            guard let top = presentations.last else { host.warn("dismiss refused: nothing is presented"); return }
            var index = presentations.count - 1
            if let target {
                guard let i = dismissalIndex(for: target) else {
                    host.warn("dismiss of \(target.typeName) (\(target.id)) refused: it neither presents nor is presented")
                    return
                }
                index = i
            }
            let base = presentations[index]
            let to = base.presenting
            // The middle of the chain leaves at once; only the top animates (UIKit's rule).
            let middle = Array(presentations[index..<(presentations.count - 1)])
            var taken: [(view: View, parent: View, index: Int)] = []
            var disappearing: [ViewController] = []
            for p in middle.reversed() {
                let v = p.presentedView
                guard let parent = v.superview else { continue }
                if host.isOnScreen(v) { disappearing.append(p.presented) }
                taken.append((v, parent, parent.subviews.firstIndex { $0 === v } ?? 0))
                v.removeFromSuperview()
            }
            base.uncover()
            let container = top.containerView
            let views = TransitionViews(from: top.presentedView, to: host.isOnScreen(to.view) ? nil : to.view,
                                        toAppears: base.removesPresenter, alsoDisappearing: disappearing.reversed())
            let pc = top.controller
            host.begin(container: .modal, operation: .dismiss, from: top.presented, to: to, containerView: container, animated: animated,
                       initialFrames: [ObjectIdentifier(top.presented): pc.frameOfPresentedViewInContainerView],
                       finalFrames: [ObjectIdentifier(to): container.bounds],
                       interaction: interaction, views: views, presentationController: pc,
                       willAnimate: { pc.dismissalTransitionWillBegin(); pc.containerViewWillLayoutSubviews() },
                       defaultAnimator: DefaultModalAnimator(operation: .dismiss),
                       finish: { [self] done in
                if done {
                    for p in presentations[index...] {
                        p.presenting.presentedViewController = nil
                        p.presented.presentingViewController = nil
                        p.presented.presentedStyle = nil
                    }
                    presentations.removeSubrange(index...)
                } else {
                    for t in taken.reversed() { t.parent.insertSubview(t.view, at: min(t.index, t.parent.subviews.count)) }
                    if base.removesPresenter && base.presenting.view === base.containerView { base.cover() }
                }
                pc.dismissalTransitionDidEnd(done)
            })
        }
    }

    /// The first presentation a dismiss sent to `target` removes: walking up from `target`, the
    /// first controller that presents (its presentation) or is presented (its own).
    private func dismissalIndex(for target: ViewController) -> Int? {
        var n: ViewController? = target
        while let c = n {
            if let i = presentations.firstIndex(where: { $0.presenting === c }) { return i }
            if let i = presentations.firstIndex(where: { $0.presented === c }) { return i }
            n = c.parent
        }
        return nil
    }

    /// Returns a sentence naming what is wrong, or nil.
    public func checkInvariants() -> String? {
        let all = [root] + presented
        for (i, vc) in all.enumerated() where all[(i + 1)...].contains(where: { $0 === vc }) {
            return "\(vc.typeName) (\(vc.id)) is presented twice"
        }
        if host.active == nil {
            for p in presentations where p.removesPresenter && p.presenting.view !== p.containerView && p.presenting.view.superview != nil {
                return "\(p.presenting.typeName) (\(p.presenting.id)) is covered by a full-screen presentation but still in the container"
            }
            let top = presentations.last?.presentedView ?? root.view
            if !top.isDescendant(of: presentations.last?.containerView ?? view) {
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
        let final = ctx.finalFrame(for: ctx.toViewController)
        let h = container.bounds.height
        let engine = container.engine
        if operation == .dismiss {
            guard let fromView = ctx.view(forKey: .from) else { ctx.completeTransition(!ctx.transitionWasCancelled); return }
            // No to-view when the presenter's view stayed on screen (the over and custom styles).
            if let toView = ctx.view(forKey: .to) {
                container.insertSubview(toView, belowSubview: fromView)
                toView.frame = final
            }
            let fromStart = fromView.frame
            var fromEnd = fromStart
            fromEnd.origin.y += h
            engine.animate(AnimationParameters(duration: Self.duration), animations: {
                fromView.frame = fromEnd
            }, completion: { _ in
                fromView.frame = fromStart
                ctx.completeTransition(!ctx.transitionWasCancelled)
            })
        } else {
            guard let toView = ctx.view(forKey: .to) else { ctx.completeTransition(!ctx.transitionWasCancelled); return }
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

extension PresentationController {
    /// Runs `hooks` and adds the container's new subviews (other than the presented view) to
    /// the chrome.
    func recordingChrome(in container: View, _ hooks: () -> Void) {
        let before = Set(container.subviews.map(ObjectIdentifier.init))
        hooks()
        let shown = presentedView ?? presentedViewController.view
        chromeViews += container.subviews.filter { !before.contains(ObjectIdentifier($0)) && $0 !== shown }
    }
}
