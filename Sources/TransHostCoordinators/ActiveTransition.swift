import TransHostCore

/// A transition in flight.
public final class ActiveTransition {
    /// 0, 1, 2, ... in the order transitions began on this host.
    public let index: Int
    public let context: TransitionContext
    public let animator: TransitionAnimator?
    public let duration: Double
    /// The percent-driven controller driving this transition, if it is interactive.
    public internal(set) var interaction: InteractionController?
    /// Model state of the from-view and the to-view when the transition began (restored on cancel).
    public internal(set) var fromState: ViewState?
    public internal(set) var toState: ViewState?
    var breaches: [ContractBreach] = []
    var repairs: [HostRepair] = []
    var appearance: [AppearanceEvent] = []
    let views: TransitionViews
    var finish: (Bool) -> Void = { _ in }
    var watchdogGeneration = 0
    /// Where the container sat when the transition began (an animator must not move it).
    weak var containerParent: View?
    var containerIndex = 0
    public var isFinished: Bool { context.didComplete != nil }
    init(index: Int, context: TransitionContext, animator: TransitionAnimator?, duration: Double, views: TransitionViews) {
        self.index = index; self.context = context; self.animator = animator; self.duration = duration; self.views = views
    }
}
