import CTransHost

/// UITransitionContextViewControllerKey.
public struct UITransitionContextViewControllerKey: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let from = UITransitionContextViewControllerKey(rawValue: "UITransitionContextFromViewControllerKey")
    public static let to = UITransitionContextViewControllerKey(rawValue: "UITransitionContextToViewControllerKey")
}

/// UITransitionContextViewKey.
public struct UITransitionContextViewKey: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let from = UITransitionContextViewKey(rawValue: "UITransitionContextFromViewKey")
    public static let to = UITransitionContextViewKey(rawValue: "UITransitionContextToViewKey")
}

/// UIViewControllerContextTransitioning.
public protocol UIViewControllerContextTransitioning: NSObjectProtocol {
    var containerView: UIView { get }
    var isAnimated: Bool { get }
    var isInteractive: Bool { get }
    var transitionWasCancelled: Bool { get }
    var presentationStyle: UIModalPresentationStyle { get }
    var targetTransform: CGAffineTransform { get }
    func viewController(forKey key: UITransitionContextViewControllerKey) -> UIViewController?
    func view(forKey key: UITransitionContextViewKey) -> UIView?
    func initialFrame(for vc: UIViewController) -> CGRect
    func finalFrame(for vc: UIViewController) -> CGRect
    func completeTransition(_ didComplete: Bool)
    func updateInteractiveTransition(_ percentComplete: CGFloat)
    func finishInteractiveTransition()
    func cancelInteractiveTransition()
    func pauseInteractiveTransition()
}

/// The kit's transition context: the host's context behind UIKit's protocol. One object per
/// host context.
public final class TransHostTransitionContext: NSObject, UIViewControllerContextTransitioning {
    public let handle: OpaquePointer
    nonisolated(unsafe) static var registry: [OpaquePointer: TransHostTransitionContext] = [:]
    /// The context of the transition that began last (the host runs one at a time).
    nonisolated(unsafe) static var current: TransHostTransitionContext?

    init(handle: OpaquePointer) { self.handle = handle; super.init() }

    static func wrap(_ h: OpaquePointer) -> TransHostTransitionContext {
        if let c = registry[h] { return c }
        let c = TransHostTransitionContext(handle: h)
        registry[h] = c
        current = c
        _ = c.coordinator
        return c
    }

    var hasEnded = false
    /// The object answering `transitionCoordinator` while the transition runs.
    lazy var coordinator: TransHostTransitionCoordinator = {
        // A coordinator a willShow already used becomes this transition's.
        if let p = TransHostTransitionCoordinator.pending {
            TransHostTransitionCoordinator.pending = nil
            p.context = self
            return p
        }
        return TransHostTransitionCoordinator(context: self)
    }()
    /// The running transition's context once the host has it: for `transitionCoordinator`.
    static func running(for vc: OpaquePointer) -> TransHostTransitionContext? {
        host.controller_transition_context(vc).map { wrap($0) }
    }
    /// The interaction controller's completion speed and curve, for finish/cancel.
    var completionSpeed: CGFloat = 1
    var completionCurve: UIView.AnimationCurve = .easeInOut
    /// The animator an interaction controller drives (UIPercentDrivenInteractiveTransition calls it).
    var interactionAnimator: UIViewControllerAnimatedTransitioning?

    public var containerView: UIView { UIView.wrap(host.context_container(handle))! }
    public var isAnimated: Bool { host.context_is_animated(handle) != 0 }
    public var isInteractive: Bool { host.context_is_interactive(handle) != 0 }
    public var transitionWasCancelled: Bool { host.context_transition_was_cancelled(handle) != 0 }
    public var presentationStyle: UIModalPresentationStyle {
        UIModalPresentationStyle(rawValue: Int(host.context_presentation_style(handle))) ?? .fullScreen
    }
    public var targetTransform: CGAffineTransform { CGAffineTransform(host.context_target_transform(handle)) }

    public func viewController(forKey key: UITransitionContextViewControllerKey) -> UIViewController? {
        UIViewController.wrap(host.context_controller(handle, key == .from ? TH_KEY_FROM : TH_KEY_TO))
    }
    /// The from- or to-view. As in UIKit, a presentation that keeps the presenting view in place
    /// (over full screen, custom) gives nil for that view.
    public func view(forKey key: UITransitionContextViewKey) -> UIView? {
        UIView.wrap(host.context_view(handle, key == .from ? TH_KEY_FROM : TH_KEY_TO))
    }
    public func initialFrame(for vc: UIViewController) -> CGRect {
        guard let h = vc.handle else { return .zero }
        return CGRect(host.context_initial_frame(handle, h))
    }
    public func finalFrame(for vc: UIViewController) -> CGRect {
        guard let h = vc.handle else { return .zero }
        return CGRect(host.context_final_frame(handle, h))
    }
    public func completeTransition(_ didComplete: Bool) { host.context_complete_transition(handle, didComplete ? 1 : 0) }

    public func updateInteractiveTransition(_ percentComplete: CGFloat) { host.context_update_interactive(handle, Double(percentComplete)) }
    public func finishInteractiveTransition() {
        host.context_finish_interactive(handle, Double(completionSpeed), completionCurve.optionBits)
    }
    public func cancelInteractiveTransition() {
        host.context_cancel_interactive(handle, Double(completionSpeed), completionCurve.optionBits)
    }
    /// pauseInteractiveTransition(): a running transition becomes interactive and holds still;
    /// the caller then drives its interruptible animator and reports with
    /// update/finish/cancelInteractiveTransition. On an interactive transition it does nothing.
    public func pauseInteractiveTransition() { host.context_pause_interactive(handle, 0) }

    /// UIPercentDrivenInteractiveTransition.pause(): as pauseInteractiveTransition, but the
    /// interaction controller's update/finish/cancel then drive the transition.
    func pauseDrivenByInteraction() { host.context_pause_interactive(handle, 1) }

    /// TH_CONTAINER_* / TH_OP_*, for code that wants to know what kind of transition it animates.
    public var operation: UINavigationController.Operation {
        switch host.context_operation(handle) {
        case TH_OP_PUSH: return .push
        case TH_OP_POP: return .pop
        default: return .none
        }
    }
    /// Whether this is a forward transition (push, present, select).
    public var isPresenting: Bool { [TH_OP_PUSH, TH_OP_PRESENT, TH_OP_SELECT].contains(host.context_operation(handle)) }
}

extension UIViewControllerContextTransitioning {
    /// Whether this is a forward transition (push, present, select) — transhost's addition.
    public var isPresenting: Bool { (self as? TransHostTransitionContext)?.isPresenting ?? true }
}

/// UIViewControllerTransitionCoordinatorContext.
public protocol UIViewControllerTransitionCoordinatorContext: NSObjectProtocol {
    var isAnimated: Bool { get }
    var isInteractive: Bool { get }
    var isCancelled: Bool { get }
    var initiallyInteractive: Bool { get }
    var percentComplete: CGFloat { get }
    var completionVelocity: CGFloat { get }
    var completionCurve: UIView.AnimationCurve { get }
    var transitionDuration: TimeInterval { get }
    var containerView: UIView { get }
    var presentationStyle: UIModalPresentationStyle { get }
    var targetTransform: CGAffineTransform { get }
    func viewController(forKey key: UITransitionContextViewControllerKey) -> UIViewController?
    func view(forKey key: UITransitionContextViewKey) -> UIView?
}

/// UIViewControllerTransitionCoordinator.
public protocol UIViewControllerTransitionCoordinator: UIViewControllerTransitionCoordinatorContext {
    @discardableResult
    func animate(alongsideTransition animation: ((UIViewControllerTransitionCoordinatorContext) -> Void)?,
                 completion: ((UIViewControllerTransitionCoordinatorContext) -> Void)?) -> Bool
    @discardableResult
    func animateAlongsideTransition(in view: UIView?, animation: ((UIViewControllerTransitionCoordinatorContext) -> Void)?,
                                    completion: ((UIViewControllerTransitionCoordinatorContext) -> Void)?) -> Bool
    func notifyWhenInteractionChanges(_ handler: @escaping (UIViewControllerTransitionCoordinatorContext) -> Void)
}

extension UIViewControllerTransitionCoordinator {
    /// UIKit imports `completion` with a nil default.
    @discardableResult
    public func animate(alongsideTransition animation: ((UIViewControllerTransitionCoordinatorContext) -> Void)?) -> Bool {
        animate(alongsideTransition: animation, completion: nil)
    }
}

/// The blocks of one animate(alongsideTransition:) call, carried through the host's `user`.
private final class AlongsideBox {
    let animation: ((UIViewControllerTransitionCoordinatorContext) -> Void)?
    let completion: ((UIViewControllerTransitionCoordinatorContext) -> Void)?
    unowned let coordinator: TransHostTransitionCoordinator
    init(_ a: ((UIViewControllerTransitionCoordinatorContext) -> Void)?, _ c: ((UIViewControllerTransitionCoordinatorContext) -> Void)?,
         _ coordinator: TransHostTransitionCoordinator) {
        animation = a; completion = c; self.coordinator = coordinator
    }
}

/// The coordinator of a running transition, over the host's (ABI 1.3): alongside animations
/// run as one block on the transition's timeline, from the animator's start over its duration
/// (scrubbed when interactive, put back after a cancel); completions run after the transition
/// ended. Views outside the container animate the same way. A navigation delegate's willShow
/// already sees it (UIKit's order): what it asks for then is handed to the host when the
/// transition's context reaches the kit; if the host's default transition runs instead, the
/// changes apply at once when the delegate hears didShow.
public final class TransHostTransitionCoordinator: NSObject, UIViewControllerTransitionCoordinator {
    weak var context: TransHostTransitionContext? { didSet { if context != nil { submitQueued() } } }
    private var queued: [AlongsideBox] = []
    private var interactionHandlers: [(UIViewControllerTransitionCoordinatorContext) -> Void] = []
    init(context: TransHostTransitionContext?) { self.context = context; super.init() }

    /// The coordinator a willShow sees before the host's context reaches the kit.
    nonisolated(unsafe) static var pending: TransHostTransitionCoordinator?

    private var handle: OpaquePointer? { context?.handle }
    public var isAnimated: Bool { context?.isAnimated ?? true }
    public var isInteractive: Bool { handle.map { host.coordinator_is_interactive($0) != 0 } ?? false }
    public var initiallyInteractive: Bool { context?.isInteractive ?? false }
    public var isCancelled: Bool { context?.transitionWasCancelled ?? false }
    public var percentComplete: CGFloat { handle.map { CGFloat(host.coordinator_percent_complete($0)) } ?? 0 }
    public var completionVelocity: CGFloat { handle.map { CGFloat(host.coordinator_completion_velocity($0)) } ?? 1 }
    public var completionCurve: UIView.AnimationCurve {
        guard let handle else { return .easeInOut }
        switch host.coordinator_completion_curve(handle) {
        case TH_ANIM_CURVE_EASE_IN: return .easeIn
        case TH_ANIM_CURVE_EASE_OUT: return .easeOut
        case TH_ANIM_CURVE_LINEAR: return .linear
        default: return .easeInOut
        }
    }
    public var transitionDuration: TimeInterval { handle.map { host.coordinator_transition_duration($0) } ?? 0 }
    public var containerView: UIView { context?.containerView ?? UIView() }
    public var presentationStyle: UIModalPresentationStyle { context?.presentationStyle ?? .fullScreen }
    public var targetTransform: CGAffineTransform { context?.targetTransform ?? .identity }
    public func viewController(forKey key: UITransitionContextViewControllerKey) -> UIViewController? { context?.viewController(forKey: key) }
    public func view(forKey key: UITransitionContextViewKey) -> UIView? { context?.view(forKey: key) }

    @discardableResult
    public func animate(alongsideTransition animation: ((UIViewControllerTransitionCoordinatorContext) -> Void)?,
                        completion: ((UIViewControllerTransitionCoordinatorContext) -> Void)?) -> Bool {
        if let context, context.hasEnded { return false }
        let box = AlongsideBox(animation, completion, self)
        guard context != nil else { queued.append(box); return true }
        return submit(box)
    }

    /// Any view may animate alongside, in the container or not: `view` is not needed to find it.
    @discardableResult
    public func animateAlongsideTransition(in view: UIView?, animation: ((UIViewControllerTransitionCoordinatorContext) -> Void)?,
                                           completion: ((UIViewControllerTransitionCoordinatorContext) -> Void)?) -> Bool {
        animate(alongsideTransition: animation, completion: completion)
    }

    public func notifyWhenInteractionChanges(_ handler: @escaping (UIViewControllerTransitionCoordinatorContext) -> Void) {
        guard let handle else { interactionHandlers.append(handler); return }
        let box = AlongsideBox(handler, nil, self)
        host.coordinator_notify_interaction_changes(handle, { _, user in
            guard let user else { return }
            let b = Unmanaged<AlongsideBox>.fromOpaque(user).takeRetainedValue()
            b.animation?(b.coordinator)
        }, Unmanaged.passRetained(box).toOpaque())
    }

    private func submit(_ box: AlongsideBox) -> Bool {
        guard let handle else { return false }
        let user = Unmanaged.passRetained(box).toOpaque()
        // The box is released by the last call the host makes for it.
        let accepted = host.coordinator_animate_alongside(handle, box.animation == nil ? nil : { _, user in
            guard let user else { return }
            let b = Unmanaged<AlongsideBox>.fromOpaque(user).takeUnretainedValue()
            b.animation?(b.coordinator)
            if b.completion == nil { Unmanaged<AlongsideBox>.fromOpaque(user).release() }
        }, box.completion == nil ? nil : { _, user in
            guard let user else { return }
            let b = Unmanaged<AlongsideBox>.fromOpaque(user).takeRetainedValue()
            b.completion?(b.coordinator)
        }, user) != 0
        if !accepted || (box.animation == nil && box.completion == nil) { Unmanaged<AlongsideBox>.fromOpaque(user).release() }
        return accepted
    }

    private func submitQueued() {
        let boxes = queued, handlers = interactionHandlers
        queued = []
        interactionHandlers = []
        for b in boxes { _ = submit(b) }
        for h in handlers { notifyWhenInteractionChanges(h) }
    }

    /// The transition ran without the kit (the host's default): apply what is queued at once.
    func flushWithoutTransition() {
        let boxes = queued
        queued = []
        interactionHandlers = []
        for b in boxes { b.animation?(self) }
        for b in boxes { b.completion?(self) }
    }
}
