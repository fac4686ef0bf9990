#ifndef TRANSHOST_GIF_CHANGES_H
#define TRANSHOST_GIF_CHANGES_H
/* Private to CRenderKernels: where a GIF frame differs from the previous one, as runs of changed
   pixels row by row. Found once, while the frame is flattened (each row is compared while it is
   still in the cache), then walked by every palette pass, which so never compares the frames
   again and never visits an unchanged row. */
#include <stddef.h>
#include <stdint.h>

/* Pixels x0 ..< x1 of a row changed (GIF frames are at most 65535 pixels wide). */
typedef struct { uint16_t x0, x1; } gif_run;

typedef struct {
    gif_run *runs;      /* the runs of row y are runs[first[y] ..< first[y + 1]], left to right */
    size_t *first;      /* height + 1 entries */
    uint64_t *bits;     /* one row's changed pixels, while they are found */
    size_t run_cap, bit_cap;
    int row_cap;
    long changed;       /* pixels in all the runs */
} gif_changes;

/* Room for the runs of a w x h frame (at most one per two pixels, plus one, a row); 0 when out
   of memory. */
int gif_changes_reserve(gif_changes *c, int w, int h);
void gif_changes_free(gif_changes *c);

/* The runs of rectangle (x0, y0, x1, y1) of cur that differ from prev (all of it when prev is
   NULL); 0 when out of memory. */
int gif_changes_compare(gif_changes *c, const uint32_t *cur, const uint32_t *prev, int w, int h,
                        int x0, int y0, int x1, int y1);

/* Flattens a frame over the background into `shown`, which holds the previous frame (ignored
   when first is nonzero), writing only the pixels that differ, and records them as runs in c
   with their bounding rectangle (as th_gifq_encode documents). Returns 1, 0 when nothing
   changed, -1 when out of memory. */
int gif_flatten_into(const uint32_t *pixels, size_t stride, int w, int h, uint8_t bg_r, uint8_t bg_g, uint8_t bg_b,
                     uint32_t *shown, int first, int rect[4], gif_changes *c);

#endif
