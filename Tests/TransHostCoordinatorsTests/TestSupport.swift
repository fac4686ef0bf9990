import XCTest
import TransHostCore
@testable import TransHostCoordinators

// Shared fixtures: a 320 x 568 window, three controllers, one coordinator of the kind under
// test, a recording observer, and small animators written like the seeds' ones.

let screen = Rect(x: 0, y: 0, width: 320, height: 568)

/// Seed 004 (objc.io): 0.25 s, the from-view scales to 0.1 while the to-view fades in; the
/// completion resets the from-view's transform and calls completeTransition(!cancelled).
final class FadeScaleAnimator: TransitionAnimator {
    static let duration = 0.25
    var identity: AnimatorIdentity? { AnimatorIdentity(plugin: "test-fade-scale", id: "fade-scale") }
    var completions = 0
    var ended: [Bool] = []
    func transitionDuration(_ context: TransitionContext) -> Double { Self.duration }
    func animateTransition(_ ctx: TransitionContext) {
        let from = ctx.view(forKey: .from)!, to = ctx.view(forKey: .to)!
        to.frame = ctx.finalFrame(for: ctx.toViewController)
        ctx.containerView.addSubview(to)
        to.alpha = 0
        ctx.containerView.engine.animate(AnimationParameters(duration: Self.duration), animations: {
            from.transform = AffineTransform(scaleX: 0.1, y: 0.1)
            to.alpha = 1
        }, completion: { [self] _ in
            completions += 1
            from.transform = .identity
            ctx.completeTransition(!ctx.transitionWasCancelled)
        })
    }
    func animationEnded(_ transitionCompleted: Bool) { ended.append(transitionCompleted) }
}

/// Changes the from-view (alpha, transform, frame) and never puts it back: the host must.
final class SloppyAnimator: TransitionAnimator {
    var identity: AnimatorIdentity? { AnimatorIdentity(plugin: "test-sloppy", id: "sloppy") }
    func transitionDuration(_ context: TransitionContext) -> Double { 0.4 }
    func animateTransition(_ ctx: TransitionContext) {
        let from = ctx.view(forKey: .from)!, to = ctx.view(forKey: .to)!
        ctx.containerView.insertSubview(to, belowSubview: from)
        to.transform = AffineTransform(translationX: -100, y: 0)
        ctx.containerView.engine.animate(AnimationParameters(duration: 0.4, options: 3 << 16), animations: {
            from.alpha = 0.2
            from.transform = AffineTransform(rotationAngle: 0.5)
            from.frame = Rect(x: 40, y: 60, width: 100, height: 200)
            to.transform = .identity
        }, completion: { _ in ctx.completeTransition(!ctx.transitionWasCancelled) })
    }
}

/// Two blocks: a short one (0.1 s) and a delayed one (0.1 s after 0.15 s); completes when the
/// second ends. Exercises scrubbing past a block's end and cancelling before a block began.
final class TwoBlockAnimator: TransitionAnimator {
    var identity: AnimatorIdentity? { AnimatorIdentity(plugin: "test-two-block", id: "two-block") }
    var firstDone = 0, secondDone = 0
    func transitionDuration(_ context: TransitionContext) -> Double { 0.25 }
    func animateTransition(_ ctx: TransitionContext) {
        let from = ctx.view(forKey: .from)!, to = ctx.view(forKey: .to)!
        ctx.containerView.addSubview(to)
        to.alpha = 0
        let engine = ctx.containerView.engine
        engine.animate(AnimationParameters(duration: 0.1, options: 3 << 16), animations: { from.alpha = 0.5 },
                       completion: { [self] _ in firstDone += 1 })
        engine.animate(AnimationParameters(duration: 0.1, delay: 0.15, options: 3 << 16), animations: { to.alpha = 1 },
                       completion: { [self] _ in
            secondDone += 1
            from.alpha = 1
            ctx.completeTransition(!ctx.transitionWasCancelled)
        })
    }
}

/// Animates but never calls completeTransition.
final class NeverCompletingAnimator: TransitionAnimator {
    let duration: Double
    init(duration: Double = 0.25) { self.duration = duration }
    var identity: AnimatorIdentity? { AnimatorIdentity(plugin: "test-never", id: "never") }
    func transitionDuration(_ context: TransitionContext) -> Double { duration }
    func animateTransition(_ ctx: TransitionContext) {
        let to = ctx.view(forKey: .to)!
        ctx.containerView.addSubview(to)
        ctx.containerView.engine.animate(AnimationParameters(duration: 0.25), animations: { to.alpha = 0.5 })
    }
}

/// Calls completeTransition(true) twice in its completion.
final class TwiceCompletingAnimator: TransitionAnimator {
    var identity: AnimatorIdentity? { AnimatorIdentity(plugin: "test-twice", id: "twice") }
    func transitionDuration(_ context: TransitionContext) -> Double { 0.25 }
    func animateTransition(_ ctx: TransitionContext) {
        let to = ctx.view(forKey: .to)!
        ctx.containerView.addSubview(to)
        ctx.containerView.engine.animate(AnimationParameters(duration: 0.25), animations: { to.alpha = 0.5 },
                                         completion: { _ in
            to.alpha = 1
            ctx.completeTransition(true)
            ctx.completeTransition(true)
        })
    }
}

/// Completes without adding the to-view.
final class ForgetfulAnimator: TransitionAnimator {
    var identity: AnimatorIdentity? { AnimatorIdentity(plugin: "test-forgetful", id: "forgetful") }
    func transitionDuration(_ context: TransitionContext) -> Double { 0.1 }
    func animateTransition(_ ctx: TransitionContext) {
        let from = ctx.view(forKey: .from)!
        ctx.containerView.engine.animate(AnimationParameters(duration: 0.1), animations: { from.alpha = 0.9 },
                                         completion: { _ in from.alpha = 1; ctx.completeTransition(true) })
    }
}

/// The delegate: returns `make(request)` and remembers every request.
final class TestProvider: TransitionAnimatorProvider {
    var make: (TransitionRequest) -> TransitionAnimator?
    var requests: [TransitionRequest] = []
    init(_ make: @escaping (TransitionRequest) -> TransitionAnimator? = { _ in nil }) { self.make = make }
    func animator(for request: TransitionRequest) -> TransitionAnimator? {
        requests.append(request)
        return make(request)
    }
}

final class Recorder: TransitionObserver {
    var begun: [ActiveTransition] = []
    var records: [TransitionRecord] = []
    var late: [(Int, ContractBreach)] = []
    func transitionDidBegin(_ transition: ActiveTransition) { begun.append(transition) }
    var onEnd: ((TransitionRecord) -> Void)?
    func transitionDidEnd(_ record: TransitionRecord) { records.append(record); onEnd?(record) }
    func transition(_ index: Int, didReportLateBreach breach: ContractBreach) { late.append((index, breach)) }
}

/// One app with one coordinator of `kind` over controllers a, b, c.
///
/// forward: nav push b / tab select b / modal present b (from a);
/// back:    nav pop / tab select a / modal dismiss (to the state before forward).
final class Fixture {
    let kind: ContainerKind
    let engine = AnimationEngine()
    let host: TransitionHost
    let window: View
    let a: ViewController, b: ViewController, c: ViewController
    var nav: NavigationCoordinator!
    var tab: TabCoordinator!
    var modal: ModalCoordinator!
    let provider = TestProvider()
    let recorder = Recorder()
    var warnings: [String] = []

    init(_ kind: ContainerKind) {
        self.kind = kind
        host = TransitionHost(engine: engine)
        window = View(engine: engine, frame: screen, name: "window")
        let engine = self.engine
        func vc(_ id: String, _ type: String) -> ViewController {
            let v = View(engine: engine, frame: .zero)
            v.backgroundColor = Color(red: 0.2, green: 0.4, blue: 0.6)
            return ViewController(id: id, typeName: type, view: v)
        }
        a = vc("a", "Home"); b = vc("b", "Detail"); c = vc("c", "Settings")
        host.provider = provider
        host.observer = recorder
        host.warningHandler = { [unowned self] in warnings.append($0) }
        switch kind {
        case .navigation: nav = NavigationCoordinator(root: a, view: window, host: host)
        case .tab: tab = TabCoordinator(controllers: [a, b, c], view: window, host: host)
        case .modal: modal = ModalCoordinator(root: a, view: window, host: host)
        }
    }

    /// Routes every transition to `animator` (nil: the host's default).
    func route(_ animator: @escaping () -> TransitionAnimator?) { provider.make = { _ in animator() } }

    func forward(_ to: ViewController? = nil, animated: Bool = true, interaction: InteractionController? = nil) {
        let to = to ?? b
        switch kind {
        case .navigation: nav.push(to, animated: animated, interaction: interaction)
        case .tab: tab.select(to, animated: animated, interaction: interaction)
        case .modal: modal.present(to, animated: animated, interaction: interaction)
        }
    }

    func back(animated: Bool = true, interaction: InteractionController? = nil) {
        switch kind {
        case .navigation: nav.pop(animated: animated, interaction: interaction)
        case .tab: tab.select(a, animated: animated, interaction: interaction)
        case .modal: modal.dismiss(animated: animated, interaction: interaction)
        }
    }

    /// The container's model: the stack, the selection, or the presented list (controller ids).
    var model: [String] {
        switch kind {
        case .navigation: return nav.stack.map(\.id)
        case .tab: return [tab.selectedViewController.id]
        case .modal: return modal.presented.map(\.id)
        }
    }

    /// The controller on screen.
    var top: ViewController {
        switch kind {
        case .navigation: return nav.topViewController
        case .tab: return tab.selectedViewController
        case .modal: return modal.topViewController
        }
    }

    var invariantProblem: String? {
        switch kind {
        case .navigation: return nav.checkInvariants()
        case .tab: return tab.checkInvariants()
        case .modal: return modal.checkInvariants()
        }
    }

    /// Advances virtual time by `dt` and processes what is due at the new time.
    func run(_ dt: Double = 5) {
        engine.advance(by: dt)
        engine.settle()
    }
}

/// Checks that appearance callbacks are balanced across `records`: per controller, a will*
/// is always followed by its did* (or, on cancel, by the opposite will/did pair), and no
/// controller is left half-way. Returns a description of the first problem, or nil.
func appearanceProblem(_ records: [TransitionRecord], initiallyVisible: Set<String>) -> String? {
    enum S { case appeared, disappeared, appearing, disappearing }
    var state: [String: S] = [:]
    func current(_ id: String) -> S { state[id] ?? (initiallyVisible.contains(id) ? .appeared : .disappeared) }
    for r in records {
        for e in r.appearance {
            let s = current(e.controller)
            switch (e.kind, s) {
            case (.willAppear, .disappeared), (.willAppear, .disappearing): state[e.controller] = .appearing
            case (.didAppear, .appearing): state[e.controller] = .appeared
            case (.willDisappear, .appeared), (.willDisappear, .appearing): state[e.controller] = .disappearing
            case (.didDisappear, .disappearing): state[e.controller] = .disappeared
            default: return "transition \(r.index): \(e.kind) for \(e.controller) while \(s)"
            }
        }
        for (id, s) in state where s == .appearing || s == .disappearing {
            return "transition \(r.index) ended with \(id) \(s)"
        }
        let shownAfter: String = r.outcome == .completed ? r.toID : r.fromID
        let hiddenAfter: String = r.outcome == .completed ? r.fromID : r.toID
        if current(shownAfter) != .appeared { return "transition \(r.index): \(shownAfter) should have appeared" }
        if current(hiddenAfter) != .disappeared { return "transition \(r.index): \(hiddenAfter) should have disappeared" }
    }
    return nil
}

func assertClose(_ a: Double, _ b: Double, accuracy: Double = 1e-9, _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(a, b, accuracy: accuracy, message, file: file, line: line)
}
