import TransHostCore

/// UIViewControllerContextTransitioning: what an animator gets for one transition.
///
/// Contract (UIKit's): `completeTransition` is called exactly once. A second call is
/// ignored and reported as a breach; a missing call is ended by the host's watchdog (see
/// `TransitionHost` for the deadline and the postconditions, including the cancel restoration).
///
/// `isInteractive` is true when an `InteractionController` drives the transition: `timeline`
/// is then paused from the start and scrubbed by the controller. `transitionWasCancelled`
/// becomes true as soon as the controller's cancel() is called, before the animations have run
/// back, so completions that call completeTransition(!transitionWasCancelled) pass false.
public final class TransitionContext {
    public let container: ContainerKind
    public let operation: TransitionOperation
    public let fromViewController: ViewController
    public let toViewController: ViewController
    public let containerView: View
    public let isAnimated: Bool
    public internal(set) var isInteractive = false
    public internal(set) var transitionWasCancelled = false
    /// Virtual time at which the transition started.
    public let startTime: Double
    /// The timeline every animation of this transition runs on (scrubbed when interactive).
    public let timeline: AnimationTimeline
    /// The name reported in breaches ("host" for defaults).
    public internal(set) var pluginName = "host"

    public private(set) var completionCount = 0
    public private(set) var didComplete: Bool?
    /// Set when the host's watchdog ended the transition; a later call is then `completed-late`.
    public internal(set) var completedByWatchdog = false
    var breachHandler: ((ContractBreach) -> Void)?
    var onComplete: ((Bool) -> Void)?
    var onPause: ((InteractionController, Bool) -> String?)?

    /// pauseInteractiveTransition(): the running transition becomes interactive, reported by
    /// `interaction` (which the caller then updates, finishes or cancels). With hostDrives false
    /// the caller drives the animations itself. Returns why it was refused, or nil.
    public func pauseInteractiveTransition(reportingTo interaction: InteractionController, hostDrives: Bool) -> String? {
        guard let onPause else { return "the transition has not begun" }
        return onPause(interaction, hostDrives)
    }

    /// The transition coordinator of this transition (UIViewController.transitionCoordinator
    /// while it runs); set by the host when the transition begins.
    public internal(set) var coordinator: TransitionCoordinator!

    let initialFrames: [ObjectIdentifier: Rect]
    let finalFrames: [ObjectIdentifier: Rect]
    /// The views `view(forKey:)` gives (see there).
    public let fromView: View?
    public let toView: View?
    /// For a presentation or dismissal: the presentation controller that lays it out.
    public internal(set) var presentationController: PresentationController?

    init(container: ContainerKind, operation: TransitionOperation, from: ViewController, to: ViewController,
         containerView: View, isAnimated: Bool, startTime: Double, initialFrames: [ObjectIdentifier: Rect],
         finalFrames: [ObjectIdentifier: Rect], fromView: View?, toView: View?) {
        self.fromView = fromView; self.toView = toView
        self.container = container; self.operation = operation
        self.fromViewController = from; self.toViewController = to
        self.containerView = containerView; self.isAnimated = isAnimated; self.startTime = startTime
        self.timeline = AnimationTimeline(name: "\(container.rawValue).\(operation.rawValue)", startingAt: startTime)
        self.initialFrames = initialFrames; self.finalFrames = finalFrames
    }

    public enum Key { case from, to }

    public func viewController(forKey key: Key) -> ViewController { key == .from ? fromViewController : toViewController }
    /// viewForKey: as in UIKit, nil for the presenter's view in a presentation that keeps it in
    /// place (the `over` styles, custom ones that keep it, and the current-context styles, whose
    /// container is the presenter's view), on present as the from-view and on dismiss as the
    /// to-view; a presentation controller's `presentedView` for the presented side.
    public func view(forKey key: Key) -> View? { key == .from ? fromView : toView }

    /// initialFrameForViewController: .zero when unknown, as in UIKit.
    public func initialFrame(for vc: ViewController) -> Rect { initialFrames[ObjectIdentifier(vc)] ?? .zero }
    /// finalFrameForViewController: .zero when unknown, as in UIKit.
    public func finalFrame(for vc: ViewController) -> Rect { finalFrames[ObjectIdentifier(vc)] ?? .zero }

    public func completeTransition(_ didComplete: Bool) {
        completionCount += 1
        guard completionCount == 1 else {
            // The flag lives here, not on the ActiveTransition: a late call usually arrives after
            // the host has let go of the transition.
            if completedByWatchdog {
                breachHandler?(ContractBreach(plugin: pluginName, kind: "completed-late",
                    message: "completeTransition(\(didComplete)) was called for \(operation.rawValue) \(fromViewController.typeName) -> \(toViewController.typeName) after the watchdog had completed the transition; the call was ignored"))
                return
            }
            breachHandler?(ContractBreach(plugin: pluginName, kind: "completed-twice",
                                          message: "completeTransition(\(didComplete)) was called again (call \(completionCount)) for \(operation.rawValue) \(fromViewController.typeName) -> \(toViewController.typeName); the extra call was ignored"))
            return
        }
        self.didComplete = didComplete
        onComplete?(didComplete)
    }
}
