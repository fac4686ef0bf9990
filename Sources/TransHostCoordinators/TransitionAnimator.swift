import TransHostCore

/// Who animated a transition: a plugin and one of its animators.
public struct AnimatorIdentity: Equatable, Hashable, Sendable {
    public let plugin: String
    public let id: String
    public init(plugin: String, id: String) { self.plugin = plugin; self.id = id }
}

/// UIViewControllerAnimatedTransitioning.
public protocol TransitionAnimator: AnyObject {
    /// The plugin and animator id, or nil for the host's default transition.
    var identity: AnimatorIdentity? { get }
    func transitionDuration(_ context: TransitionContext) -> Double
    func animateTransition(_ context: TransitionContext)
    func animationEnded(_ transitionCompleted: Bool)
    /// interruptibleAnimator(using:): the property animator playing this transition, or nil
    /// (see TransitionHost+Interruption.swift for when the host asks).
    func interruptibleAnimator(_ context: TransitionContext) -> PropertyAnimator?
}

extension TransitionAnimator {
    public func animationEnded(_ transitionCompleted: Bool) {}
    public func interruptibleAnimator(_ context: TransitionContext) -> PropertyAnimator? { nil }
}

/// What a coordinator asks its delegate for (the navigation/tab/transitioning delegate).
public struct TransitionRequest {
    public let container: ContainerKind
    public let operation: TransitionOperation
    public let from: ViewController
    public let to: ViewController
    /// For a presentation: the controller it was asked of (UIKit's `source`), which `from` (the
    /// presenting controller) may be an ancestor of; nil for other transitions.
    public let source: ViewController?
    public init(container: ContainerKind, operation: TransitionOperation, from: ViewController, to: ViewController,
                source: ViewController? = nil) {
        self.container = container; self.operation = operation; self.from = from; self.to = to; self.source = source
    }
}

/// The delegate that chooses an animator; nil means the host's default transition, as UIKit
/// does when the delegate returns nil.
public protocol TransitionAnimatorProvider: AnyObject {
    func animator(for request: TransitionRequest) -> TransitionAnimator?
}

/// The optional second question a delegate answers (UIKit's interactionControllerFor...):
/// a provider that also conforms to this protocol may make a transition interactive. An
/// interaction controller passed to the action itself takes precedence.
public protocol TransitionInteractionProvider: AnyObject {
    func interactionController(for request: TransitionRequest, animator: TransitionAnimator) -> InteractionController?
}

/// A provider that also stands for a navigation delegate's willShow: told before an unanimated
/// navigation transition (an animated one is announced by the provider itself, when it is asked
/// for the animator, as UIKit asks willShow first).
public protocol NavigationShowListener: AnyObject {
    func navigationWillShow(_ request: TransitionRequest, animated: Bool)
}
