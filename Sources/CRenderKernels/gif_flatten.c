#include "gif_quantize.h"
#include "gif_changes.h"
#include "pixel_runs.h"
#include <stdlib.h>
#include <string.h>

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

/* The changed runs of one row (cur vs prev, columns x0 ..< x1) into out; how many. */
static size_t row_runs(const uint32_t *cur, const uint32_t *prev, int x0, int x1, gif_run *out) {
    size_t n = 0;
    int x = x0;
    while (x < x1) {
        x += (int)same_run(cur + x, prev + x, (size_t)(x1 - x));
        if (x >= x1) break;
        int s = x;
        x += (int)differ_run(cur + x, prev + x, (size_t)(x1 - x));
        out[n++] = (gif_run){ (uint16_t)s, (uint16_t)x };
    }
    return n;
}

int gif_changes_reserve(gif_changes *c, int w, int h) {
    size_t runs = ((size_t)w / 2 + 1) * (size_t)h;
    if (runs > c->run_cap) {
        free(c->runs);
        c->runs = malloc(runs * sizeof *c->runs);
        c->run_cap = c->runs ? runs : 0;
        if (!c->runs) return 0;
    }
    if (h > c->row_cap) {
        free(c->first);
        c->first = malloc(((size_t)h + 1) * sizeof *c->first);
        c->row_cap = c->first ? h : 0;
        if (!c->first) return 0;
    }
    if ((size_t)w > c->bit_cap) {
        free(c->bits);
        c->bits = malloc(((size_t)w / 64 + 1) * sizeof *c->bits);
        c->bit_cap = c->bits ? (size_t)w : 0;
        if (!c->bits) return 0;
    }
    return 1;
}

void gif_changes_free(gif_changes *c) {
    free(c->runs); free(c->first); free(c->bits);
    memset(c, 0, sizeof *c);
}

static long count_changed(const gif_changes *c, size_t n) {
    long changed = 0;
    for (size_t r = 0; r < n; r++) changed += c->runs[r].x1 - c->runs[r].x0;
    return changed;
}

int gif_changes_compare(gif_changes *c, const uint32_t *cur, const uint32_t *prev, int w, int h,
                        int x0, int y0, int x1, int y1) {
    if (!gif_changes_reserve(c, w, h)) return 0;
    size_t n = 0;
    for (int y = 0; y < h; y++) {
        c->first[y] = n;
        if (y < y0 || y >= y1) continue;
        size_t row = (size_t)y * (size_t)w;
        if (prev) n += row_runs(cur + row, prev + row, x0, x1, c->runs + n);
        else c->runs[n++] = (gif_run){ (uint16_t)x0, (uint16_t)x1 };
    }
    c->first[h] = n;
    c->changed = count_changed(c, n);
    return 1;
}

/* The runs of set bits among the first w of bits (64 a word) into out; how many. A run starts
   where a bit is set and the one before it is not, and ends where the reverse holds. */
static size_t bit_runs(const uint64_t *bits, int w, gif_run *out) {
    size_t n = 0;
    uint64_t carry = 0;
    int start = 0;
    for (int k = 0; k * 64 < w; k++) {
        uint64_t m = bits[k], before = (m << 1) | carry;
        uint64_t edges = m ^ before;
        carry = m >> 63;
        while (edges) {
            int b = __builtin_ctzll(edges);
            edges &= edges - 1;
            if ((m >> b) & 1) start = k * 64 + b;
            else out[n++] = (gif_run){ (uint16_t)start, (uint16_t)(k * 64 + b) };
        }
    }
    if (carry) out[n++] = (gif_run){ (uint16_t)start, (uint16_t)w };
    return n;
}

/* Flattens one row into `shown` where it differs from what is there, setting bits (one a pixel,
   64 a word) where it did. Returns 0 when the row is unchanged; `shown` is then untouched, so
   an unchanged row costs two reads and no write. */
static int update_row(const uint32_t *row, int w, int bg_r, int bg_g, int bg_b, uint32_t *shown, uint64_t *bits) {
    int x = 0, any = 0;
    memset(bits, 0, ((size_t)w + 63) / 64 * sizeof *bits);
#if defined(__SSE2__)
    const __m128i alpha = _mm_set1_epi32((int)0xff000000u), rgb = _mm_set1_epi32(0x00ffffff);
    for (; x + 16 <= w; x += 16) {
        __m128i p0 = _mm_loadu_si128((const __m128i *)(row + x)), p1 = _mm_loadu_si128((const __m128i *)(row + x + 4));
        __m128i p2 = _mm_loadu_si128((const __m128i *)(row + x + 8)), p3 = _mm_loadu_si128((const __m128i *)(row + x + 12));
        __m128i f0, f1, f2, f3;
        /* Rendered frames are opaque almost everywhere: sixteen opaque pixels only lose their
           alpha byte. */
        __m128i all = _mm_and_si128(_mm_and_si128(p0, p1), _mm_and_si128(p2, p3));
        if (_mm_movemask_epi8(_mm_cmpeq_epi32(_mm_and_si128(all, alpha), alpha)) == 0xffff) {
            f0 = _mm_and_si128(p0, rgb); f1 = _mm_and_si128(p1, rgb); f2 = _mm_and_si128(p2, rgb); f3 = _mm_and_si128(p3, rgb);
        } else {
            uint32_t o[16];
            flatten_row(row + x, 16, bg_r, bg_g, bg_b, o);
            f0 = _mm_loadu_si128((const __m128i *)o); f1 = _mm_loadu_si128((const __m128i *)(o + 4));
            f2 = _mm_loadu_si128((const __m128i *)(o + 8)); f3 = _mm_loadu_si128((const __m128i *)(o + 12));
        }
        uint32_t *s = shown + x;
        int e0 = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(f0, _mm_loadu_si128((const __m128i *)s))));
        int e1 = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(f1, _mm_loadu_si128((const __m128i *)(s + 4)))));
        int e2 = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(f2, _mm_loadu_si128((const __m128i *)(s + 8)))));
        int e3 = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(f3, _mm_loadu_si128((const __m128i *)(s + 12)))));
        unsigned diff = ~(unsigned)(e0 | e1 << 4 | e2 << 8 | e3 << 12) & 0xffff;
        if (!diff) continue;
        _mm_storeu_si128((__m128i *)s, f0); _mm_storeu_si128((__m128i *)(s + 4), f1);
        _mm_storeu_si128((__m128i *)(s + 8), f2); _mm_storeu_si128((__m128i *)(s + 12), f3);
        bits[x / 64] |= (uint64_t)diff << (x % 64);
        any = 1;
    }
#endif
    for (; x < w; x++) {
        uint32_t v = flatten_one(row[x], bg_r, bg_g, bg_b);
        if (v == shown[x]) continue;
        shown[x] = v;
        bits[x / 64] |= 1ull << (x % 64);
        any = 1;
    }
    return any;
}

int gif_flatten_into(const uint32_t *pixels, size_t stride, int w, int h, uint8_t bg_r, uint8_t bg_g, uint8_t bg_b,
                     uint32_t *shown, int first, int rect[4], gif_changes *c) {
    if (!gif_changes_reserve(c, w, h)) return -1;
    if (first) {
        th_flatten_rgb(pixels, stride, w, h, bg_r, bg_g, bg_b, shown);
        for (int y = 0; y < h; y++) { c->first[y] = (size_t)y; c->runs[y] = (gif_run){ 0, (uint16_t)w }; }
        c->first[h] = (size_t)h;
        c->changed = (long)w * h;
        rect[0] = 0; rect[1] = 0; rect[2] = w; rect[3] = h;
        return 1;
    }
    int x0 = w, y0 = h, x1 = 0, y1 = 0;
    size_t n = 0;
    for (int y = 0; y < h; y++) {
        c->first[y] = n;
        const uint32_t *row = (const uint32_t *)((const uint8_t *)pixels + (size_t)y * stride);
        if (!update_row(row, w, bg_r, bg_g, bg_b, shown + (size_t)y * (size_t)w, c->bits)) continue;
        size_t k = bit_runs(c->bits, w, c->runs + n);
        if (c->runs[n].x0 < x0) x0 = c->runs[n].x0;
        if (c->runs[n + k - 1].x1 > x1) x1 = c->runs[n + k - 1].x1;
        n += k;
        if (y < y0) y0 = y;
        y1 = y + 1;
    }
    c->first[h] = n;
    c->changed = count_changed(c, n);
    if (n == 0) { rect[0] = 0; rect[1] = 0; rect[2] = 1; rect[3] = 1; return 0; }
    rect[0] = x0; rect[1] = y0; rect[2] = x1; rect[3] = y1;
    return 1;
}
