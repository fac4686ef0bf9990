import CTransHost
import TransHostCore
import TransHostCoordinators

extension HostBridge {
    /// The transition context (UIViewControllerContextTransitioning).
    static func installContext(into t: inout th_host_api) {
        t.context_controller = { c, key in
            guard let b = bridge(), let ctx = b.context(c, "context_controller"), b.validKey(key, "context_controller") else { return nil }
            return b.handles.handle(for: key == TH_KEY_FROM ? ctx.fromViewController : ctx.toViewController)
        }
        t.context_view = { c, key in
            guard let b = bridge(), let ctx = b.context(c, "context_view"), b.validKey(key, "context_view") else { return nil }
            // NULL where UIKit's viewForKey: is nil (a presenter's view that stays in place).
            guard let v = ctx.view(forKey: key == TH_KEY_FROM ? .from : .to) else { return nil }
            return b.handles.handle(for: v)
        }
        t.context_container = { c in
            guard let b = bridge(), let ctx = b.context(c, "context_container") else { return nil }
            return b.handles.handle(for: ctx.containerView)
        }
        t.context_container_kind = { c in
            guard let b = bridge(), let ctx = b.context(c, "context_container_kind") else { return th_container(rawValue: 0) }
            switch ctx.container {
            case .navigation: return TH_CONTAINER_NAVIGATION
            case .tab: return TH_CONTAINER_TAB
            case .modal: return TH_CONTAINER_MODAL
            }
        }
        t.context_operation = { c in
            guard let b = bridge(), let ctx = b.context(c, "context_operation") else { return th_operation(rawValue: 0) }
            switch ctx.operation {
            case .push: return TH_OP_PUSH
            case .pop: return TH_OP_POP
            case .select: return TH_OP_SELECT
            case .present: return TH_OP_PRESENT
            case .dismiss: return TH_OP_DISMISS
            }
        }
        t.context_is_animated = { c in bridge()?.context(c, "context_is_animated")?.isAnimated == true ? 1 : 0 }
        t.context_is_interactive = { c in bridge()?.context(c, "context_is_interactive")?.isInteractive == true ? 1 : 0 }
        t.context_transition_was_cancelled = { c in
            bridge()?.context(c, "context_transition_was_cancelled")?.transitionWasCancelled == true ? 1 : 0
        }
        t.context_initial_frame = { c, vc in
            guard let b = bridge(), let ctx = b.context(c, "context_initial_frame"),
                  let v = b.controller(vc, "context_initial_frame") else { return th_rect() }
            return rect(ctx.initialFrame(for: v))
        }
        t.context_final_frame = { c, vc in
            guard let b = bridge(), let ctx = b.context(c, "context_final_frame"),
                  let v = b.controller(vc, "context_final_frame") else { return th_rect() }
            return rect(ctx.finalFrame(for: v))
        }
        t.context_complete_transition = { c, did in
            guard let b = bridge(), let ctx = b.context(c, "context_complete_transition") else { return }
            ctx.completeTransition(did != 0)
        }
    }
}
