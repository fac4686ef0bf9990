#ifndef TRANSHOST_GIF_CHANGES_H
#define TRANSHOST_GIF_CHANGES_H
/* Private to CRenderKernels: where a GIF frame differs from the previous one. Found once, while
   the frame is flattened (each row is compared while it is still in registers), as two bitmaps:
   the pixels that changed, and the colour edges (pixels of another colour than their left
   neighbour). Every palette pass then walks a row's segments, maximal stretches of changed
   pixels of one colour, found from those bits a word at a time: no pass compares the frames or
   scans a colour run again. */
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint64_t *changed, *edges;  /* wpr words a row, bit x % 64 of word x / 64 for pixel x */
    int *starts, *ends;         /* one row's segments while a pass walks them */
    size_t word_cap;
    int seg_cap, wpr, w;
    long count;                 /* changed pixels */
} gif_changes;

/* Room for a w x h frame; 0 when out of memory. */
int gif_changes_reserve(gif_changes *c, int w, int h);
void gif_changes_free(gif_changes *c);

/* The changes of rectangle (x0, y0, x1, y1) of cur against prev (all of it when prev is NULL);
   0 when out of memory. */
int gif_changes_compare(gif_changes *c, const uint32_t *cur, const uint32_t *prev, int w, int h,
                        int x0, int y0, int x1, int y1);

/* Flattens a frame over the background into `shown`, which holds the previous frame (ignored
   when first is nonzero), writing only the pixels that differ, and records the changes with
   their bounding rectangle (as th_gifq_encode documents); outside `hint` (NULL: nowhere) the
   frame is known to equal the previous one and is not read. Each row that changed is handed to
   row_done (its pixels in `shown`) as soon as its bits are set, while it is in the cache.
   Returns 1, 0 when nothing changed, -1 when out of memory. */
int gif_flatten_into(const uint32_t *pixels, size_t stride, int w, int h, uint8_t bg_r, uint8_t bg_g, uint8_t bg_b,
                     uint32_t *shown, int first, const int *hint, int rect[4], gif_changes *c,
                     void (*row_done)(void *ctx, const uint32_t *row, int y), void *ctx);

/* The segments of row y into c->starts / c->ends (pixels starts[i] ..< ends[i], left to right);
   how many. A segment starts at a changed pixel whose left neighbour is unchanged or of another
   colour, and ends before the first pixel that is unchanged or of another colour. */
static inline int gif_row_segments(gif_changes *c, int y, int w) {
    const uint64_t *ch = c->changed + (size_t)y * (size_t)c->wpr, *ed = c->edges + (size_t)y * (size_t)c->wpr;
    int ns = 0, ne = 0;
    uint64_t carry = 0;
    for (int k = 0; k < c->wpr; k++) {
        uint64_t m = ch[k];
        if (!m && !carry) continue;
        uint64_t before = (m << 1) | carry, e = ed[k];
        uint64_t s = m & (e | ~before), t = before & (~m | e);
        carry = m >> 63;
        for (; s; s &= s - 1) c->starts[ns++] = k * 64 + __builtin_ctzll(s);
        for (; t; t &= t - 1) c->ends[ne++] = k * 64 + __builtin_ctzll(t);
    }
    if (carry) c->ends[ne++] = w;
    return ns;
}

#endif
