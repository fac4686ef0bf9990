import TransHostCore

/// Interruptible transitions (UIKit's iOS 10 rules):
/// - The host asks the animator for its interruptibleAnimator right after animateTransition
///   returns, and again whenever the transition is interrupted (a scenario's grab, or the
///   plugin's pauseInteractiveTransition). Every answer must be the same animator; a different
///   one is an `interruptible-animator-changed` breach and the first one stays in charge.
/// - Interrupting makes the transition interactive (`isInteractive` becomes true, the watchdog
///   waits while it is held). A grab is driven by the host: the property animator (or, without
///   one, the transition's timeline) is paused, scrubbed, and finished or reversed along
///   completionCurve. After pauseInteractiveTransition the plugin drives its animator itself and
///   only reports progress, finish and cancel.
/// - Contract checks when completeTransition is called: a property animator still running
///   (`completed-while-animating`) is ended at its end (its start after a cancel) and its
///   completions never run; one that was stopped and never finished
///   (`animator-stopped-unfinished`) is let go with its views where it stopped them.
///   A stopped animator also arms the watchdog, so a transition waiting for a finish that never
///   comes still ends.
extension TransitionHost {
    /// `ending`: completeTransition came while animateTransition still ran; the host asks then.
    func adoptInterruptibleAnimator(_ t: ActiveTransition, ending: Bool = false) {
        guard !t.askedForInterruptibleAnimator, ending || !t.isFinished, let animator = t.animator else { return }
        t.askedForInterruptibleAnimator = true
        guard let pa = animator.interruptibleAnimator(t.context) else { return }
        watch(pa, for: t)
    }

    private func watch(_ pa: PropertyAnimator, for t: ActiveTransition) {
        t.propertyAnimator = pa
        pa.onStateChange = { [weak self, weak t] a in
            guard let self, let t, !t.isFinished, a.state == .stopped else { return }
            self.armWatchdog(t, remaining: a.duration)
        }
    }

    /// Asks for the interruptible animator again at an interruption.
    private func confirmInterruptibleAnimator(_ t: ActiveTransition) {
        guard let animator = t.animator else { return }
        let again = animator.interruptibleAnimator(t.context)
        guard let first = t.propertyAnimator else {
            if let again { watch(again, for: t) }
            return
        }
        if again !== first {
            breach(t, "interruptible-animator-changed",
                   "interruptibleAnimator(using:) returned \(again == nil ? "nil" : "a different animator") when the transition was interrupted; it must return the same animator for the whole transition (the first one kept driving it)")
        }
    }

    /// Grabs the running transition (a scenario's grab): `interaction` drives it from the
    /// progress it has reached. Returns why it was refused, or nil.
    public func grab(with interaction: InteractionController) -> String? {
        guard let t = active, !t.isFinished else { return "no transition is running" }
        let ctx = t.context
        // As for a gesture at the start: the host's default transitions are not interactive,
        // except the navigation pop (the back swipe).
        if t.animator?.identity == nil && !(ctx.container == .navigation && ctx.operation == .pop) {
            return "\(ctx.container.rawValue) \(ctx.operation.rawValue) \(ctx.fromViewController.typeName) -> \(ctx.toViewController.typeName) runs the host's default transition, which cannot be grabbed"
        }
        return interrupt(t, with: interaction, drivenByHost: true)
    }

    func interrupt(_ t: ActiveTransition, with interaction: InteractionController, drivenByHost: Bool) -> String? {
        guard !t.isFinished else { return "the transition has ended" }
        guard t.animator != nil else { return "the transition is not animated" }
        let ctx = t.context
        if let current = t.interaction {
            switch current.state {
            case .finishing, .cancelling:
                // Interrupted again on its way to the end or back: the new hand takes over.
                if current !== interaction { current.transitionEnded() }
            case .interacting, .idle:
                return current === interaction ? nil : "the transition is already interactive"
            case .ended:
                break
            }
        }
        interaction.drivesAnimations = drivenByHost
        if t.interaction !== interaction {
            interaction.attach(to: t, host: self)
            t.interaction = interaction
        }
        confirmInterruptibleAnimator(t)
        ctx.isInteractive = true
        t.wasInterrupted = true
        t.watchdogGeneration += 1   // no deadline while it is held
        ctx.transitionWasCancelled = false
        interaction.beginInterruption(at: progress(of: t))
        return nil
    }

    /// How far the transition has come: its property animator's fractionComplete, else its
    /// timeline's time over the duration.
    func progress(of t: ActiveTransition) -> Double {
        if let pa = t.propertyAnimator { return min(max(pa.fractionComplete, 0), 1) }
        guard t.duration > 0 else { return 1 }
        let local = t.context.timeline.localTime(atGlobal: engine.now)
        return min(max((local - t.context.startTime) / t.duration, 0), 1)
    }

    func checkPropertyAnimatorAtEnd(_ t: ActiveTransition, didComplete: Bool) {
        adoptInterruptibleAnimator(t, ending: true)
        guard let pa = t.propertyAnimator else { return }
        pa.onStateChange = nil
        if pa.isRunning {
            breach(t, "completed-while-animating",
                   "completeTransition(\(didComplete)) was called while the transition's property animator was still running; the host ended it at its \(didComplete ? "end" : "start") (its completions will not run)")
            pa.abandon(at: didComplete ? .end : .start)
        } else if pa.state == .stopped {
            breach(t, "animator-stopped-unfinished",
                   "the transition's property animator was stopped (stopAnimation(false)) and never finished with finishAnimation(at:); its completions never ran and its views stay where it stopped them")
            pa.abandon(at: .current)
        }
    }
}
