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

#if defined(__SSE2__) && !defined(TH_BOX_SCALAR_ONLY) /* the define tests the other CPUs' path */
#define BOX_SSE2 1
#include <emmintrin.h>
#endif

/* One call's filter: the taps' weights, and for the SSE2 path the same weights as multiply-add
   pairs and what the flat test needs. */
typedef struct {
    const uint32_t *src;
    size_t sstride;
    int sw, sh, sx, sy, x0;
    axis ax, ay;
    int32_t f[MAX_TAPS][MAX_TAPS];
    int32_t total;          /* the sum of all the taps' weights */
    int small;              /* every weight fits a signed 16-bit lane */
#ifdef BOX_SSE2
    __m128i w[MAX_TAPS][MAX_TAPS / 2 + 1];
#endif
} plan;

/* The exact sum at the edges, where taps fall outside the source and pixman reads 0. */
static uint32_t edge_pixel(const plan *pl, int tx, int ty) {
    int32_t acc[4] = {0, 0, 0, 0};
    for (int i = 0; i < pl->ay.taps; i++) {
        int ry = ty + i;
        if (ry < 0 || ry >= pl->sh) continue;
        const uint32_t *row = (const uint32_t *)((const uint8_t *)pl->src + (size_t)ry * pl->sstride);
        for (int j = 0; j < pl->ax.taps; j++) {
            int rx = tx + j;
            if (rx < 0 || rx >= pl->sw) continue;
            uint32_t s = row[rx];
            for (int c = 0; c < 4; c++) acc[c] += (int32_t)((s >> (8 * c)) & 255) * pl->f[i][j];
        }
    }
    return pack(acc);
}

/* The thumbnail's rows. Inlined with the common tap counts as constants, so the compiler
   unrolls the loops over taps (the gallery's 4x shrink has 5 x 5). */
static inline __attribute__((always_inline))
void draw_rows(const plan *pl, uint32_t *dst, size_t dstride, int dx, int dy, int tw, int th, int taps_x, int taps_y) {
    /* Locals, as stores to the thumbnail could otherwise alias the plan's fields. */
    const int sx = pl->sx, x0 = pl->x0;
#ifdef BOX_SSE2
    uint32_t flat_src = 0, flat_pixel = 0; /* the last flat pixel's source and result (0 gives 0) */
    const uint32_t *src = pl->src;
    const size_t sstride = pl->sstride;
    const int sw = pl->sw, sh = pl->sh, small = pl->small;
    const int32_t total = pl->total;
#else
    (void)taps_x; (void)taps_y;
#endif
    for (int Y = 0; Y < th; Y++) {
        int ty, phase;
        tap_start(&pl->ay, pl->sy, Y, &ty, &phase); /* the same phase on every row */
        uint32_t *out = (uint32_t *)((uint8_t *)dst + (size_t)(dy + Y) * dstride) + dx;
#ifdef BOX_SSE2
        int rows_inside = ty >= 0 && ty + taps_y <= sh;
        const uint32_t *top = (const uint32_t *)((const uint8_t *)src + (size_t)(rows_inside ? ty : 0) * sstride);
        /* Whether the pixel before was flat: with 5 taps a step of 4 apart (the gallery's 4x),
           its last column is this one's first, all of one colour already, so only the four
           new columns are compared. */
        int left_flat = 0;
        const int step4 = taps_x == 5 && sx == 4;
#endif
        for (int X = 0; X < tw; X++) {
            int tx = sx * X + x0;
            uint32_t pixel;
#ifdef BOX_SSE2
            if (small && rows_inside && tx >= 0 && tx + taps_x <= sw) {
                const uint32_t *at = top + tx;
                /* Most of a UI frame is flat. Where every tap reads one pixel p the sum is p
                   times the weights' total, exactly, so the taps are compared with p first. */
                uint32_t p = at[0];
                const __m128i zero = _mm_setzero_si128(), pv = _mm_set1_epi32((int)p);
                __m128i differ = zero;
                if (step4 && left_flat) {
                    for (int i = 0; i < taps_y; i++) {
                        const uint32_t *row = (const uint32_t *)((const uint8_t *)at + (size_t)i * sstride);
                        differ = _mm_or_si128(differ, _mm_xor_si128(_mm_loadu_si128((const __m128i *)(row + 1)), pv));
                    }
                } else {
                    for (int i = 0; i < taps_y; i++) {
                        const uint32_t *row = (const uint32_t *)((const uint8_t *)at + (size_t)i * sstride);
                        for (int k = 0; k < taps_x; k += 4) /* the last 4 overlapping */
                            differ = _mm_or_si128(differ, _mm_xor_si128(_mm_loadu_si128((const __m128i *)(row + (k + 4 <= taps_x ? k : taps_x - 4))), pv));
                    }
                }
                left_flat = taps_x >= 4 && _mm_movemask_epi8(_mm_cmpeq_epi32(differ, zero)) == 0xffff;
                if (left_flat) {
                    if (p != flat_src) {
                        int32_t acc[4];
                        for (int c = 0; c < 4; c++) acc[c] = (int32_t)((p >> (8 * c)) & 255) * total;
                        flat_src = p;
                        flat_pixel = pack(acc);
                    }
                    out[X] = over(flat_pixel, out[X]);
                    continue;
                }
                /* Two taps of a row at a time: their channels interleaved (b0 b1 g0 g1 ...) so
                   one multiply-add gives each channel's two products summed, as 32-bit lanes. */
                __m128i acc = zero;
                for (int i = 0; i < taps_y; i++) {
                    const uint32_t *row = (const uint32_t *)((const uint8_t *)at + (size_t)i * sstride);
                    for (int q = 0; q < taps_x / 2; q++) {
                        __m128i v = _mm_loadl_epi64((const __m128i *)(row + 2 * q));
                        v = _mm_unpacklo_epi8(_mm_unpacklo_epi8(v, _mm_srli_si128(v, 4)), zero);
                        acc = _mm_add_epi32(acc, _mm_madd_epi16(v, pl->w[i][q]));
                    }
                    if (taps_x & 1) {
                        __m128i v = _mm_unpacklo_epi8(_mm_unpacklo_epi8(_mm_cvtsi32_si128((int)row[taps_x - 1]), zero), zero);
                        acc = _mm_add_epi32(acc, _mm_madd_epi16(v, pl->w[i][taps_x / 2]));
                    }
                }
                acc = _mm_srai_epi32(_mm_add_epi32(acc, _mm_set1_epi32(0x8000)), 16);
                acc = _mm_packs_epi32(acc, acc);
                pixel = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(acc, acc));
            } else {
                left_flat = 0;
                pixel = edge_pixel(pl, tx, ty);
            }
#else
                pixel = edge_pixel(pl, tx, ty);
#endif
            out[X] = over(pixel, out[X]);
        }
    }
}

int th_box_downscale_over(const uint32_t *src, size_t sstride, int sw, int sh,
                          uint32_t *dst, size_t dstride, int dst_w, int dst_h,
                          int dx, int dy, int tw, int th) {
    if (tw <= 0 || th <= 0 || sw % tw != 0 || sh % th != 0) return 0;
    int sx = sw / tw, sy = sh / th;
    /* cairo draws a shrink of at most 2x on both axes with its bilinear filter instead. */
    if (sx < 2 || sy < 2 || sx > 256 || sy > 256 || (sx == 2 && sy == 2)) return 0;
    if (dx < 0 || dy < 0 || dx + tw > dst_w || dy + th > dst_h) return 0;
    plan *pl = malloc(sizeof *pl);
    if (!pl) return 0;
    pl->src = src; pl->sstride = sstride; pl->sw = sw; pl->sh = sh; pl->sx = sx; pl->sy = sy;
    pl->ax = make_axis(sx);
    pl->ay = make_axis(sy);
    const axis *ax = &pl->ax, *ay = &pl->ay;
    if (ax->taps > MAX_TAPS || ay->taps > MAX_TAPS) { free(pl); return 0; }

    /* A whole-number scale puts every destination pixel at the same phase. */
    int px, y0, py;
    tap_start(ax, sx, 0, &pl->x0, &px);
    tap_start(ay, sy, 0, &y0, &py);
    int32_t fx[MAX_TAPS], fy[MAX_TAPS];
    box_weights(sx > 16 ? 16.0 : sx, ax->taps, ax->bits, px, fx);
    box_weights(sy > 16 ? 16.0 : sy, ay->taps, ay->bits, py, fy);
    pl->small = 1;
    pl->total = 0;
    for (int i = 0; i < ay->taps; i++)
        for (int j = 0; j < ax->taps; j++) {
            int32_t v = (int32_t)(((int64_t)fx[j] * fy[i] + 0x8000) >> 16);
            pl->f[i][j] = v;
            pl->total += v;
            if (v < -32768 || v > 32767) pl->small = 0;
        }
#ifdef BOX_SSE2
    int pairs = ax->taps / 2;
    for (int i = 0; i < ay->taps; i++) {
        for (int q = 0; q < pairs; q++) {
            short a = (short)pl->f[i][2 * q], b = (short)pl->f[i][2 * q + 1];
            pl->w[i][q] = _mm_set_epi16(b, a, b, a, b, a, b, a);
        }
        if (ax->taps & 1) { short a = (short)pl->f[i][ax->taps - 1]; pl->w[i][pairs] = _mm_set_epi16(0, a, 0, a, 0, a, 0, a); }
    }
#endif
    if (ax->taps == 5 && ay->taps == 5) draw_rows(pl, dst, dstride, dx, dy, tw, th, 5, 5);
    else if (ax->taps == 7 && ay->taps == 7) draw_rows(pl, dst, dstride, dx, dy, tw, th, 7, 7);
    else draw_rows(pl, dst, dstride, dx, dy, tw, th, ax->taps, ay->taps);
    free(pl);
    return 1;
}
