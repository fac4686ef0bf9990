#include "render_kernels.h"
#include <stdatomic.h>
#include <unistd.h>

/* Whether a composite may split its rows onto a second thread (see render_kernels.h): the
   span loops and the pixman-exact loops ask, and so does the Swift side for pixman calls. */

/* Renderers drawing at this moment on threads of their own (a run's export pool). */
static _Atomic int busy_renderers = 0;

void th_render_busy_enter(void) { atomic_fetch_add_explicit(&busy_renderers, 1, memory_order_relaxed); }
void th_render_busy_leave(void) { atomic_fetch_sub_explicit(&busy_renderers, 1, memory_order_relaxed); }

int th_render_may_band(void) {
    static _Atomic int cores = 0; /* renderers on several threads may ask at once */
    int c = atomic_load_explicit(&cores, memory_order_relaxed);
    if (c == 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        c = n > 1 ? (int)n : 1;
        atomic_store_explicit(&cores, c, memory_order_relaxed);
    }
    return c > 1 && atomic_load_explicit(&busy_renderers, memory_order_relaxed) < c;
}
