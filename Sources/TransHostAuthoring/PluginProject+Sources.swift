extension PluginProject {
    static let cSource = """
    /* slide-in: push slides the to-view in from the right edge over the from-view, which moves a
     * third of the width left and dims; the pop (the route's reverse) slides the from-view out
     * to the right. Sizes come from the container, so every device works. A cancelled
     * interactive push puts everything back before completeTransition(false).
     * TH_PLUGIN_NAME and TH_PLUGIN_VERSION come from manifest.json, through build.sh. */
    #include "transhost.h"
    #include <string.h>

    static const th_host_api *host;        /* valid from init to deinit */
    static double kDuration = 0.4;         /* the manifest's configure defaults */
    static double kDimmed = 0.5;

    /* The host calls this right after init, with the defaults or --param values. */
    TH_EXPORT void slide_in_configure(double duration, double dimmed_alpha) {
        kDuration = duration;
        kDimmed = dimmed_alpha;
    }

    typedef struct { th_context *ctx; th_view *from, *to; double width; int pushing; } run_state;
    static run_state current;              /* the host runs one transition at a time */

    static th_affine shifted(double dx) { th_affine t = { 1, 0, 0, 1, dx, 0 }; return t; }

    static double duration(const th_animator *self, th_context *ctx) {
        (void)self; (void)ctx;
        return kDuration;
    }

    static void animations(void *user) {
        run_state *r = user;
        if (r->pushing) {
            host->view_set_transform(r->from, shifted(-r->width / 3));
            host->view_set_alpha(r->from, kDimmed);
        } else {
            host->view_set_transform(r->from, shifted(r->width));
        }
        host->view_set_transform(r->to, shifted(0));
        host->view_set_alpha(r->to, 1.0);
    }

    static void completion(int finished, void *user) {
        (void)finished;
        run_state *r = user;
        int cancelled = host->context_transition_was_cancelled(r->ctx);
        /* Leave the from-view as it was found, whether the transition completed or not. */
        host->view_set_transform(r->from, shifted(0));
        host->view_set_alpha(r->from, 1.0);
        if (cancelled) {
            host->view_set_transform(r->to, shifted(0));
            host->view_set_alpha(r->to, 1.0);
            host->view_remove_from_superview(r->to);
        }
        host->context_complete_transition(r->ctx, !cancelled);
    }

    static void animate_transition(const th_animator *self, th_context *ctx) {
        th_view *container = host->context_container(ctx);
        current.ctx = ctx;
        current.from = host->context_view(ctx, TH_KEY_FROM);
        current.to = host->context_view(ctx, TH_KEY_TO);
        current.width = host->view_bounds(container).width;
        current.pushing = host->context_operation(ctx) == TH_OP_PUSH;
        if (current.pushing) {
            host->view_add_subview(container, current.to);
            host->view_set_transform(current.to, shifted(current.width));
        } else {
            host->view_insert_subview_at(container, current.to, 0);
            host->view_set_transform(current.to, shifted(-current.width / 3));
            host->view_set_alpha(current.to, kDimmed);
        }
        th_animation_params p = { sizeof(th_animation_params), duration(self, ctx), 0.0, TH_ANIM_CURVE_EASE_IN_OUT };
        host->animate(&p, animations, completion, &current);
    }

    /* Designated initializers: th_animator grows by appending (1.3 added
     * interruptible_animator), and fields left out are NULL. */
    static const th_animator slide_in = {
        .struct_size = sizeof(th_animator), .id = "slide-in",
        .transition_duration = duration, .animate_transition = animate_transition,
    };

    static int init(const th_host_api *h) {
        if (h->abi_major != TH_ABI_MAJOR) return 1;
        host = h;
        return 0;
    }
    static void deinit(void) { host = NULL; }
    static const th_animator *get_animator(const char *id) {
        return strcmp(id, slide_in.id) == 0 ? &slide_in : NULL;
    }

    /* The one exported symbol. */
    TH_EXPORT const th_plugin_entry transhost_plugin_entry = {
        .abi_major = TH_ABI_MAJOR, .abi_minor = TH_ABI_MINOR, .struct_size = sizeof(th_plugin_entry),
        .name = TH_PLUGIN_NAME, .version = TH_PLUGIN_VERSION, .init = init, .deinit = deinit, .get_animator = get_animator,
    };

    """

    static let swiftAnimator = """
    // slide-in: push slides the to-view in from the right edge over the from-view, which moves a
    // third of the width left and dims; the pop (the route's reverse) slides the from-view out to
    // the right. Written as for UIKit; a cancelled interactive push puts everything back.
    import UIKit

    /// The manifest's configure defaults; the host calls slide_in_configure with them (or with
    /// --param values) right after init.
    nonisolated(unsafe) var slideDuration: TimeInterval = 0.4
    nonisolated(unsafe) var dimmedAlpha: CGFloat = 0.5

    @_cdecl("slide_in_configure")
    public func slideInConfigure(_ duration: Double, _ dimmed: Double) {
        slideDuration = duration
        dimmedAlpha = dimmed
    }

    final class SlideIn: NSObject, UIViewControllerAnimatedTransitioning {
        func transitionDuration(using transitionContext: UIViewControllerContextTransitioning?) -> TimeInterval { slideDuration }

        func animateTransition(using ctx: UIViewControllerContextTransitioning) {
            guard let fromView = ctx.view(forKey: .from), let toView = ctx.view(forKey: .to) else {
                ctx.completeTransition(false)
                return
            }
            let container = ctx.containerView
            let width = container.bounds.width
            let pushing = ctx.isPresenting
            if pushing {
                container.addSubview(toView)
                toView.transform = CGAffineTransform(translationX: width, y: 0)
            } else {
                container.insertSubview(toView, belowSubview: fromView)
                toView.transform = CGAffineTransform(translationX: -width / 3, y: 0)
                toView.alpha = dimmedAlpha
            }
            UIView.animate(withDuration: transitionDuration(using: ctx), animations: {
                if pushing {
                    fromView.transform = CGAffineTransform(translationX: -width / 3, y: 0)
                    fromView.alpha = dimmedAlpha
                } else {
                    fromView.transform = CGAffineTransform(translationX: width, y: 0)
                }
                toView.transform = .identity
                toView.alpha = 1
            }, completion: { _ in
                // Leave the from-view as it was found, whether the transition completed or not.
                fromView.transform = .identity
                fromView.alpha = 1
                if ctx.transitionWasCancelled { toView.removeFromSuperview() }
                ctx.completeTransition(!ctx.transitionWasCancelled)
            })
        }
    }

    """

    static let swiftExport = """
    // The export: the manifest's animator ids and the animators they name (a fresh one per transition).
    import UIKit

    @_cdecl("th_swift_plugin_make") public func transhostExport() -> UnsafeMutableRawPointer {
        TransHostExport(animators: ["slide-in": SlideIn.init]) }

    """

    static let swiftEntry = """
    /* The exported entry. TH_PLUGIN_NAME and TH_PLUGIN_VERSION come from manifest.json, through
     * build.sh; the rest is the kit's. */
    #include "transhost_swift.h"
    TH_SWIFT_PLUGIN(TH_PLUGIN_NAME, TH_PLUGIN_VERSION)

    """
}
