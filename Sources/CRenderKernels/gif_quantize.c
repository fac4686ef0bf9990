#include "gif_quantizer.h"
#include "zeroed_pages.h"
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static const uint8_t bayer[8][8] = {
    { 0, 32,  8, 40,  2, 34, 10, 42}, {48, 16, 56, 24, 50, 18, 58, 26},
    {12, 44,  4, 36, 14, 46,  6, 38}, {60, 28, 52, 20, 62, 30, 54, 22},
    { 3, 35, 11, 43,  1, 33,  9, 41}, {51, 19, 59, 27, 49, 17, 57, 25},
    {15, 47,  7, 39, 13, 45,  5, 37}, {63, 31, 55, 23, 61, 29, 53, 21},
};

static inline int ch(uint32_t c, int k) { return (int)((c >> (16 - 8 * k)) & 255); }
static inline uint32_t bin_of(uint32_t c) { return ((c >> 9) & 0x7c00) | ((c >> 6) & 0x3e0) | ((c >> 3) & 0x1f); }

th_gif_quantizer *th_gifq_create(void) {
    /* Mapped with every page written at once (th_map_zeroed_pages), not calloc'd: calloc's
       fresh pages would be the kernel's shared zero page until written, and the counters are
       read before they are written (count[b]++), so each page would fault twice, the second
       time flushing the TLB of every core the process runs on. (A malloc and memset would be
       turned back into calloc.) */
    void *p = th_map_zeroed_pages(sizeof(th_gif_quantizer));
    if (!p) return NULL;
    th_gif_quantizer *q = p;
    q->bits = MIN_BITS;
    return q;
}

void th_gifq_reset(th_gif_quantizer *q) {
    /* As th_gifq_create leaves it; the changes' buffers are kept (every frame writes all of
       their rows before reading them). */
    gif_changes keep = q->changes;
    gif_segment_cache segments = q->segments;
    memset(q, 0, offsetof(th_gif_quantizer, keys));
    q->changes = keep;
    q->segments = segments;
    q->bits = MIN_BITS;
}

void th_gifq_destroy(th_gif_quantizer *q) {
    if (!q) return;
    gif_changes_free(&q->changes);
    gif_segments_free(&q->segments);
    munmap(q, sizeof *q);
}

/* Sorts the first n kept colours most pixels first, colour value breaking ties (the colours
   are distinct, so the order is total and any sort gives it). Each becomes one 64-bit key, the
   complement of its count above its colour, sorted ascending by a radix sort over the bytes
   that differ between keys: qsort's comparisons through a function pointer were about 1.6% of
   the gallery's CPU samples (perf), this 0.2%. */
static void sort_kept(th_gif_quantizer *q, int n) {
    if (n < 2) return;
    uint64_t *a = q->keys[0], *b = q->keys[1], any = 0, all = ~0ull;
    for (int i = 0; i < n; i++) {
        uint64_t k = (uint64_t)(0xffffffffu - q->kept[i][0]) << 32 | q->kept[i][1];
        a[i] = k; any |= k; all &= k;
    }
    if (n <= 32) {   /* a few colours: insertion */
        for (int i = 1; i < n; i++) {
            uint64_t k = a[i];
            int j = i;
            for (; j > 0 && a[j - 1] > k; j--) a[j] = a[j - 1];
            a[j] = k;
        }
    } else {
        for (int shift = 0; shift < 64; shift += 8) {
            if ((((any ^ all) >> shift) & 0xff) == 0) continue;   /* every key has this byte */
            int start[257] = { 0 };
            for (int i = 0; i < n; i++) start[((a[i] >> shift) & 0xff) + 1]++;
            for (int v = 0; v < 256; v++) start[v + 1] += start[v];
            for (int i = 0; i < n; i++) b[start[(a[i] >> shift) & 0xff]++] = a[i];
            uint64_t *t = a; a = b; b = t;
        }
    }
    for (int i = 0; i < n; i++) {
        q->kept[i][0] = 0xffffffffu - (uint32_t)(a[i] >> 32);
        q->kept[i][1] = (uint32_t)a[i];
    }
}

static inline int close_to(uint32_t a, uint32_t b) {
    for (int k = 0; k < 3; k++) { int d = ch(a, k) - ch(b, k); if (d > GRADIENT_STEP || d < -GRADIENT_STEP) return 0; }
    return 1;
}

static inline uint32_t hash(uint32_t c) { return c * 2654435761u; }

/* The table in use is the first 2^bits slots, at most half full: frames of a few hundred
   colours keep it in the cache. Doubling it moves every entry to its new slot. */
static void exact_grow(th_gif_quantizer *q, int nused) {
    for (int u = 0; u < nused; u++) {
        exact_entry *e = &q->table[q->used_slots[u]];
        q->kept[u][0] = e->key; q->kept[u][1] = (uint32_t)e->value;
        *e = (exact_entry){ 0, 0 };
    }
    q->bits++;
    uint32_t mask = (1u << q->bits) - 1;
    for (int u = 0; u < nused; u++) {
        uint32_t slot = hash(q->kept[u][0] - 1) >> (32 - q->bits);
        while (q->table[slot].key) slot = (slot + 1) & mask;
        q->table[slot] = (exact_entry){ q->kept[u][0], (int32_t)q->kept[u][1] };
        q->used_slots[u] = (int32_t)slot;
    }
}

/* The entry for colour c, inserted if new; NULL when the table is full. */
static exact_entry *exact_find(th_gif_quantizer *q, uint32_t c, int *nused) {
    for (;;) {
        uint32_t mask = (1u << q->bits) - 1, slot = hash(c) >> (32 - q->bits);
        for (;; slot = (slot + 1) & mask) {
            exact_entry *e = &q->table[slot];
            if (e->key == c + 1) return e;
            if (e->key == 0) break;
        }
        if (*nused >= EXACT_MAX) return NULL;
        if (2 * (*nused + 1) <= (1 << q->bits)) {
            q->table[slot] = (exact_entry){ c + 1, *nused };
            q->used_slots[(*nused)++] = (int32_t)slot;
            return &q->table[slot];
        }
        exact_grow(q, *nused);
    }
}

static inline void put_colour(uint8_t *pal, int i, uint32_t c) {
    pal[i * 3] = (uint8_t)ch(c, 0); pal[i * 3 + 1] = (uint8_t)ch(c, 1); pal[i * 3 + 2] = (uint8_t)ch(c, 2);
}

/* How many of the kept colours (most pixels first) get exact entries when they do not all fit:
   those covering more than one pixel, leaving room for what median cut must share out. */
static int reserve_count(th_gif_quantizer *q, int nkept, int avail) {
    int n = 0;
    while (n < nkept && q->kept[n][0] >= MIN_KEPT) n++;
    return n > avail - MIN_GRADIENT_ENTRIES ? avail - MIN_GRADIENT_ENTRIES : n;
}

/* The index of a pixel whose colour has no exact entry. A gradient (some neighbour differs,
   and every neighbour is close) is dithered; edges and flat areas get the nearest colour
   undithered. */
static uint8_t shade(th_gif_quantizer *q, const uint32_t *cur, int w, int h, int x, int y, const uint8_t *pal,
                     int opaque, th_gifq_result *res) {
    size_t i = (size_t)y * (size_t)w + (size_t)x;
    uint32_t c = cur[i];
    int differs = 0, smooth = 1;
    if (x > 0) { uint32_t v = cur[i - 1]; differs |= v != c; smooth &= close_to(v, c); }
    if (x + 1 < w) { uint32_t v = cur[i + 1]; differs |= v != c; smooth &= close_to(v, c); }
    if (y > 0) { uint32_t v = cur[i - (size_t)w]; differs |= v != c; smooth &= close_to(v, c); }
    if (y + 1 < h) { uint32_t v = cur[i + (size_t)w]; differs |= v != c; smooth &= close_to(v, c); }
    uint32_t key = c;
    if (differs && smooth) {
        int off = ((int)bayer[y & 7][x & 7] * 2 + 1 - 64) * DITHER_SPREAD / 128;
        int v[3];
        for (int k = 0; k < 3; k++) { v[k] = ch(c, k) + off; if (v[k] < 0) v[k] = 0; if (v[k] > 255) v[k] = 255; }
        key = ((uint32_t)v[0] << 16) | ((uint32_t)v[1] << 8) | (uint32_t)v[2];
        res->dithered++;
    }
    cache_entry *e = &q->cache[hash(key) >> (32 - CACHE_BITS)];
    if (e->gen != q->gen || e->tag >> 8 != key) {
        e->gen = q->gen;
        e->tag = key << 8 | (uint32_t)nearest(&q->near, pal, opaque, ch(key, 0), ch(key, 1), ch(key, 2));
    }
    uint8_t index = (uint8_t)e->tag;
    if (res->exact) {
        const uint8_t *p = pal + index * 3;
        if (p[0] != ch(c, 0) || p[1] != ch(c, 1) || p[2] != ch(c, 2)) res->exact = 0;
    }
    return index;
}

/* Pass 2 of a frame with too many colours to count: each changed pixel votes in its bin, in
   reading order; a segment of k pixels of one colour votes k times at once. */
static int bin_vote(th_gif_quantizer *q, uint32_t c, uint32_t k, int ntouched) {
    uint32_t b = bin_of(c);
    if (q->count[b] == 0) { q->touched[ntouched++] = (int32_t)b; q->cand[b] = c; q->vote[b] = 0; q->reserved[b] = -1; }
    q->count[b] += k;
    for (int j = 0; j < 3; j++) q->sum[b][j] += (uint64_t)ch(c, j) * k;
    int32_t v = q->vote[b];
    if (v == 0 || q->cand[b] == c) { q->cand[b] = c; q->vote[b] = v + (int32_t)k; }
    else if ((int32_t)k <= v) q->vote[b] = v - (int32_t)k;
    else { q->cand[b] = c; q->vote[b] = (int32_t)k - v; }
    return ntouched;
}

/* n bytes of v at o: segments are mostly short, where memset's set-up costs more than the loop. */
static inline void fill(uint8_t *o, int v, int n) {
    if (n > 16) { memset(o, v, (size_t)n); return; }
    for (int i = 0; i < n; i++) o[i] = (uint8_t)v;
}

/* Pass 1: every colour to encode, counted exactly, a segment at a time, row by row (while
   th_gifq_encode flattens the frame, each row as soon as it is compared). UI frames are mostly
   long segments of a few colours, so the entry of the previous segment's colour is tried
   before the hash table. Each segment is kept with its colour's entry (gif_segment_cache.h)
   for pass 3. */
static void count_start(th_gif_quantizer *q, int w, int h) {
    q->nused = 0; q->overflow = 0; q->last = NULL; q->last_colour = 0;
    gif_segments_start(&q->segments, w, h);
}

static void count_row(void *ctx, const uint32_t *p, int y) {
    th_gif_quantizer *q = ctx;
    if (q->overflow) return;
    gif_changes *cg = &q->changes;
    int ns = gif_row_segments(cg, y, cg->w);
    gif_segment *segs = gif_segments_row(&q->segments, y, ns);
    for (int i = 0; i < ns; i++) {
        uint32_t c = p[cg->starts[i]];
        if (!q->last || q->last_colour != c) {
            exact_entry *e = exact_find(q, c, &q->nused);
            if (!e) { q->overflow = 1; return; }
            q->last = e; q->last_colour = c;
        }
        int entry = q->last->value;
        q->pixels[entry] += (uint32_t)(cg->ends[i] - cg->starts[i]);
        if (segs) segs[i] = (gif_segment){ (uint16_t)cg->starts[i], (uint16_t)cg->ends[i], (uint16_t)entry };
    }
}

/* A frame's palette and indices, for the changed pixels q->changes holds (counted by pass 1
   already when `counted`). */
static th_gifq_result quantise(th_gif_quantizer *q, const uint32_t *cur, int w, int h, int x0, int y0, int x1, int y1,
                               uint8_t *pal, uint8_t *out, int counted) {
    th_gifq_result res = { 0, -1, 1, 0 };
    gif_changes *cg = &q->changes;
    if (!counted) {
        count_start(q, w, h);
        for (int y = y0; y < y1; y++) count_row(q, cur + (size_t)y * (size_t)w, y);
    }
    int nused = q->nused, overflow = q->overflow, ntouched = 0;
    long changed = cg->count, unchanged = (long)(x1 - x0) * (long)(y1 - y0) - changed;
    int avail = unchanged > 0 ? 255 : 256;
    int nkept = 0, nres = 0, nitems = 0;
    if (!overflow) {
        for (int u = 0; u < nused; u++) {
            exact_entry *e = &q->table[q->used_slots[u]];
            q->kept[nkept][0] = q->pixels[u]; q->kept[nkept][1] = e->key - 1; nkept++;
            e->value = -1;
        }
        sort_kept(q, nkept);
        nres = nkept <= avail ? nkept : reserve_count(q, nkept, avail);
        for (int r = nres; r < nkept; r++) {
            uint32_t c = q->kept[r][1];
            q->items[nitems++] = (item){ { (uint8_t)ch(c, 0), (uint8_t)ch(c, 1), (uint8_t)ch(c, 2) }, q->kept[r][0] };
        }
        for (int r = 0; r < nres; r++) exact_find(q, q->kept[r][1], &nused)->value = r;
    } else {
        /* Too many colours to count one by one: bins with their sums and majority colours, then
           how many pixels each majority colour really covers. */
        for (int y = y0; y < y1; y++) {
            const uint32_t *p = cur + (size_t)y * (size_t)w;
            int ns = gif_row_segments(cg, y, w);
            for (int i = 0; i < ns; i++)
                ntouched = bin_vote(q, p[cg->starts[i]], (uint32_t)(cg->ends[i] - cg->starts[i]), ntouched);
        }
        for (int y = y0; y < y1; y++) {
            const uint32_t *p = cur + (size_t)y * (size_t)w;
            int ns = gif_row_segments(cg, y, w);
            for (int i = 0; i < ns; i++) {
                uint32_t c = p[cg->starts[i]];
                if (q->cand[bin_of(c)] == c) q->exact[bin_of(c)] += (uint32_t)(cg->ends[i] - cg->starts[i]);
            }
        }
        for (int t = 0; t < ntouched; t++) {
            uint32_t b = (uint32_t)q->touched[t];
            q->kept[nkept][0] = q->exact[b]; q->kept[nkept][1] = q->cand[b]; nkept++;
        }
        sort_kept(q, nkept);
        nres = reserve_count(q, nkept, avail);
        for (int r = 0; r < nres; r++) q->reserved[bin_of(q->kept[r][1])] = (int16_t)r;
        /* What is left of each bin once its kept colour has its own entry. */
        for (int t = 0; t < ntouched; t++) {
            uint32_t b = (uint32_t)q->touched[t];
            uint64_t wgt = q->count[b], s[3] = { q->sum[b][0], q->sum[b][1], q->sum[b][2] };
            if (q->reserved[b] >= 0) {
                wgt -= q->exact[b];
                for (int k = 0; k < 3; k++) s[k] -= (uint64_t)ch(q->cand[b], k) * q->exact[b];
            }
            if (wgt == 0) continue;
            item it;
            for (int k = 0; k < 3; k++) it.c[k] = (uint8_t)((s[k] + wgt / 2) / wgt);
            it.w = (uint32_t)wgt;
            q->items[nitems++] = it;
        }
    }
    for (int r = 0; r < nres; r++) put_colour(pal, r, q->kept[r][1]);
    int n = nres;
    if (nitems > 0) {
        if (nres + nitems <= avail) {
            for (int i = 0; i < nitems; i++) for (int k = 0; k < 3; k++) pal[(n + i) * 3 + k] = q->items[i].c[k];
            n += nitems;
        } else {
            n += median_cut(q->items, q->scratch, nitems, avail - nres, pal + n * 3);
        }
    }
    if (n == 0 && changed > 0) { pal[0] = pal[1] = pal[2] = 0; n = 1; }
    if (unchanged > 0) { res.transparent = n; pal[n * 3] = pal[n * 3 + 1] = pal[n * 3 + 2] = 0; n++; }
    res.colors = n;
    int opaque = res.transparent >= 0 ? n - 1 : n;

    /* Pass 3: indices. */
    nearest_prepare(&q->near, pal, opaque);
    q->gen++;
    if (q->gen == 0) { memset(q->cache, 0, sizeof q->cache); q->gen = 1; }
    /* The exact index of the last colour looked up (exact entries do not depend on the
       position, unlike dithered pixels, so a run reuses it). */
    int run_index = -1;
    uint32_t run_colour = 0;
    const int rw = x1 - x0;
    const uint8_t clear = (uint8_t)res.transparent;
    /* Pass 1's segments, each with its entry's index, when it kept them all. */
    const int cached = !overflow && q->segments.ok;
    if (cached) for (int u = 0; u < nused; u++) q->index_of[u] = (int16_t)q->table[q->used_slots[u]].value;
    for (int y = y0; y < y1; y++) {
        const uint32_t *p = cur + (size_t)y * (size_t)w;
        uint8_t *o = out + (size_t)(y - y0) * (size_t)rw - x0;
        int ns, gap = x0;
        const gif_segment *segs = cached ? gif_segments_of(&q->segments, y, &ns) : NULL;
        if (!cached) ns = gif_row_segments(cg, y, w);
        for (int i = 0; i < ns; i++) {
            int s, e, index = -1;
            if (segs) {
                s = segs[i].start; e = segs[i].end;
                index = q->index_of[segs[i].entry];
            } else {
                s = cg->starts[i]; e = cg->ends[i];
                uint32_t c = p[s];
                if (!overflow) {
                    if (run_index >= 0 && run_colour == c) index = run_index;
                    else {
                        exact_entry *en = exact_find(q, c, &nused);
                        if (en->value >= 0) { index = en->value; run_index = index; run_colour = c; }
                    }
                } else {
                    uint32_t b = bin_of(c);
                    if (q->reserved[b] >= 0 && q->cand[b] == c) index = q->reserved[b];
                }
            }
            /* The unchanged pixels before the segment are transparent (segments are in reading
               order; with every pixel changed they leave no gaps). */
            fill(o + gap, clear, s - gap);
            gap = e;
            if (index >= 0) fill(o + s, index, e - s);
            else for (int x = s; x < e; x++) o[x] = shade(q, cur, w, h, x, y, pal, opaque, &res);
        }
        fill(o + gap, clear, x1 - gap);
    }
    /* Leave the tables empty for the next frame. */
    for (int u = 0; u < nused; u++) {
        exact_entry *e = &q->table[q->used_slots[u]];
        *e = (exact_entry){ 0, 0 };
        q->pixels[u] = 0;
    }
    for (int t = 0; t < ntouched; t++) {
        uint32_t b = (uint32_t)q->touched[t];
        q->count[b] = 0; q->exact[b] = 0; q->vote[b] = 0; q->reserved[b] = -1;
        q->sum[b][0] = q->sum[b][1] = q->sum[b][2] = 0;
    }
    return res;
}

th_gifq_result th_gifq_frame(th_gif_quantizer *q, const uint32_t *cur, const uint32_t *prev, int w, int h,
                             int x0, int y0, int x1, int y1, uint8_t *pal, uint8_t *out) {
    if (!gif_changes_compare(&q->changes, cur, prev, w, h, x0, y0, x1, y1)) return (th_gifq_result){ 0, -1, 0, 0 };
    return quantise(q, cur, w, h, x0, y0, x1, y1, pal, out, 0);
}

th_gifq_result th_gifq_encode(th_gif_quantizer *q, const uint32_t *pixels, size_t stride, int w, int h,
                              uint8_t bg_r, uint8_t bg_g, uint8_t bg_b, uint32_t *shown, int first, const int *hint,
                              int rect[4], uint8_t *pal, uint8_t *out) {
    count_start(q, w, h);
    if (gif_flatten_into(pixels, stride, w, h, bg_r, bg_g, bg_b, shown, first, hint, rect, &q->changes, count_row, q) < 0)
        return (th_gifq_result){ 0, -1, 0, 0 };
    return quantise(q, shown, w, h, rect[0], rect[1], rect[2], rect[3], pal, out, 1);
}

int th_gifq_nearest(const uint8_t *palette, int n, int r, int g, int b, int path) {
    if (n < 1 || n > 256) return -1;
    nearest_table t;
    nearest_prepare(&t, palette, n);
    switch (path) {
    case 0: return nearest_scalar(palette, n, r, g, b);
#if defined(__SSE2__)
    case 1: t.wide = 0; return nearest(&t, palette, n, r, g, b);
#endif
#ifdef NEAREST_AVX2
    case 2: return th_vector_best_level() >= 2 ? nearest_avx2(&t, r, g, b) : -1;
#endif
    default: return -1;
    }
}
