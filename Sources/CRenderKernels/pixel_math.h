/* Scalar pixel arithmetic shared by the projective and the affine span loops (private to this
   module): premultiplied ARGB32 words. */
#ifndef TRANSHOST_PIXEL_MATH_H
#define TRANSHOST_PIXEL_MATH_H
#include <stddef.h>
#include <stdint.h>

/* The span loops' pixel arithmetic, one channel at a time: the scalar level of both loops and
   the reference their vector levels match byte for byte (span_levels.c). */

/* Bilinear sample of the footprint tl tr / bl br with 8-bit weights fx, fy (0..255): each
   texel column blended down first, then the two across, truncating after each step. */
static inline uint32_t bilinear_px(uint32_t tl, uint32_t tr, uint32_t bl, uint32_t br, uint32_t fx, uint32_t fy) {
    uint32_t r = 0;
    for (int s = 0; s < 32; s += 8) {
        const uint32_t l = (((tl >> s) & 255) * (256 - fy) + ((bl >> s) & 255) * fy) >> 8;
        const uint32_t q = (((tr >> s) & 255) * (256 - fy) + ((br >> s) & 255) * fy) >> 8;
        r |= ((l * (256 - fx) + q * fx) >> 8) << s;
    }
    return r;
}

/* s scaled by a (0..256), OVER d: d times 255 - sa (255 counting as 256), each product plus
   round (0 in the projective loop, 128 in the affine one) shifted down 8, the sum saturated. A
   zero s leaves d as it is. */
static inline uint32_t span_over_px(uint32_t s, uint32_t a, uint32_t d, uint32_t round) {
    if (a < 256) {
        uint32_t t = 0;
        for (int k = 0; k < 32; k += 8) t |= ((((s >> k) & 255) * a + round) >> 8) << k;
        s = t;
    }
    uint32_t inv = 255 - (s >> 24);
    inv += inv >> 7;
    uint32_t r = 0;
    for (int k = 0; k < 32; k += 8) {
        const uint32_t c = ((s >> k) & 255) + ((((d >> k) & 255) * inv + round) >> 8);
        r |= (c > 255 ? 255 : c) << k;
    }
    return r;
}

static inline uint32_t texel(const uint32_t *src, size_t stride, int w, int h, int x, int y) {
    if ((unsigned)x >= (unsigned)w || (unsigned)y >= (unsigned)h) return 0;
    return ((const uint32_t *)((const uint8_t *)src + (size_t)y * stride))[x];
}


/* Exact floor division and narrowing of a linear run to a range (used by both span loops). */
static inline int64_t floor_div(int64_t a, int64_t b) {
    int64_t q = a / b;
    if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
    return q;
}

/* Narrows [*k0, *k1) to the k with lo <= p + k * dp <= hi (exact: integer arithmetic). */
static inline void narrow(int64_t p, int64_t dp, int64_t lo, int64_t hi, int64_t *k0, int64_t *k1) {
    int64_t a, b; /* a <= k <= b */
    if (dp == 0) {
        if (p < lo || p > hi) *k1 = *k0;
        return;
    }
    if (dp > 0) { a = -floor_div(p - lo, dp); b = floor_div(hi - p, dp); }
    else { a = -floor_div(hi - p, -dp); b = floor_div(p - lo, -dp); }
    if (a > *k0) *k0 = a;
    if (b + 1 < *k1) *k1 = b + 1;
    if (*k1 < *k0) *k1 = *k0;
}

#endif
