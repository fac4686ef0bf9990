import TransHostCore

/// UIPercentDrivenInteractiveTransition: drives a transition's animations by a percentage.
///
/// Attach one to an action (`push(_:animated:interaction:)`, `select(_:animated:interaction:)`,
/// `present(_:animated:interaction:)`, ...) or return one from a `TransitionInteractionProvider`.
/// The transition is then interactive: `context.isInteractive` is true and its timeline is
/// paused from the start, so the host never advances it on its own.
///
/// Semantics (UIKit's; docs/animation.md, "Interaction"), with D the animator's `transitionDuration`:
/// - `update(p)`: p is clamped to [0, 1]; the transition's timeline (every animation the animator
///   made for this transition) is paused and its local time set to start + p x D. Scrubbing is
///   linear in time; each animation still applies its own curve to its own progress.
/// - `finish()`: the timeline resumes forward at speed `completionSpeed`, so the rest takes
///   (1 - p) x D / completionSpeed seconds. At p = 1 every animation is already at its end and
///   completes on the next engine step (no 0.99 clamp needed).
/// - `cancel()`: `transitionWasCancelled` becomes true at once, then the timeline runs backwards
///   at speed -completionSpeed to start (p x D / completionSpeed seconds). Every animation block
///   stops when the timeline is back at the transition's start (not at its own beginning, which
///   would let a delayed block's completion run while earlier blocks are still rewinding), and
///   the completions then run with finished == true, as in UIKit; the animator is expected to
///   call completeTransition(!transitionWasCancelled), i.e. false.
/// - `completionCurve` (default ease-in-out) shapes the remaining run: the transition's local
///   time goes from p x D to D (or back to 0) along the curve over the same (1 - p) x D /
///   completionSpeed (or p x D / completionSpeed) seconds, each animation still applying its own
///   curve to its own progress. Past that stretch the timeline runs on linearly.
///
/// Calls before the transition starts (the action was queued behind another transition) are
/// remembered and applied right after the animator's animateTransition returns. Calls after
/// finish()/cancel() or after the transition ended are ignored.
public final class InteractionController {
    public enum State: String, Sendable { case idle, interacting, finishing, cancelling, ended }

    /// Speed of the part that runs after finish()/cancel(); must be finite and > 0 (else 1 is used).
    public var completionSpeed: Double = 1
    /// The curve of the run after finish()/cancel() (see the type's documentation).
    public var completionCurve: TimingCurve = .easeInOut
    /// The last percentage given to update (clamped).
    public private(set) var percentComplete: Double = 0
    public private(set) var state: State = .idle
    /// The transition's context once it started.
    public private(set) weak var context: TransitionContext?
    /// The duration scrubbed (the animator's transitionDuration) once the transition started.
    public private(set) var duration: Double = 0
    /// Receives warnings (a non-finite percentage, a bad completionSpeed).
    public var warningHandler: ((String) -> Void)?
    /// false when the animator's own code drives its animations after pauseInteractiveTransition
    /// (it only reports progress, finish and cancel here): the controller then moves nothing.
    /// When the transition has an interruptible property animator and this is true, the
    /// controller drives that animator (fractionComplete, reversing, continueAnimation) instead
    /// of the transition's timeline.
    public var drivesAnimations = true

    private weak var host: TransitionHost?
    private weak var active: ActiveTransition?
    private var pendingEnd: Bool?  // finish (true) / cancel (false) requested before the start

    public init() {}

    /// Whether this controller is driving a transition that has not ended.
    public var isAttached: Bool { active != nil && state != .ended }

    // MARK: Host side

    func attach(to t: ActiveTransition, host: TransitionHost) {
        self.active = t
        self.host = host
        self.context = t.context
        self.duration = t.duration
        state = .interacting
    }

    /// Called by the host after animateTransition returned: applies what was asked before the start.
    func applyPending() {
        guard state == .interacting else { return }
        scrub(percentComplete)
        if let end = pendingEnd {
            pendingEnd = nil
            end ? finish() : cancel()
        }
    }

    func transitionEnded() { state = .ended; active = nil }

    /// A running transition was interrupted (a grab or pauseInteractiveTransition) at `progress`:
    /// it holds still there until the next update.
    func beginInterruption(at progress: Double) {
        state = .interacting
        pendingEnd = nil
        percentComplete = min(max(progress, 0), 1)
        scrub(percentComplete)
    }

    // MARK: UIPercentDrivenInteractiveTransition

    /// updateInteractiveTransition(_:).
    public func update(_ percent: Double) {
        guard percent.isFinite else {
            warn("update(\(percent)) ignored: the percentage is not finite")
            return
        }
        switch state {
        case .idle:
            percentComplete = min(max(percent, 0), 1)
        case .interacting:
            percentComplete = min(max(percent, 0), 1)
            scrub(percentComplete)
        case .finishing, .cancelling, .ended:
            return
        }
    }

    /// finishInteractiveTransition().
    public func finish() { end(finishing: true) }

    /// cancelInteractiveTransition().
    public func cancel() { end(finishing: false) }

    private func end(finishing: Bool) {
        switch state {
        case .idle:
            pendingEnd = finishing
            return
        case .finishing, .cancelling, .ended:
            return
        case .interacting:
            break
        }
        guard let ctx = context, let t = active, let host, !t.isFinished else { state = .ended; return }
        var speed = completionSpeed
        if !speed.isFinite || speed <= 0 {
            warn("completionSpeed \(speed) is not a finite positive number; 1 was used")
            speed = 1
        }
        let part = finishing ? 1 - percentComplete : percentComplete
        if !drivesAnimations || t.propertyAnimator != nil {
            state = finishing ? .finishing : .cancelling
            if !finishing { ctx.transitionWasCancelled = true }
            var seconds = part * duration / speed
            if drivesAnimations, let animator = t.propertyAnimator {
                // The animator runs the rest (back, on a cancel) along completionCurve.
                let curve: UnitBezier
                if case .bezier(let b) = completionCurve { curve = b } else { curve = .easeInEaseOut }
                animator.isReversed = !finishing
                animator.continueAnimation(timing: .cubic(curve), durationFactor: part / speed)
                seconds = part * animator.duration / speed
            }
            host.armWatchdog(t, remaining: seconds)
            return
        }
        let engine = host.engine
        let local = ctx.startTime + percentComplete * duration
        ctx.timeline.setLocalTime(local, now: engine.now)
        let end = finishing ? ctx.startTime + duration : ctx.startTime
        let remaining = abs(end - local) / speed
        state = finishing ? .finishing : .cancelling
        if !finishing {
            ctx.transitionWasCancelled = true
            // Every block runs back to the transition's start before any completion runs.
            ctx.timeline.reverseStop = ctx.startTime
        }
        ctx.timeline.ramp(to: end, over: remaining, curve: completionCurve, speed: finishing ? speed : -speed, now: engine.now)
        host.armWatchdog(t, remaining: remaining)
        ctx.coordinator?.interactionDidEnd(speed: speed, curve: completionCurve)
    }

    private func scrub(_ p: Double) {
        guard drivesAnimations else { return }
        if let animator = active?.propertyAnimator {
            if animator.isRunning { animator.pauseAnimation() }
            animator.fractionComplete = p
            return
        }
        guard let ctx = context, let host else { return }
        let engine = host.engine
        if !ctx.timeline.isPaused { ctx.timeline.pause(now: engine.now) }
        ctx.timeline.setLocalTime(ctx.startTime + p * duration, now: engine.now)
    }

    private func warn(_ m: String) {
        if let warningHandler { warningHandler(m) } else { host?.warn(m) }
    }
}
