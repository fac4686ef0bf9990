#include "gif_quantize.h"
#include "pixel_runs.h"
#include <stdlib.h>
#include <string.h>

/* Each frame's colours are counted exactly while there are at most EXACT_MAX of them; past
   that (photos, long gradients) they are binned on 5 bits per channel, each bin remembering its
   majority colour (Boyer-Moore vote), so a flat fill is still found exactly. */
enum {
    NBINS = 1 << 15, EXACT_BITS = 16, EXACT_MAX = 1 << 15, CACHE_BITS = 16,
    MIN_KEPT = 2, MIN_GRADIENT_ENTRIES = 64, GRADIENT_STEP = 12, DITHER_SPREAD = 12
};

typedef struct { uint32_t colour; uint32_t gen; uint8_t index; } cache_entry;
typedef struct { uint32_t colour, count; int16_t index; uint8_t used; } exact_entry;
typedef struct { uint8_t c[3]; uint32_t w; } item;

struct th_gif_quantizer {
    exact_entry table[1 << EXACT_BITS];
    int32_t used_slots[EXACT_MAX];
    uint32_t count[NBINS], exact[NBINS], cand[NBINS];
    int32_t vote[NBINS];
    uint64_t sum[NBINS][3];
    int16_t reserved[NBINS];
    int32_t touched[NBINS];
    uint32_t kept[EXACT_MAX][2];
    item items[EXACT_MAX], scratch[EXACT_MAX];
    cache_entry cache[1 << CACHE_BITS];
    uint32_t gen;
};

static const uint8_t bayer[8][8] = {
    { 0, 32,  8, 40,  2, 34, 10, 42}, {48, 16, 56, 24, 50, 18, 58, 26},
    {12, 44,  4, 36, 14, 46,  6, 38}, {60, 28, 52, 20, 62, 30, 54, 22},
    { 3, 35, 11, 43,  1, 33,  9, 41}, {51, 19, 59, 27, 49, 17, 57, 25},
    {15, 47,  7, 39, 13, 45,  5, 37}, {63, 31, 55, 23, 61, 29, 53, 21},
};

static inline int ch(uint32_t c, int k) { return (int)((c >> (16 - 8 * k)) & 255); }
static inline uint32_t bin_of(uint32_t c) { return ((c >> 9) & 0x7c00) | ((c >> 6) & 0x3e0) | ((c >> 3) & 0x1f); }

th_gif_quantizer *th_gifq_create(void) {
    th_gif_quantizer *q = calloc(1, sizeof *q);
    return q;
}

void th_gifq_destroy(th_gif_quantizer *q) { free(q); }

/* Most pixels first; colour value breaks ties so the order is total. */
static int by_count(const void *pa, const void *pb) {
    const uint32_t *a = pa, *b = pb;
    if (a[0] != b[0]) return a[0] > b[0] ? -1 : 1;
    return a[1] < b[1] ? -1 : (a[1] > b[1]);
}

/* Stable counting sort of items[lo, hi) by channel k (no globals: GIFs are written on several
   threads at once). */
static void sort_items(item *items, item *scratch, int lo, int hi, int k) {
    int start[257] = {0};
    for (int i = lo; i < hi; i++) start[items[i].c[k] + 1]++;
    for (int v = 0; v < 256; v++) start[v + 1] += start[v];
    for (int i = lo; i < hi; i++) scratch[lo + start[items[i].c[k]]++] = items[i];
    memcpy(items + lo, scratch + lo, (size_t)(hi - lo) * sizeof *items);
}

typedef struct { int lo, hi; } box;

static void box_stats(const item *items, box b, int *range, int *axis, uint64_t *weight) {
    int mn[3] = {255, 255, 255}, mx[3] = {0, 0, 0};
    uint64_t w = 0;
    for (int i = b.lo; i < b.hi; i++) {
        for (int k = 0; k < 3; k++) {
            if (items[i].c[k] < mn[k]) mn[k] = items[i].c[k];
            if (items[i].c[k] > mx[k]) mx[k] = items[i].c[k];
        }
        w += items[i].w;
    }
    *axis = 0;
    for (int k = 1; k < 3; k++) if (mx[k] - mn[k] > mx[*axis] - mn[*axis]) *axis = k;
    *range = mx[*axis] - mn[*axis];
    *weight = w;
}

/* Median cut of items[0, n) into at most k boxes; writes each box's weighted mean. */
static int median_cut(th_gif_quantizer *q, int n, int k, uint8_t *out_rgb) {
    if (n == 0 || k <= 0) return 0;
    box boxes[256];
    int nb = 1;
    boxes[0] = (box){0, n};
    while (nb < k) {
        int best = -1, axis = 0;
        uint64_t best_score = 0;
        for (int i = 0; i < nb; i++) {
            if (boxes[i].hi - boxes[i].lo < 2) continue;
            int range, ax;
            uint64_t w;
            box_stats(q->items, boxes[i], &range, &ax, &w);
            uint64_t score = (uint64_t)range * w;
            if (range > 0 && score > best_score) { best_score = score; best = i; axis = ax; }
        }
        if (best < 0) break;
        box b = boxes[best];
        sort_items(q->items, q->scratch, b.lo, b.hi, axis);
        uint64_t total = 0, acc = 0;
        for (int i = b.lo; i < b.hi; i++) total += q->items[i].w;
        int split = b.lo + 1;
        for (int i = b.lo; i < b.hi - 1; i++) {
            acc += q->items[i].w;
            split = i + 1;
            if (acc * 2 >= total) break;
        }
        boxes[best] = (box){b.lo, split};
        boxes[nb++] = (box){split, b.hi};
    }
    for (int i = 0; i < nb; i++) {
        uint64_t w = 0, s[3] = {0, 0, 0};
        for (int j = boxes[i].lo; j < boxes[i].hi; j++) {
            w += q->items[j].w;
            for (int c = 0; c < 3; c++) s[c] += (uint64_t)q->items[j].c[c] * q->items[j].w;
        }
        for (int c = 0; c < 3; c++) out_rgb[i * 3 + c] = (uint8_t)(w ? (s[c] + w / 2) / w : 0);
    }
    return nb;
}

static int nearest(const uint8_t *pal, int n, int r, int g, int b) {
    int best = 0;
    long best_d = -1;
    for (int i = 0; i < n; i++) {
        int dr = r - pal[i * 3], dg = g - pal[i * 3 + 1], db = b - pal[i * 3 + 2];
        long d = 3L * dr * dr + 4L * dg * dg + 2L * db * db;
        if (best_d < 0 || d < best_d) { best_d = d; best = i; if (d == 0) break; }
    }
    return best;
}

static inline int close_to(uint32_t a, uint32_t b) {
    for (int k = 0; k < 3; k++) { int d = ch(a, k) - ch(b, k); if (d > GRADIENT_STEP || d < -GRADIENT_STEP) return 0; }
    return 1;
}

static inline uint32_t hash(uint32_t c) { return c * 2654435761u; }

/* The entry for colour c, inserted if new; NULL when the table is full. */
static exact_entry *exact_find(th_gif_quantizer *q, uint32_t c, int *nused) {
    uint32_t mask = (1u << EXACT_BITS) - 1, slot = hash(c) >> (32 - EXACT_BITS);
    for (;; slot = (slot + 1) & mask) {
        exact_entry *e = &q->table[slot];
        if (e->used && e->colour == c) return e;
        if (!e->used) {
            if (*nused >= EXACT_MAX) return NULL;
            e->used = 1; e->colour = c; e->count = 0; e->index = -1;
            q->used_slots[(*nused)++] = (int32_t)slot;
            return e;
        }
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

th_gifq_result th_gifq_frame(th_gif_quantizer *q, const uint32_t *cur, const uint32_t *prev, int w, int h,
                             int x0, int y0, int x1, int y1, uint8_t *pal, uint8_t *out) {
    th_gifq_result res = { 0, -1, 1, 0 };
    int nused = 0, overflow = 0, ntouched = 0;
    long unchanged = 0, changed = 0;
    /* Pass 1: every colour to encode, counted exactly. UI frames are mostly runs of one
       colour, so the entry of the previous pixel's colour is tried before the hash table. */
    exact_entry *last = NULL;
    uint32_t last_colour = 0;
    for (int y = y0; y < y1; y++) {
        for (int x = x0; x < x1; x++) {
            size_t i = (size_t)y * (size_t)w + (size_t)x;
            if (prev && prev[i] == cur[i]) {
                size_t k = same_run(cur + i, prev + i, (size_t)(x1 - x));
                unchanged += (long)k;
                x += (int)k;
                if (x >= x1) break;
                i += k;
            }
            uint32_t c = cur[i];
            changed++;
            if (!overflow) {
                if (last && last_colour == c) {
                    size_t k = changed_run(cur + i, prev ? prev + i : NULL, (size_t)(x1 - x), c);
                    last->count += (uint32_t)k;
                    changed += (long)k - 1;
                    x += (int)k - 1;
                    continue;
                }
                exact_entry *e = exact_find(q, c, &nused);
                if (e) { e->count++; last = e; last_colour = c; } else overflow = 1;
            }
        }
    }
    int avail = unchanged > 0 ? 255 : 256;
    int nkept = 0, nres = 0, nitems = 0;
    if (!overflow) {
        for (int u = 0; u < nused; u++) {
            exact_entry *e = &q->table[q->used_slots[u]];
            q->kept[nkept][0] = e->count; q->kept[nkept][1] = e->colour; nkept++;
        }
        qsort(q->kept, (size_t)nkept, sizeof q->kept[0], by_count);
        nres = nkept <= avail ? nkept : reserve_count(q, nkept, avail);
        for (int r = nres; r < nkept; r++) {
            uint32_t c = q->kept[r][1];
            q->items[nitems++] = (item){ { (uint8_t)ch(c, 0), (uint8_t)ch(c, 1), (uint8_t)ch(c, 2) }, q->kept[r][0] };
        }
        for (int r = 0; r < nres; r++) exact_find(q, q->kept[r][1], &nused)->index = (int16_t)r;
    } else {
        /* Too many colours to count one by one: bins with their sums and majority colours, then
           how many pixels each majority colour really covers. */
        for (int y = y0; y < y1; y++) {
            for (int x = x0; x < x1; x++) {
                size_t i = (size_t)y * (size_t)w + (size_t)x;
                uint32_t c = cur[i];
                if (prev && prev[i] == c) continue;
                uint32_t b = bin_of(c);
                if (q->count[b] == 0) { q->touched[ntouched++] = (int32_t)b; q->cand[b] = c; q->vote[b] = 0; q->reserved[b] = -1; }
                q->count[b]++;
                for (int k = 0; k < 3; k++) q->sum[b][k] += (uint64_t)ch(c, k);
                if (q->vote[b] == 0) { q->cand[b] = c; q->vote[b] = 1; }
                else q->vote[b] += q->cand[b] == c ? 1 : -1;
            }
        }
        for (int y = y0; y < y1; y++) {
            for (int x = x0; x < x1; x++) {
                size_t i = (size_t)y * (size_t)w + (size_t)x;
                uint32_t c = cur[i];
                if (prev && prev[i] == c) continue;
                uint32_t b = bin_of(c);
                if (q->cand[b] == c) q->exact[b]++;
            }
        }
        for (int t = 0; t < ntouched; t++) {
            uint32_t b = (uint32_t)q->touched[t];
            q->kept[nkept][0] = q->exact[b]; q->kept[nkept][1] = q->cand[b]; nkept++;
        }
        qsort(q->kept, (size_t)nkept, sizeof q->kept[0], by_count);
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
            n += median_cut(q, nitems, avail - nres, pal + n * 3);
        }
    }
    if (n == 0 && changed > 0) { pal[0] = pal[1] = pal[2] = 0; n = 1; }
    if (unchanged > 0) { res.transparent = n; pal[n * 3] = pal[n * 3 + 1] = pal[n * 3 + 2] = 0; n++; }
    res.colors = n;
    int opaque = res.transparent >= 0 ? n - 1 : n;

    /* Pass 3: indices. */
    q->gen++;
    if (q->gen == 0) { memset(q->cache, 0, sizeof q->cache); q->gen = 1; }
    uint8_t *o = out;
    /* The exact index of the last colour looked up (exact entries do not depend on the
       position, unlike dithered pixels, so a run reuses it). */
    int run_index = -1;
    uint32_t run_colour = 0;
    for (int y = y0; y < y1; y++) {
        for (int x = x0; x < x1; x++, o++) {
            size_t i = (size_t)y * (size_t)w + (size_t)x;
            if (prev && prev[i] == cur[i]) {
                size_t k = same_run(cur + i, prev + i, (size_t)(x1 - x));
                memset(o, (uint8_t)res.transparent, k);
                o += k;
                x += (int)k;
                if (x >= x1) { o--; x--; continue; }
                i += k;
            }
            uint32_t c = cur[i];
            if (!overflow) {
                if (run_index >= 0 && run_colour == c) {
                    size_t k = changed_run(cur + i, prev ? prev + i : NULL, (size_t)(x1 - x), c);
                    memset(o, run_index, k);
                    o += k - 1;
                    x += (int)k - 1;
                    continue;
                }
                exact_entry *e = exact_find(q, c, &nused);
                if (e->index >= 0) { *o = (uint8_t)e->index; run_index = e->index; run_colour = c; continue; }
            } else {
                uint32_t b = bin_of(c);
                if (q->reserved[b] >= 0 && q->cand[b] == c) { *o = (uint8_t)q->reserved[b]; continue; }
            }
            /* A gradient: some neighbour differs, and every neighbour is close. Edges and flat
               areas get the nearest colour undithered. */
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
                res.dithered++;
            }
            cache_entry *e = &q->cache[hash(key) >> (32 - CACHE_BITS)];
            if (e->gen != q->gen || e->colour != key) {
                e->gen = q->gen; e->colour = key;
                e->index = (uint8_t)nearest(pal, opaque, ch(key, 0), ch(key, 1), ch(key, 2));
            }
            *o = e->index;
            if (res.exact) {
                const uint8_t *p = pal + e->index * 3;
                if (p[0] != ch(c, 0) || p[1] != ch(c, 1) || p[2] != ch(c, 2)) res.exact = 0;
            }
        }
    }
    /* Leave the tables empty for the next frame. */
    for (int u = 0; u < nused; u++) {
        exact_entry *e = &q->table[q->used_slots[u]];
        e->used = 0; e->count = 0; e->index = -1;
    }
    for (int t = 0; t < ntouched; t++) {
        uint32_t b = (uint32_t)q->touched[t];
        q->count[b] = 0; q->exact[b] = 0; q->vote[b] = 0; q->reserved[b] = -1;
        q->sum[b][0] = q->sum[b][1] = q->sum[b][2] = 0;
    }
    return res;
}
