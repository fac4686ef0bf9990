import CTransHost
#if canImport(Glibc)
import Glibc
#endif

/// Hands a Swift plugin's animators and delegates to the kit. A plugin exports them in one line,
/// in a file of its own, so the animator files stay as they were written for UIKit:
///
///     @_cdecl("th_swift_plugin_make") public func transhostExport() -> UnsafeMutableRawPointer {
///         TransHostExport(animators: ["bubble": BubbleTransition.init], delegates: ["main": MainDelegate.init]) }
///
/// The keys are the manifest's animator and delegate ids. An animator named by a route is made
/// afresh for each transition (as a delegate usually does); a delegate is made once, when the
/// host first asks for it, and kept.
///
/// `controllers` are the plugin's own UIViewController subclasses for scenario controller types
/// of the same class name (an app's `HomeController` for the scenario's "HomeController"): the
/// kit makes one per scenario controller the first time the plugin sees it, through
/// `init?(coder:)` as a storyboard would, then calls `viewDidLoad()`. Casts and `isKind(of:)`
/// then work as in the app.
public func TransHostExport(animators: [String: () -> UIViewControllerAnimatedTransitioning] = [:],
                            delegates: [String: () -> AnyObject] = [:],
                            controllers: [UIViewController.Type] = []) -> UnsafeMutableRawPointer {
    let plugin = KitPlugin(animators: animators, delegates: delegates)
    for c in controllers { plugin.controllerClasses[String(describing: c)] = c }
    return Unmanaged.passRetained(plugin).toOpaque()
}

/// A delegate for routes whose transitions the app's own code decides: it answers nil (the
/// default transition), so only the delegates the plugin's code assigned
/// (`navigationController?.delegate = self`, `transitioningDelegate = self`, ...) are asked.
/// Export it as `delegates: ["app": AssignedDelegates.init]`.
public final class AssignedDelegates: NSObject, UINavigationControllerDelegate, UITabBarControllerDelegate,
                                      UIViewControllerTransitioningDelegate {
    public override init() { super.init() }
}

/// The exported objects and the C tables the host sees for them. Tables are allocated once and
/// kept: the host never dlcloses a Swift plugin.
final class KitPlugin {
    let animatorFactories: [String: () -> UIViewControllerAnimatedTransitioning]
    let delegateFactories: [String: () -> AnyObject]
    var routedTables: [String: UnsafeMutablePointer<th_animator>] = [:]
    var delegateTables: [String: UnsafeMutablePointer<th_delegate>] = [:]
    var delegates: [String: AnyObject] = [:]
    /// Tables for animator and interaction objects a delegate vended, by object.
    var objectTables: [ObjectIdentifier: UnsafeMutablePointer<th_animator>] = [:]
    var interactionTables: [ObjectIdentifier: UnsafeMutablePointer<th_interaction>] = [:]
    /// The objects behind `user` pointers (kept alive for the tables).
    var objects: [ObjectIdentifier: AnyObject] = [:]
    /// A route-named animator's instance for the running transition, by table.
    var routedInstances: [UnsafeRawPointer: UIViewControllerAnimatedTransitioning] = [:]
    /// The plugin's controller classes, by class name.
    var controllerClasses: [String: UIViewController.Type] = [:]
    /// A percent-driven controller with wantsInteractiveStart false, for the next transition.
    var waitingInteraction: UIPercentDrivenInteractiveTransition?

    init(animators: [String: () -> UIViewControllerAnimatedTransitioning], delegates: [String: () -> AnyObject]) {
        animatorFactories = animators
        delegateFactories = delegates
    }

    nonisolated(unsafe) static var current: KitPlugin?

    // MARK: Animators

    func routedTable(_ id: String) -> UnsafePointer<th_animator>? {
        if let t = routedTables[id] { return UnsafePointer(t) }
        guard animatorFactories[id] != nil else { return nil }
        let t = makeAnimatorTable(id: id, user: UnsafeMutableRawPointer(strdup(id)))
        routedTables[id] = t
        return UnsafePointer(t)
    }

    func table(for animator: UIViewControllerAnimatedTransitioning) -> UnsafePointer<th_animator> {
        let key = ObjectIdentifier(animator)
        if let t = objectTables[key] { return UnsafePointer(t) }
        objects[key] = animator
        let t = makeAnimatorTable(id: String(describing: type(of: animator)), user: Unmanaged.passUnretained(animator as AnyObject).toOpaque())
        objectTables[key] = t
        return UnsafePointer(t)
    }

    /// The Swift animator behind a table: a vended object, or the routed animator's instance
    /// for this transition (made on first use).
    func animator(_ t: UnsafePointer<th_animator>) -> UIViewControllerAnimatedTransitioning? {
        let raw = UnsafeRawPointer(t)
        if let routed = routedTables.first(where: { UnsafeRawPointer($0.value) == raw }) {
            if let a = routedInstances[raw] { return a }
            guard let make = animatorFactories[routed.key] else { return nil }
            let a = make()
            routedInstances[raw] = a
            return a
        }
        guard let user = t.pointee.user else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(user).takeUnretainedValue() as? UIViewControllerAnimatedTransitioning
    }

    private func makeAnimatorTable(id: String, user: UnsafeMutableRawPointer) -> UnsafeMutablePointer<th_animator> {
        let t = UnsafeMutablePointer<th_animator>.allocate(capacity: 1)
        t.initialize(to: th_animator(
            struct_size: UInt32(MemoryLayout<th_animator>.size),
            id: UnsafePointer(strdup(id)),
            transition_duration: { me, ctx in
                guard let me, let ctx, let a = KitPlugin.current?.animator(me) else { return 0 }
                return a.transitionDuration(using: TransHostTransitionContext.wrap(ctx))
            },
            animate_transition: { me, ctx in
                guard let me, let ctx, let a = KitPlugin.current?.animator(me) else { return }
                let c = TransHostTransitionContext.wrap(ctx)
                if let waiting = KitPlugin.current?.waitingInteraction {
                    KitPlugin.current?.waitingInteraction = nil
                    waiting.adopt(c, animator: a)
                }
                a.animateTransition(using: c)
            },
            animation_ended: { me, completed in
                guard let me, let plugin = KitPlugin.current else { return }
                TransHostTransitionContext.current?.hasEnded = true
                plugin.animator(me)?.animationEnded(completed != 0)
                plugin.routedInstances[UnsafeRawPointer(me)] = nil
            },
            user: user,
            interruptible_animator: { me, ctx in
                guard let me, let ctx, let a = KitPlugin.current?.animator(me) else { return nil }
                let answer = a.interruptibleAnimator(using: TransHostTransitionContext.wrap(ctx))
                if answer === NoInterruptibleAnimator.shared { return nil }
                guard let pa = answer as? UIViewPropertyAnimator else {
                    kitWarning("interruptibleAnimator(using:) returned a \(type(of: answer)), not a UIViewPropertyAnimator; the host can only drive property animators, so the transition plays without one")
                    return nil
                }
                return pa.handle
            }))
        return t
    }

    // MARK: Delegates

    func delegateTable(_ id: String) -> UnsafePointer<th_delegate>? {
        if let t = delegateTables[id] { return UnsafePointer(t) }
        guard delegateFactories[id] != nil else { return nil }
        let t = UnsafeMutablePointer<th_delegate>.allocate(capacity: 1)
        t.initialize(to: th_delegate(
            struct_size: UInt32(MemoryLayout<th_delegate>.size),
            id: UnsafePointer(strdup(id)),
            animator_for: { me, request in
                guard let me, let request, let plugin = KitPlugin.current, let d = plugin.delegate(me) else { return nil }
                return plugin.askAnimator(d, request.pointee).map { plugin.table(for: $0) }
            },
            interaction_for: { me, request, animator in
                guard let me, let request, let animator, let plugin = KitPlugin.current, let d = plugin.delegate(me),
                      let a = plugin.animator(animator), let i = plugin.askInteraction(d, request.pointee, a) else { return nil }
                // wantsInteractiveStart false: the transition starts on its own (the host drops the
                // controller); a percent-driven one can still pause() it later, so it is bound to
                // the context the animator is about to get.
                if !i.wantsInteractiveStart, let percent = i as? UIPercentDrivenInteractiveTransition { plugin.waitingInteraction = percent }
                return plugin.interactionTable(i)
            },
            navigation_show: { me, request, did, animated in
                guard let me, let request, let plugin = KitPlugin.current, let exported = plugin.delegate(me),
                      let d = plugin.effectiveDelegate(exported, request.pointee) as? UINavigationControllerDelegate,
                      let nav = UIViewController.wrap(request.pointee.container_controller) as? UINavigationController,
                      let shown = UIViewController.wrap(request.pointee.to) else { return }
                if did != 0 {
                    TransHostTransitionCoordinator.pending?.flushWithoutTransition()
                    TransHostTransitionCoordinator.pending = nil
                    d.navigationController(nav, didShow: shown, animated: animated != 0)
                } else {
                    TransHostTransitionCoordinator.pending?.flushWithoutTransition()
                    TransHostTransitionCoordinator.pending = TransHostTransitionCoordinator(context: nil)
                    d.navigationController(nav, willShow: shown, animated: animated != 0)
                }
            },
            user: UnsafeMutableRawPointer(strdup(id)),
            presentation_controller_for: { me, request in
                guard let me, let request, let plugin = KitPlugin.current, let exported = plugin.delegate(me),
                      let p = plugin.askPresentationController(exported, request.pointee) else { return nil }
                return UnsafePointer(p.table)
            }))
        delegateTables[id] = t
        return UnsafePointer(t)
    }

    func delegate(_ t: UnsafePointer<th_delegate>) -> AnyObject? {
        guard let user = t.pointee.user else { return nil }
        let id = String(cString: user.assumingMemoryBound(to: CChar.self))
        if let d = delegates[id] { return d }
        guard let make = delegateFactories[id] else { return nil }
        let d = make()
        delegates[id] = d
        return d
    }

    /// The delegate UIKit would ask: the one the plugin's code assigned (the navigation or tab
    /// bar controller's `delegate`, the presented or dismissed controller's
    /// `transitioningDelegate`), else the exported delegate the route names.
    func effectiveDelegate(_ exported: AnyObject, _ r: th_transition_request) -> AnyObject {
        switch r.container {
        case TH_CONTAINER_NAVIGATION:
            return (UIViewController.wrap(r.container_controller) as? UINavigationController)?.delegate ?? exported
        case TH_CONTAINER_TAB:
            return (UIViewController.wrap(r.container_controller) as? UITabBarController)?.delegate ?? exported
        default:
            let vc = UIViewController.wrap(r.operation == TH_OP_PRESENT ? r.to : r.from)
            return vc?.transitioningDelegate ?? exported
        }
    }

    func askAnimator(_ exported: AnyObject, _ r: th_transition_request) -> UIViewControllerAnimatedTransitioning? {
        guard let from = UIViewController.wrap(r.from), let to = UIViewController.wrap(r.to) else { return nil }
        let d = effectiveDelegate(exported, r)
        switch r.container {
        case TH_CONTAINER_NAVIGATION:
            guard let nd = d as? UINavigationControllerDelegate,
                  let nav = UIViewController.wrap(r.container_controller) as? UINavigationController else { return nil }
            return nd.navigationController(nav, animationControllerFor: r.operation == TH_OP_POP ? .pop : .push, from: from, to: to)
        case TH_CONTAINER_TAB:
            guard let td = d as? UITabBarControllerDelegate,
                  let tabs = UIViewController.wrap(r.container_controller) as? UITabBarController else { return nil }
            return td.tabBarController(tabs, animationControllerForTransitionFrom: from, to: to)
        default:
            guard let md = d as? UIViewControllerTransitioningDelegate else { return nil }
            if r.operation == TH_OP_PRESENT {
                let presenting = UIViewController.wrap(r.presenting) ?? from
                return md.animationController(forPresented: to, presenting: presenting, source: UIViewController.wrap(r.source) ?? presenting)
            }
            return md.animationController(forDismissed: from)
        }
    }

    func askPresentationController(_ exported: AnyObject, _ r: th_transition_request) -> UIPresentationController? {
        guard r.operation == TH_OP_PRESENT, let presented = UIViewController.wrap(r.to),
              let md = effectiveDelegate(exported, r) as? UIViewControllerTransitioningDelegate else { return nil }
        let presenting = UIViewController.wrap(r.presenting) ?? UIViewController.wrap(r.from)
        return md.presentationController(forPresented: presented, presenting: presenting,
                                         source: UIViewController.wrap(r.source) ?? presenting ?? presented)
    }

    func askInteraction(_ exported: AnyObject, _ r: th_transition_request, _ a: UIViewControllerAnimatedTransitioning) -> UIViewControllerInteractiveTransitioning? {
        let d = effectiveDelegate(exported, r)
        switch r.container {
        case TH_CONTAINER_NAVIGATION:
            guard let nd = d as? UINavigationControllerDelegate,
                  let nav = UIViewController.wrap(r.container_controller) as? UINavigationController else { return nil }
            return nd.navigationController(nav, interactionControllerFor: a)
        case TH_CONTAINER_TAB:
            guard let td = d as? UITabBarControllerDelegate,
                  let tabs = UIViewController.wrap(r.container_controller) as? UITabBarController else { return nil }
            return td.tabBarController(tabs, interactionControllerFor: a)
        default:
            guard let md = d as? UIViewControllerTransitioningDelegate else { return nil }
            return r.operation == TH_OP_PRESENT ? md.interactionControllerForPresentation(using: a) : md.interactionControllerForDismissal(using: a)
        }
    }

    // MARK: Interaction controllers

    func interactionTable(_ i: UIViewControllerInteractiveTransitioning) -> UnsafePointer<th_interaction> {
        let key = ObjectIdentifier(i)
        if let t = interactionTables[key] { return UnsafePointer(t) }
        objects[key] = i
        let t = UnsafeMutablePointer<th_interaction>.allocate(capacity: 1)
        t.initialize(to: th_interaction(
            struct_size: UInt32(MemoryLayout<th_interaction>.size),
            wants_interactive_start: { me in
                guard let me, let i = KitPlugin.interaction(me) else { return 0 }
                return i.wantsInteractiveStart ? 1 : 0
            },
            start_interactive_transition: { me, ctx, animator in
                guard let me, let ctx, let i = KitPlugin.interaction(me) else { return }
                let c = TransHostTransitionContext.wrap(ctx)
                c.interactionAnimator = animator.flatMap { KitPlugin.current?.animator($0) }
                c.completionSpeed = i.completionSpeed
                c.completionCurve = i.completionCurve
                i.startInteractiveTransition(c)
            },
            user: Unmanaged.passUnretained(i as AnyObject).toOpaque()))
        interactionTables[key] = t
        return UnsafePointer(t)
    }

    static func interaction(_ t: UnsafePointer<th_interaction>) -> UIViewControllerInteractiveTransitioning? {
        guard let user = t.pointee.user else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(user).takeUnretainedValue() as? UIViewControllerInteractiveTransitioning
    }
}

@_cdecl("th_swift_kit_init")
public func th_swift_kit_init(_ table: UnsafePointer<th_host_api>?, _ name: UnsafePointer<CChar>?,
                              _ make: (@convention(c) () -> UnsafeMutableRawPointer?)?) -> Int32 {
    guard let table, table.pointee.abi_major == UInt32(TH_ABI_MAJOR) else { return 1 }
    hostTable = table
    guard hostCovers(minor: UInt32(TH_ABI_MINOR)) else {
        let offered = "\(table.pointee.abi_major).\(table.pointee.abi_minor)"
        hostTable = nil
        "this plugin needs transhost ABI \(TH_ABI_MAJOR).\(TH_ABI_MINOR) callbacks; the host offers \(offered): update transhost or rebuild the plugin against its kit"
            .withCString { table.pointee.log(TH_LOG_ERROR, $0) }
        return 2
    }
    guard let make, let raw = make() else { return 3 }
    KitPlugin.current = Unmanaged<KitPlugin>.fromOpaque(raw).takeRetainedValue()
    return 0
}

@_cdecl("th_swift_kit_deinit")
public func th_swift_kit_deinit() {
    KitPlugin.current = nil
    hostTable = nil
}

@_cdecl("th_swift_kit_get_animator")
public func th_swift_kit_get_animator(_ id: UnsafePointer<CChar>?) -> UnsafePointer<th_animator>? {
    guard let id else { return nil }
    return KitPlugin.current?.routedTable(String(cString: id))
}

@_cdecl("th_swift_kit_get_delegate")
public func th_swift_kit_get_delegate(_ id: UnsafePointer<CChar>?) -> UnsafePointer<th_delegate>? {
    guard let id else { return nil }
    return KitPlugin.current?.delegateTable(String(cString: id))
}
