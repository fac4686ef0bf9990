/*
 * A transhost animator plugin in C: the minimum a third party writes.
 *
 * Build out of tree:   make TRANSHOST_INCLUDE=/path/to/transhost/Sources/CTransHost/include
 * Install:             copy this directory (manifest.json + libmy-fade.so) into a plugins
 *                      directory, e.g. ~/.local/share/transhost/plugins/my-fade/
 * Check and run:       transhost list; transhost run --param my-fade.duration=0.5
 *
 * Push A -> B: B is added to the container with alpha 0 and fades in over `duration` seconds.
 * Rename "my-fade" here, in manifest.json and in the Makefile to make it yours.
 */
#include "transhost.h"

static const th_host_api *host;

/* Set by the host through libffi right after init (manifest "configure"). */
static double duration_s = 0.3;

TH_EXPORT void my_fade_configure(double duration) { duration_s = duration; }

static double transition_duration(const th_animator *self, th_context *ctx) {
    (void)self; (void)ctx;
    return duration_s;
}

/* One transition runs at a time, so one static record carries it into the callbacks. */
static struct { th_context *ctx; th_view *to; } run;

static void fade_in(void *user) {
    (void)user;
    host->view_set_alpha(run.to, 1.0);
}

static void finished(int done, void *user) {
    (void)done; (void)user;
    host->context_complete_transition(run.ctx, !host->context_transition_was_cancelled(run.ctx));
}

static void animate_transition(const th_animator *self, th_context *ctx) {
    run.ctx = ctx;
    run.to = host->context_view(ctx, TH_KEY_TO);
    host->view_add_subview(host->context_container(ctx), run.to);
    host->view_set_alpha(run.to, 0.0);
    th_animation_params params = { sizeof(th_animation_params), transition_duration(self, ctx), 0.0, TH_ANIM_CURVE_EASE_IN_OUT };
    host->animate(&params, fade_in, finished, NULL);
}

static const th_animator animator = {
    .struct_size = sizeof(th_animator), .id = "my-fade",
    .transition_duration = transition_duration, .animate_transition = animate_transition,
};

static int init(const th_host_api *h) {
    if (h->abi_major != TH_ABI_MAJOR) return 1;
    host = h;
    return 0;
}

static void deinit(void) { host = NULL; }

static const th_animator *get_animator(const char *id) {
    const char *a = animator.id;
    while (*id && *id == *a) { id++; a++; }
    return (*id == 0 && *a == 0) ? &animator : NULL;
}

TH_EXPORT const th_plugin_entry transhost_plugin_entry = {
    .abi_major = TH_ABI_MAJOR, .abi_minor = TH_ABI_MINOR, .struct_size = sizeof(th_plugin_entry),
    .name = "my-fade", .version = "0.1.0", .init = init, .deinit = deinit, .get_animator = get_animator,
};
