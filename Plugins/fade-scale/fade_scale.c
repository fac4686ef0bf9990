/*
 * fade-scale — the objc.io animator of seeds 003 and 004, in plain C against transhost.h.
 *
 * Push A -> B: B is added to the container with alpha 0; over 0.25 s A scales to 0.1 while B
 * fades in to alpha 1. In the completion A's transform is reset to identity and the transition
 * completes unless it was cancelled (completeTransition(!transitionWasCancelled)).
 */
#include "transhost.h"

static const th_host_api *host;

/* Parameters (seed values by default), set through the manifest's libffi entry point. */
static double kDuration = 0.25;
static double kFromScale = 0.1;

/* transhost calls this once after init with the manifest's defaults or --param overrides. */
TH_EXPORT void fade_scale_configure(double duration, double from_scale) {
    kDuration = duration;
    kFromScale = from_scale;
}

typedef struct {
    th_context *ctx;
    th_view *from_view;
    th_view *to_view;
} fade_scale_run;

/* One transition runs at a time per context; the host serializes transitions. */
static fade_scale_run current;

static double duration(const th_animator *self, th_context *ctx) {
    (void)self; (void)ctx;
    return kDuration;
}

static void animations(void *user) {
    fade_scale_run *run = (fade_scale_run *)user;
    th_affine scale = { kFromScale, 0, 0, kFromScale, 0, 0 };
    host->view_set_transform(run->from_view, scale);
    host->view_set_alpha(run->to_view, 1.0);
}

static void completion(int finished, void *user) {
    (void)finished;
    fade_scale_run *run = (fade_scale_run *)user;
    th_affine identity = { 1, 0, 0, 1, 0, 0 };
    host->view_set_transform(run->from_view, identity);
    host->context_complete_transition(run->ctx, !host->context_transition_was_cancelled(run->ctx));
}

static void animate_transition(const th_animator *self, th_context *ctx) {
    (void)self;
    current.ctx = ctx;
    current.from_view = host->context_view(ctx, TH_KEY_FROM);
    current.to_view = host->context_view(ctx, TH_KEY_TO);
    host->view_add_subview(host->context_container(ctx), current.to_view);
    host->view_set_alpha(current.to_view, 0.0);
    th_animation_params params = { sizeof(th_animation_params), duration(self, ctx), 0.0, 0 };
    host->animate(&params, animations, completion, &current);
}

static const th_animator fade_scale_animator = {
    sizeof(th_animator), "fade-scale", duration, animate_transition, NULL, NULL
};

static int init(const th_host_api *h) {
    if (h->abi_major != TH_ABI_MAJOR) return 1;
    host = h;
    return 0;
}

static void deinit(void) { host = NULL; }

static const th_animator *get_animator(const char *animator_id) {
    const char *want = fade_scale_animator.id;
    const char *p = animator_id;
    while (*p && *want && *p == *want) { p++; want++; }
    return (*p == 0 && *want == 0) ? &fade_scale_animator : NULL;
}

TH_EXPORT const th_plugin_entry transhost_plugin_entry = {
    .abi_major = TH_ABI_MAJOR, .abi_minor = TH_ABI_MINOR, .struct_size = sizeof(th_plugin_entry),
    .name = "fade-scale", .version = "1.0.0", .init = init, .deinit = deinit, .get_animator = get_animator,
};
