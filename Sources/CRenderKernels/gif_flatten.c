#include "gif_quantize.h"
#include "pixel_runs.h"
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

/* The changed rectangle's bounds grown by one row's differences. */
static inline void grow(const uint32_t *ra, const uint32_t *rb, int w, int y, int *x0, int *y0, int *x1, int *y1) {
    if (memcmp(ra, rb, (size_t)w * 4) == 0) return;
    int first = (int)same_run(ra, rb, (size_t)w);
    int last = w - 1 - (int)same_tail(ra + first, rb + first, (size_t)(w - first));
    if (first < *x0) *x0 = first;
    if (last + 1 > *x1) *x1 = last + 1;
    if (y < *y0) *y0 = y;
    *y1 = y + 1;
}

int th_flatten_changed(const uint32_t *pixels, size_t stride, int w, int h, uint8_t bg_r, uint8_t bg_g, uint8_t bg_b,
                       uint32_t *out, const uint32_t *prev, int rect[4]) {
    int x0 = w, y0 = h, x1 = 0, y1 = 0;
    for (int y = 0; y < h; y++) {
        uint32_t *o = out + (size_t)y * (size_t)w;
        flatten_row((const uint32_t *)((const uint8_t *)pixels + (size_t)y * stride), w, bg_r, bg_g, bg_b, o);
        if (prev) grow(o, prev + (size_t)y * (size_t)w, w, y, &x0, &y0, &x1, &y1);
    }
    if (!prev) { rect[0] = 0; rect[1] = 0; rect[2] = w; rect[3] = h; return 1; }
    if (x1 <= x0) { rect[0] = 0; rect[1] = 0; rect[2] = 1; rect[3] = 1; return 0; }
    rect[0] = x0; rect[1] = y0; rect[2] = x1; rect[3] = y1;
    return 1;
}
