#ifndef TRANSHOST_GIF_SEGMENT_CACHE_H
#define TRANSHOST_GIF_SEGMENT_CACHE_H
/* Private to CRenderKernels: a GIF frame's segments (gif_changes.h) as the palette's first pass
   found them, each with the number of its colour's entry, so the pass that writes the indices
   reads them back instead of finding each row's segments and looking each colour up again.
   A frame with more segments than `limit` is not kept (the index pass then finds them as the
   first pass did): the cache's memory, which a quantizer keeps between frames and GIFs, stays
   small, and a UI frame has a few thousand. */
#include <stdint.h>
#include <stdlib.h>

typedef struct { uint16_t start, end, entry; } gif_segment;

typedef struct {
    gif_segment *segs;
    size_t count, cap;
    int32_t *row_first, *row_count;   /* each row's segments: segs[row_first[y] ..< + row_count[y]] */
    uint32_t *row_frame;              /* the frame a row's segments were kept for */
    int rows;
    uint32_t frame;                   /* this frame's number (never 0) */
    int ok;                           /* every changed row of this frame is kept */
} gif_segment_cache;

enum { GIF_SEGMENT_LIMIT = 1 << 18 };

/* Starts a frame of h rows, w columns: ok unless out of memory or too wide for 16-bit columns. */
static inline void gif_segments_start(gif_segment_cache *s, int w, int h) {
    s->count = 0;
    s->ok = 0;
    if (w > 65535 || h <= 0) return;
    if (h > s->rows) {
        free(s->row_first); free(s->row_count); free(s->row_frame);
        s->row_first = malloc((size_t)h * sizeof *s->row_first);
        s->row_count = malloc((size_t)h * sizeof *s->row_count);
        s->row_frame = calloc((size_t)h, sizeof *s->row_frame);
        s->rows = s->row_first && s->row_count && s->row_frame ? h : 0;
        if (!s->rows) return;
        s->frame = 0;
    }
    if (++s->frame == 0) {   /* wrapped: no row may look kept */
        for (int y = 0; y < s->rows; y++) s->row_frame[y] = 0;
        s->frame = 1;
    }
    s->ok = 1;
}

/* Room for row y's n segments, or NULL (and the frame is not kept) past the limit or out of
   memory. */
static inline gif_segment *gif_segments_row(gif_segment_cache *s, int y, int n) {
    if (!s->ok) return NULL;
    if (s->count + (size_t)n > s->cap) {
        size_t cap = s->cap ? s->cap : 4096;
        while (cap < s->count + (size_t)n) cap *= 2;
        gif_segment *g = cap <= GIF_SEGMENT_LIMIT ? realloc(s->segs, cap * sizeof *g) : NULL;
        if (!g) { s->ok = 0; return NULL; }
        s->segs = g;
        s->cap = cap;
    }
    gif_segment *at = s->segs + s->count;
    s->row_first[y] = (int32_t)s->count;
    s->row_count[y] = n;
    s->row_frame[y] = s->frame;
    s->count += (size_t)n;
    return at;
}

/* Row y's kept segments and how many (none for a row the first pass did not visit: nothing
   changed there). Only while ok. */
static inline const gif_segment *gif_segments_of(const gif_segment_cache *s, int y, int *n) {
    if (s->row_frame[y] != s->frame) { *n = 0; return NULL; }
    *n = s->row_count[y];
    return s->segs + s->row_first[y];
}

static inline void gif_segments_free(gif_segment_cache *s) {
    free(s->segs); free(s->row_first); free(s->row_count); free(s->row_frame);
    *s = (gif_segment_cache){ 0 };
}
#endif
