/* What the vector loops of this module share (private to it): the best vector level the CPU
   offers, and the split of a large rectangle's rows onto a second thread. */
#ifndef TRANSHOST_RENDER_BANDS_H
#define TRANSHOST_RENDER_BANDS_H
#include <stdint.h>

#define TH_BANDS_HIDDEN __attribute__((visibility("hidden")))

/* 2 with AVX2, 1 with SSE2, else 0 (asked of the CPU once). */
TH_BANDS_HIDDEN int th_vector_best_level(void);

/* Runs rows(job, y0, y1), or, for a rectangle of at least 64 rows and 2^17 pixels while
   th_render_may_band allows, its lower half on a second thread beside its upper half. `rows`
   must make each row's pixels depend on that row alone, so the split changes no byte. */
TH_BANDS_HIDDEN void th_band_rows(void (*rows)(const void *job, int ya, int yb), const void *job, int y0, int y1, int64_t pixels);
#endif
