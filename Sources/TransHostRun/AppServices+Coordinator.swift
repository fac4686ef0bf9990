import TransHostCoordinators
import TransHostPluginHost

extension AppServices {
    /// UIViewController.transitionCoordinator: the controllers involved are the from- and
    /// to-controller, the containers they sit in (navigation, tab, parent) and, for a modal
    /// transition, the presenting one (the from- or to-controller already).
    public func runningTransition(involving vc: ViewController) -> TransitionContext? {
        guard let ctx = app.host.active?.context, ctx.didComplete == nil else { return nil }
        for c in [ctx.fromViewController, ctx.toViewController] {
            if c === vc { return ctx }
            for r in [ControllerRelation.navigation, .tab, .parent] where related(c, r) === vc { return ctx }
        }
        return nil
    }
}
