import CTransHost
import TransHostCore
import TransHostCoordinators
import TransHostManifest
import TransHostRouting

/// Delegate routes (ABI 1.2): the route's delegate is asked for the animator and then for the
/// interaction controller, as UIKit asks a transitioning, navigation or tab bar delegate. A nil
/// animator means the default transition; an interaction controller whose
/// wantsInteractiveStart is true makes the transition interactive, driven by the plugin's calls
/// to update/finish/cancel.
extension PluginRuntime: TransitionInteractionProvider {
    func delegateAnimator(_ rule: RouteRule, _ request: TransitionRequest, _ query: RouteQuery) -> TransitionAnimator? {
        do {
            let p = try plugin(named: rule.plugin)
            let d = try p.delegate(rule.animator, bridge: bridge)
            var r = transitionRequest(request)
            if request.container == .navigation { announce(p.name, d, request, animated: true) }
            guard let ask = d.pointee.animator_for,
                  let a = bridge.calling(p.name, "its delegate's animator_for", { ask(d, &r) }) else { return nil }
            guard a.pointee.struct_size >= HostABI.minimumAnimatorSize, a.pointee.transition_duration != nil, a.pointee.animate_transition != nil else {
                warningHandler("plugin \(p.name): delegate \"\(rule.animator)\" returned an incomplete th_animator; the host's default transition was used for \(query.summary)")
                return nil
            }
            let id = a.pointee.id.map { String(cString: $0) } ?? rule.animator
            let animator = PluginAnimator(plugin: p, animatorID: id, animator: a, bridge: bridge)
            animator.delegate = d
            if let iid = rule.interaction, let spec = p.manifest.interactions.first(where: { $0.id == iid }) {
                setInteractionRule(InteractionRule(axis: spec.axis == "y" ? .vertical : .horizontal, threshold: spec.finishThreshold), for: animator)
            }
            return animator
        } catch {
            warningHandler("\(error); the host's default transition was used for \(query.summary)")
            return nil
        }
    }

    public func interactionController(for request: TransitionRequest, animator: TransitionAnimator) -> InteractionController? {
        guard let a = animator as? PluginAnimator, let d = a.delegate, let ask = d.pointee.interaction_for else { return nil }
        var r = transitionRequest(request)
        guard let i = bridge.calling(a.plugin.name, "its delegate's interaction_for", { ask(d, &r, a.animator) }) else { return nil }
        guard i.pointee.struct_size >= UInt32(MemoryLayout<th_interaction>.size), i.pointee.start_interactive_transition != nil else {
            warningHandler("plugin \(a.plugin.name): its delegate returned an incomplete th_interaction; the transition ran on its own")
            return nil
        }
        if let wants = i.pointee.wants_interactive_start, bridge.calling(a.plugin.name, "its wants_interactive_start", { wants(i) }) == 0 {
            return nil
        }
        let controller = InteractionController()
        controller.warningHandler = { [weak self] in self?.warningHandler($0) }
        a.interaction = i
        bridge.pluginInteractions.append(controller)
        return controller
    }

    /// After a transition ended: the navigation delegate that decided it hears didShow when it
    /// completed (not after a cancel: the controller it was told about is not shown).
    public func transitionEnded(_ record: TransitionRecord) {
        guard let (plugin, d, request, animated) = pendingShow else { return }
        pendingShow = nil
        guard record.outcome == .completed, record.container == .navigation, let show = d.pointee.navigation_show else { return }
        var r = transitionRequest(request)
        bridge.calling(plugin, "its delegate's navigation_show") { show(d, &r, 1, animated ? 1 : 0) }
    }

    /// willShow for the delegate `d` of plugin `plugin`; didShow follows in transitionEnded.
    private func announce(_ plugin: String, _ d: UnsafePointer<th_delegate>, _ request: TransitionRequest, animated: Bool) {
        pendingShow = nil
        guard let show = d.pointee.navigation_show else { return }
        var r = transitionRequest(request)
        bridge.calling(plugin, "its delegate's navigation_show") { show(d, &r, 0, animated ? 1 : 0) }
        pendingShow = (plugin, d, request, animated)
    }
}

extension PluginRuntime {
    func transitionRequest(_ request: TransitionRequest) -> th_transition_request {
        let h = bridge.handles
        let containerKind: th_container
        switch request.container {
        case .navigation: containerKind = TH_CONTAINER_NAVIGATION
        case .tab: containerKind = TH_CONTAINER_TAB
        case .modal: containerKind = TH_CONTAINER_MODAL
        }
        let op: th_operation
        switch request.operation {
        case .push: op = TH_OP_PUSH
        case .pop: op = TH_OP_POP
        case .select: op = TH_OP_SELECT
        case .present: op = TH_OP_PRESENT
        case .dismiss: op = TH_OP_DISMISS
        }
        let containerController: ViewController?
        switch request.container {
        case .navigation: containerController = bridge.app?.related(request.to, .navigation) ?? bridge.app?.related(request.from, .navigation)
        case .tab: containerController = bridge.app?.related(request.to, .tab) ?? bridge.app?.related(request.from, .tab)
        case .modal: containerController = request.operation == .present ? request.from : request.to
        }
        let presenting = request.operation == .present ? h.handle(for: request.from) : nil
        return th_transition_request(struct_size: UInt32(MemoryLayout<th_transition_request>.size), container: containerKind, operation: op,
                                     from: h.handle(for: request.from), to: h.handle(for: request.to),
                                     container_controller: containerController.map { h.handle(for: $0) },
                                     presenting: presenting,
                                     source: request.operation == .present ? h.handle(for: request.source ?? request.from) : nil)
    }
}

extension PluginRuntime: NavigationShowListener {
    /// An unanimated push or pop: the delegate its route names hears willShow (animated 0) and,
    /// once it completed, didShow, as UIKit's navigation delegate does.
    public func navigationWillShow(_ request: TransitionRequest, animated: Bool) {
        let query = RouteQuery(container: request.container, operation: request.operation, from: request.from.typeName, to: request.to.typeName)
        guard let winner = router.resolve(query).winner, winner.rule.isDelegate,
              let p = try? plugin(named: winner.rule.plugin), let d = try? p.delegate(winner.rule.animator, bridge: bridge) else { return }
        announce(p.name, d, request, animated: animated)
    }
}
