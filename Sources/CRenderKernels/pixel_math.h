/* Scalar pixel arithmetic shared by the projective and the affine span loops (private to this
   module): premultiplied ARGB32 words, two 8-bit channels per 0x00ff00ff lane. */
#ifndef TRANSHOST_PIXEL_MATH_H
#define TRANSHOST_PIXEL_MATH_H
#include <stddef.h>
#include <stdint.h>

/* Two 8-bit channels per 32-bit word (0x00ff00ff lanes); f in 0..256. */
static inline uint32_t lerp_px(uint32_t a, uint32_t b, uint32_t f) {
    uint32_t g = 256 - f;
    uint32_t rb = (((a & 0xff00ffu) * g + (b & 0xff00ffu) * f) >> 8) & 0xff00ffu;
    uint32_t ag = (((a >> 8) & 0xff00ffu) * g + ((b >> 8) & 0xff00ffu) * f) & 0xff00ff00u;
    return rb | ag;
}

static inline uint32_t scale_px(uint32_t p, uint32_t s) { /* s in 0..256 */
    uint32_t rb = (((p & 0xff00ffu) * s) >> 8) & 0xff00ffu;
    uint32_t ag = ((p >> 8) & 0xff00ffu) * s & 0xff00ff00u;
    return rb | ag;
}

static inline uint32_t over_px(uint32_t s, uint32_t d) {
    uint32_t inv = 255 - (s >> 24);
    inv += inv >> 7; /* 255 -> 256 */
    /* Saturating add per channel (s + d * (1 - sa) cannot exceed 255 for valid premultiplied
       pixels, but rounding may push it by one). */
    uint32_t dd = scale_px(d, inv);
    uint32_t rb = (s & 0xff00ffu) + (dd & 0xff00ffu);
    uint32_t ag = ((s >> 8) & 0xff00ffu) + ((dd >> 8) & 0xff00ffu);
    rb |= 0x1000100u - ((rb >> 8) & 0x10001u);
    ag |= 0x1000100u - ((ag >> 8) & 0x10001u);
    return (rb & 0xff00ffu) | ((ag & 0xff00ffu) << 8);
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
