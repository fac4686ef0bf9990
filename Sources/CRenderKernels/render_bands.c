#include "render_kernels.h"
#include "render_bands.h"
#include <pthread.h>
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

int th_vector_best_level(void) {
    static _Atomic int best = -1; /* renderers on several threads may ask at once */
    int b = atomic_load_explicit(&best, memory_order_relaxed);
    if (b >= 0) return b;
    b = 0;
#if defined(__SSE2__)
    b = 1;
#endif
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx2")) b = 2;
#endif
    atomic_store_explicit(&best, b, memory_order_relaxed);
    return b;
}

typedef struct { void (*rows)(const void *, int, int); const void *job; int ya, yb; } band;

static void *band_run(void *arg) {
    const band *b = (const band *)arg;
    b->rows(b->job, b->ya, b->yb);
    return 0;
}

/* Below this many destination pixels a second thread costs more than it saves. */
enum { BAND_PIXELS = 1 << 17, BAND_ROWS = 64 };

void th_band_rows(void (*rows)(const void *job, int ya, int yb), const void *job, int y0, int y1, int64_t pixels) {
    if (th_render_may_band() && y1 - y0 >= BAND_ROWS && pixels >= BAND_PIXELS) {
        const int mid = y0 + (y1 - y0) / 2;
        band lower = {rows, job, mid, y1};
        pthread_t t;
        if (pthread_create(&t, 0, band_run, &lower) == 0) {
            rows(job, y0, mid);
            pthread_join(t, 0);
            return;
        }
    }
    rows(job, y0, y1);
}

