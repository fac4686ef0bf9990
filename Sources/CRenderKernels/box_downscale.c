#include "box_downscale.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* cairo's GOOD filter on a shrink by r (clamped to 16) is pixman's separable convolution with
   a box kernel: the intersection of a box r wide with each unit pixel, normalised so each
   phase's weights add up to exactly 1.0 in 16.16, the rounding error put on the middle tap.
   Weights are computed in doubles and truncated to fixed point in the same order cairo does,
   so they come out as the same integers. */
enum { MAX_TAPS = 18 };

static double box(double x, double r) {
    double a = (r + 1) / 2 - x, b = (r + 1) / 2 + x, m = a < b ? a : b;
    double c = r < 1.0 ? r : 1.0;
    if (m > c) m = c;
    return m > 0.0 ? m : 0.0;
}

static int box_taps(double r) { return r < 1.0 ? 2 : (int)ceil(r + 1); }

static int phase_bits(double r) {
    int bits = 0;
    while (r * (1 << bits) <= 128.0) bits++;
    return bits;
}

/* The weights of one phase (`phase` of 2^bits) into out[0 .. width). */
static void box_weights(double r, int width, int bits, int phase, int32_t *out) {
    double step = 1.0 / (1 << bits), frac = (phase + .5) * step;
    double x1 = ceil(frac - width / 2.0 - 0.5) - frac + 0.5, total = 0;
    for (int j = 0; j < width; j++) {
        double v = box(x1 + j, r);
        total += v;
        out[j] = (int32_t)(v * 65536.0);
    }
    total = 1 / total;
    int32_t sum = 0;
    for (int j = 0; j < width; j++) {
        out[j] = (int32_t)(out[j] * total);
        sum += out[j];
    }
    out[width / 2] += 65536 - sum;
}

/* One axis of the filter: where each destination pixel's first tap is, and the phase. pixman
   maps a destination pixel's centre to the source (exact here: the scale is whole), snaps it
   to the middle of its phase, and starts the taps half the filter's width before that. */
typedef struct { int taps, bits, shift, off; } axis;

static axis make_axis(int scale) {
    double r = scale > 16 ? 16.0 : (double)scale;
    axis a;
    a.taps = box_taps(r);
    a.bits = phase_bits(r);
    a.shift = 16 - a.bits;
    a.off = ((a.taps << 16) - 65536) >> 1;
    return a;
}

static void tap_start(const axis *a, int scale, int k, int *first, int *phase) {
    int32_t v = (int32_t)(scale * (2 * k + 1)) << 15;
    int32_t x = ((v >> a->shift) << a->shift) + ((1 << a->shift) >> 1);
    *phase = (x & 0xffff) >> a->shift;
    *first = (x - 1 - a->off) >> 16;
}

static inline uint32_t over(uint32_t s, uint32_t d) {
    uint32_t a = s >> 24;
    if (a == 255) return s;
    if (s == 0) return d;
    uint32_t ia = 255 - a, out = 0;
    for (int c = 0; c < 32; c += 8) {
        uint32_t t = ((d >> c) & 255) * ia + 0x80;
        t = (t + (t >> 8)) >> 8;
        t += (s >> c) & 255;
        out |= (t > 255 ? 255 : t) << c;
    }
    return out;
}

static inline uint32_t pack(int32_t acc[4]) {
    uint32_t out = 0;
    for (int c = 0; c < 4; c++) {
        int32_t v = (acc[c] + 0x8000) >> 16;
        if (v < 0) v = 0;
        if (v > 255) v = 255;
        out |= (uint32_t)v << (8 * c);
    }
    return out;
}

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

int th_box_downscale_over(const uint32_t *src, size_t sstride, int sw, int sh,
                          uint32_t *dst, size_t dstride, int dst_w, int dst_h,
                          int dx, int dy, int tw, int th) {
    if (tw <= 0 || th <= 0 || sw % tw != 0 || sh % th != 0) return 0;
    int sx = sw / tw, sy = sh / th;
    /* cairo draws a shrink of at most 2x on both axes with its bilinear filter instead. */
    if (sx < 2 || sy < 2 || sx > 256 || sy > 256 || (sx == 2 && sy == 2)) return 0;
    if (dx < 0 || dy < 0 || dx + tw > dst_w || dy + th > dst_h) return 0;
    axis ax = make_axis(sx), ay = make_axis(sy);
    if (ax.taps > MAX_TAPS || ay.taps > MAX_TAPS) return 0;

    /* A whole-number scale puts every destination pixel at the same phase. */
    int x0, px, y0, py;
    tap_start(&ax, sx, 0, &x0, &px);
    tap_start(&ay, sy, 0, &y0, &py);
    int32_t fx[MAX_TAPS], fy[MAX_TAPS], f[MAX_TAPS][MAX_TAPS];
    box_weights(sx > 16 ? 16.0 : sx, ax.taps, ax.bits, px, fx);
    box_weights(sy > 16 ? 16.0 : sy, ay.taps, ay.bits, py, fy);
    int small = 1;
    for (int i = 0; i < ay.taps; i++)
        for (int j = 0; j < ax.taps; j++) {
            f[i][j] = (int32_t)(((int64_t)fx[j] * fy[i] + 0x8000) >> 16);
            if (f[i][j] < -32768 || f[i][j] > 32767) small = 0;
        }

#if defined(__SSE2__)
    /* Two taps of a row at a time: their channels interleaved (b0 b1 g0 g1 ...) so one
       multiply-add gives each channel's two products summed, as 32-bit lanes. */
    __m128i w[MAX_TAPS][MAX_TAPS / 2 + 1];
    int pairs = ax.taps / 2, odd = ax.taps & 1;
    for (int i = 0; i < ay.taps; i++) {
        for (int p = 0; p < pairs; p++) {
            short a = (short)f[i][2 * p], b = (short)f[i][2 * p + 1];
            w[i][p] = _mm_set_epi16(b, a, b, a, b, a, b, a);
        }
        if (odd) { short a = (short)f[i][ax.taps - 1]; w[i][pairs] = _mm_set_epi16(0, a, 0, a, 0, a, 0, a); }
    }
    const __m128i zero = _mm_setzero_si128(), half = _mm_set1_epi32(0x8000);
#endif

    for (int Y = 0; Y < th; Y++) {
        int ty, phase;
        tap_start(&ay, sy, Y, &ty, &phase); /* the same phase py on every row */
        uint32_t *out = (uint32_t *)((uint8_t *)dst + (size_t)(dy + Y) * dstride) + dx;
        int rows_inside = ty >= 0 && ty + ay.taps <= sh;
        for (int X = 0; X < tw; X++) {
            int tx = sx * X + x0;
            uint32_t pixel;
#if defined(__SSE2__)
            if (small && rows_inside && tx >= 0 && tx + ax.taps <= sw) {
                __m128i acc = zero;
                for (int i = 0; i < ay.taps; i++) {
                    const uint32_t *row = (const uint32_t *)((const uint8_t *)src + (size_t)(ty + i) * sstride) + tx;
                    for (int p = 0; p < pairs; p++) {
                        __m128i v = _mm_loadl_epi64((const __m128i *)(row + 2 * p));
                        v = _mm_unpacklo_epi8(_mm_unpacklo_epi8(v, _mm_srli_si128(v, 4)), zero);
                        acc = _mm_add_epi32(acc, _mm_madd_epi16(v, w[i][p]));
                    }
                    if (odd) {
                        __m128i v = _mm_unpacklo_epi8(_mm_unpacklo_epi8(_mm_cvtsi32_si128((int)row[ax.taps - 1]), zero), zero);
                        acc = _mm_add_epi32(acc, _mm_madd_epi16(v, w[i][pairs]));
                    }
                }
                acc = _mm_srai_epi32(_mm_add_epi32(acc, half), 16);
                acc = _mm_packs_epi32(acc, acc);
                pixel = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(acc, acc));
            } else
#endif
            {
                /* At the edges taps fall outside the source, where pixman reads 0. */
                int32_t acc[4] = {0, 0, 0, 0};
                for (int i = 0; i < ay.taps; i++) {
                    int ry = ty + i;
                    if (ry < 0 || ry >= sh) continue;
                    const uint32_t *row = (const uint32_t *)((const uint8_t *)src + (size_t)ry * sstride);
                    for (int j = 0; j < ax.taps; j++) {
                        int rx = tx + j;
                        if (rx < 0 || rx >= sw) continue;
                        uint32_t s = row[rx];
                        for (int c = 0; c < 4; c++) acc[c] += (int32_t)((s >> (8 * c)) & 255) * f[i][j];
                    }
                }
                pixel = pack(acc);
            }
            out[X] = over(pixel, out[X]);
        }
    }
    return 1;
}
