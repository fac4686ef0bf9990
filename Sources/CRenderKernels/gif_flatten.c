#include "gif_quantize.h"
#include "gif_changes.h"
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Preparing a GIF frame: flattening it over the background, and finding what changed since
   the previous one. */

static inline uint32_t flatten_one(uint32_t p, int bg_r, int bg_g, int bg_b) {
    int a = (int)(p >> 24);
    if (a == 255) return p & 0xffffff;
    int inv = 255 - a;
    int r = (int)((p >> 16) & 255) + (bg_r * inv + 127) / 255;
    int g = (int)((p >> 8) & 255) + (bg_g * inv + 127) / 255;
    int b = (int)(p & 255) + (bg_b * inv + 127) / 255;
    if (r > 255) r = 255;
    if (g > 255) g = 255;
    if (b > 255) b = 255;
    return ((uint32_t)r << 16) | ((uint32_t)g << 8) | (uint32_t)b;
}

static void flatten_row(const uint32_t *row, int width, int bg_r, int bg_g, int bg_b, uint32_t *o) {
    int x = 0;
#if defined(__SSE2__)
    /* Rendered frames are opaque almost everywhere: four opaque pixels only lose their alpha
       byte. */
    const __m128i alpha = _mm_set1_epi32((int)0xff000000u), rgb = _mm_set1_epi32(0x00ffffff);
    for (; x + 4 <= width; x += 4) {
        __m128i p = _mm_loadu_si128((const __m128i *)(row + x));
        if (_mm_movemask_epi8(_mm_cmpeq_epi32(_mm_and_si128(p, alpha), alpha)) == 0xffff) {
            _mm_storeu_si128((__m128i *)(o + x), _mm_and_si128(p, rgb));
        } else {
            for (int j = 0; j < 4; j++) o[x + j] = flatten_one(row[x + j], bg_r, bg_g, bg_b);
        }
    }
#endif
    for (; x < width; x++) o[x] = flatten_one(row[x], bg_r, bg_g, bg_b);
}

void th_flatten_rgb(const uint32_t *pixels, size_t stride, int width, int height,
                    uint8_t bg_r, uint8_t bg_g, uint8_t bg_b, uint32_t *out) {
    for (int y = 0; y < height; y++)
        flatten_row((const uint32_t *)((const uint8_t *)pixels + (size_t)y * stride), width, bg_r, bg_g, bg_b,
                    out + (size_t)y * (size_t)width);
}

int gif_changes_reserve(gif_changes *c, int w, int h) {
    int wpr = (w + 63) / 64;
    size_t words = (size_t)wpr * (size_t)h;
    if (words > c->word_cap) {
        free(c->changed); free(c->edges);
        c->changed = malloc(words * sizeof *c->changed);
        c->edges = malloc(words * sizeof *c->edges);
        c->word_cap = c->changed && c->edges ? words : 0;
        if (!c->word_cap) return 0;
    }
    if (w >= c->seg_cap) {
        free(c->starts); free(c->ends);
        c->starts = malloc(((size_t)w + 1) * sizeof *c->starts);
        c->ends = malloc(((size_t)w + 1) * sizeof *c->ends);
        c->seg_cap = c->starts && c->ends ? w + 1 : 0;
        if (!c->seg_cap) return 0;
    }
    c->wpr = wpr;
    c->w = w;
    return 1;
}

void gif_changes_free(gif_changes *c) {
    free(c->changed); free(c->edges); free(c->starts); free(c->ends);
    memset(c, 0, sizeof *c);
}

static long row_count(const uint64_t *m, int wpr) {
    long n = 0;
    for (int k = 0; k < wpr; k++) n += __builtin_popcountll(m[k]);
    return n;
}

int gif_changes_compare(gif_changes *c, const uint32_t *cur, const uint32_t *prev, int w, int h,
                        int x0, int y0, int x1, int y1) {
    if (!gif_changes_reserve(c, w, h)) return 0;
    c->count = 0;
    for (int y = y0; y < y1; y++) {
        uint64_t *ch = c->changed + (size_t)y * (size_t)c->wpr, *ed = c->edges + (size_t)y * (size_t)c->wpr;
        memset(ch, 0, (size_t)c->wpr * sizeof *ch);
        memset(ed, 0, (size_t)c->wpr * sizeof *ed);
        const uint32_t *p = cur + (size_t)y * (size_t)w, *q = prev ? prev + (size_t)y * (size_t)w : NULL;
        for (int x = x0; x < x1; x++) {
            if (!q || q[x] != p[x]) ch[x / 64] |= 1ull << (x % 64);
            if (x == 0 || p[x] != p[x - 1]) ed[x / 64] |= 1ull << (x % 64);
        }
        c->count += row_count(ch, c->wpr);
    }
    return 1;
}

/* Flattens one row into `shown` where it differs from what is there (everywhere when all is
   set), setting its bits in ch (changed) and ed (colour edges, for changed pixels). Returns 0
   when the row is unchanged; `shown` is then untouched, so an unchanged row costs two reads and
   no write. */
static int update_row(const uint32_t *row, int w, int xa, int xe, int bg_r, int bg_g, int bg_b, uint32_t *shown, int all,
                      uint64_t *ch, uint64_t *ed) {
    /* Only columns xa ..< xe can differ (xa a multiple of 16, so sixteen bits never straddle a
       word); the pixel left of xa is unchanged, so `shown` holds its new colour. */
    int x = xa, any = 0, wpr = (w + 63) / 64;
    uint32_t left = xa > 0 ? shown[xa - 1] : 0; /* the new colour of pixel x - 1 */
    memset(ch, 0, (size_t)wpr * sizeof *ch);
    memset(ed, 0, (size_t)wpr * sizeof *ed);
#if defined(__SSE2__)
    const __m128i alpha = _mm_set1_epi32((int)0xff000000u), rgb = _mm_set1_epi32(0x00ffffff);
    for (; x + 16 <= xe; x += 16) {
        __m128i p0 = _mm_loadu_si128((const __m128i *)(row + x)), p1 = _mm_loadu_si128((const __m128i *)(row + x + 4));
        __m128i p2 = _mm_loadu_si128((const __m128i *)(row + x + 8)), p3 = _mm_loadu_si128((const __m128i *)(row + x + 12));
        __m128i f0, f1, f2, f3;
        /* Rendered frames are opaque almost everywhere: sixteen opaque pixels only lose their
           alpha byte. */
        __m128i opaque = _mm_and_si128(_mm_and_si128(p0, p1), _mm_and_si128(p2, p3));
        if (_mm_movemask_epi8(_mm_cmpeq_epi32(_mm_and_si128(opaque, alpha), alpha)) == 0xffff) {
            f0 = _mm_and_si128(p0, rgb); f1 = _mm_and_si128(p1, rgb); f2 = _mm_and_si128(p2, rgb); f3 = _mm_and_si128(p3, rgb);
        } else {
            uint32_t o[16];
            flatten_row(row + x, 16, bg_r, bg_g, bg_b, o);
            f0 = _mm_loadu_si128((const __m128i *)o); f1 = _mm_loadu_si128((const __m128i *)(o + 4));
            f2 = _mm_loadu_si128((const __m128i *)(o + 8)); f3 = _mm_loadu_si128((const __m128i *)(o + 12));
        }
        uint32_t *s = shown + x;
        unsigned diff = 0xffff;
        if (!all) {
            int e0 = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(f0, _mm_loadu_si128((const __m128i *)s))));
            int e1 = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(f1, _mm_loadu_si128((const __m128i *)(s + 4)))));
            int e2 = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(f2, _mm_loadu_si128((const __m128i *)(s + 8)))));
            int e3 = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(f3, _mm_loadu_si128((const __m128i *)(s + 12)))));
            diff = ~(unsigned)(e0 | e1 << 4 | e2 << 8 | e3 << 12) & 0xffff;
        }
        if (diff) {
            _mm_storeu_si128((__m128i *)s, f0); _mm_storeu_si128((__m128i *)(s + 4), f1);
            _mm_storeu_si128((__m128i *)(s + 8), f2); _mm_storeu_si128((__m128i *)(s + 12), f3);
            /* Each pixel against its left neighbour: the vectors shifted by one pixel. */
            __m128i l0 = _mm_or_si128(_mm_slli_si128(f0, 4), _mm_cvtsi32_si128((int)left));
            __m128i l1 = _mm_or_si128(_mm_slli_si128(f1, 4), _mm_srli_si128(f0, 12));
            __m128i l2 = _mm_or_si128(_mm_slli_si128(f2, 4), _mm_srli_si128(f1, 12));
            __m128i l3 = _mm_or_si128(_mm_slli_si128(f3, 4), _mm_srli_si128(f2, 12));
            int q0 = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(f0, l0)));
            int q1 = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(f1, l1)));
            int q2 = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(f2, l2)));
            int q3 = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(f3, l3)));
            unsigned edge = ~(unsigned)(q0 | q1 << 4 | q2 << 8 | q3 << 12) & 0xffff;
            ch[x / 64] |= (uint64_t)diff << (x % 64);
            ed[x / 64] |= (uint64_t)edge << (x % 64);
            any = 1;
        }
        left = (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(f3, 12));
    }
#endif
    for (; x < xe; x++) {
        uint32_t v = flatten_one(row[x], bg_r, bg_g, bg_b);
        if (all || v != shown[x]) {
            shown[x] = v;
            ch[x / 64] |= 1ull << (x % 64);
            if (x == 0 || v != left) ed[x / 64] |= 1ull << (x % 64);
            any = 1;
        }
        left = v;
    }
    return any;
}

void th_gifq_read_extent(const int *hint, int first, int w, int h, int out[4]) {
    int hx0 = 0, hy0 = 0, hx1 = w, hy1 = h;
    if (hint && !first) {
        hx0 = hint[0] < 0 ? 0 : hint[0] > w ? w : hint[0];
        hy0 = hint[1] < 0 ? 0 : hint[1] > h ? h : hint[1];
        hx1 = hint[2] < hx0 ? hx0 : hint[2] > w ? w : hint[2];
        hy1 = hint[3] < hy0 ? hy0 : hint[3] > h ? h : hint[3];
        if (hx1 == hx0 || hy1 == hy0) hx0 = hx1 = hy0 = hy1 = 0;
        hx0 &= ~15;
        hx1 = (hx1 + 15) & ~15;
        if (hx1 > w) hx1 = w;
    }
    out[0] = hx0; out[1] = hy0; out[2] = hx1; out[3] = hy1;
}

int gif_flatten_into(const uint32_t *pixels, size_t stride, int w, int h, uint8_t bg_r, uint8_t bg_g, uint8_t bg_b,
                     uint32_t *shown, int first, const int *hint, int rect[4], gif_changes *c,
                     void (*row_done)(void *ctx, const uint32_t *row, int y), void *ctx) {
    if (!gif_changes_reserve(c, w, h)) return -1;
    int x0 = w, y0 = h, x1 = 0, y1 = 0, wpr = c->wpr;
    /* The rectangle that can differ (and all that is read). */
    int extent[4];
    th_gifq_read_extent(hint, first, w, h, extent);
    const int hx0 = extent[0], hy0 = extent[1], hx1 = extent[2], hy1 = extent[3];
    c->count = 0;
    /* The bitmaps' rows outside the extent are left as they are: the palette passes read only
       the rows of the rectangle returned, which lies inside it (or is row 0, cleared below,
       when nothing changed). Clearing them cost two 91 KB writes a frame at 640 x 1136. */
    for (int y = hy0; y < hy1; y++) {
        const uint32_t *row = (const uint32_t *)((const uint8_t *)pixels + (size_t)y * stride);
        uint64_t *ch = c->changed + (size_t)y * (size_t)wpr;
        if (!update_row(row, w, hx0, hx1, bg_r, bg_g, bg_b, shown + (size_t)y * (size_t)w, first, ch, c->edges + (size_t)y * (size_t)wpr))
            continue;
        int k = 0, j = wpr - 1;
        while (!ch[k]) k++;
        while (!ch[j]) j--;
        if (k * 64 + __builtin_ctzll(ch[k]) < x0) x0 = k * 64 + __builtin_ctzll(ch[k]);
        if (j * 64 + 64 - __builtin_clzll(ch[j]) > x1) x1 = j * 64 + 64 - __builtin_clzll(ch[j]);
        c->count += row_count(ch, wpr);
        row_done(ctx, shown + (size_t)y * (size_t)w, y);
        if (y < y0) y0 = y;
        y1 = y + 1;
    }
    if (first) { rect[0] = 0; rect[1] = 0; rect[2] = w; rect[3] = h; return 1; }
    if (c->count == 0) {
        memset(c->changed, 0, (size_t)wpr * sizeof *c->changed);
        memset(c->edges, 0, (size_t)wpr * sizeof *c->edges);
        rect[0] = 0; rect[1] = 0; rect[2] = 1; rect[3] = 1;
        return 0;
    }
    rect[0] = x0; rect[1] = y0; rect[2] = x1; rect[3] = y1;
    return 1;
}
