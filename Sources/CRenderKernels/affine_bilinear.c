#include "render_kernels.h"
#include "pixel_math.h"
#include "span_levels.h"
#include <stdint.h>
#include <stdlib.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* ---- Affine bilinear span loop ------------------------------------------------------------ */

/* Source positions in fixed point with AFF_FRAC fractional bits (int64): the integer part is
   the left/top texel of the bilinear footprint, bits AFF_FRAC-8 .. AFF_FRAC-1 the 8-bit weight.
   24 bits keep the accumulated step error below 1e-4 texel over any row of a 32767-px image. */
enum { AFF_FRAC = 24 };

static inline int64_t round_i64(double x) { return x >= 0 ? (int64_t)(x + 0.5) : -(int64_t)(-x + 0.5); }

static inline uint32_t mask_alpha(uint32_t alpha, const uint8_t *mrow, int i) {
    if (!mrow) return alpha;
    const uint32_t mv = mrow[i];
    return (alpha * (mv + (mv >> 7))) >> 8;
}

#if defined(__SSE2__)
/* SSE2 helpers: a pixel is 4 x u16 lanes (B, G, R, A). A bilinear "column" of one pixel is
   [left texel column, right texel column] after the vertical step. */
static inline __m128i affine_vertical(__m128i top, __m128i bot, int64_t v) {
    const int fy = (int)(v >> (AFF_FRAC - 8)) & 0xff;
    return _mm_srli_epi16(_mm_add_epi16(_mm_mullo_epi16(top, _mm_set1_epi16((short)(256 - fy))),
                                        _mm_mullo_epi16(bot, _mm_set1_epi16((short)fy))), 8);
}

/* Column of a pixel whose four texels are all inside the image (no bounds checks). */
static inline __m128i affine_column(const uint32_t *src, size_t stride, int64_t u, int64_t v) {
    const __m128i zero = _mm_setzero_si128();
    const uint32_t *p = (const uint32_t *)((const uint8_t *)src + (size_t)(v >> AFF_FRAC) * stride) + (u >> AFF_FRAC);
    const __m128i top = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)p), zero);
    const __m128i bot = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)((const uint8_t *)p + stride)), zero);
    return affine_vertical(top, bot, v);
}

/* Column of a pixel on the layer's edge: texels outside the image are transparent. */
static inline __m128i affine_column_edge(const uint32_t *src, size_t stride, int sw, int sh, int64_t u, int64_t v) {
    const __m128i zero = _mm_setzero_si128();
    const int ui = (int)(u >> AFF_FRAC), vi = (int)(v >> AFF_FRAC);
    const __m128i top = _mm_unpacklo_epi8(_mm_set_epi32(0, 0, (int)texel(src, stride, sw, sh, ui + 1, vi),
                                                        (int)texel(src, stride, sw, sh, ui, vi)), zero);
    const __m128i bot = _mm_unpacklo_epi8(_mm_set_epi32(0, 0, (int)texel(src, stride, sw, sh, ui + 1, vi + 1),
                                                        (int)texel(src, stride, sw, sh, ui, vi + 1)), zero);
    return affine_vertical(top, bot, v);
}

/* Horizontal step of two pixels (a in the low half, b in the high half). */
static inline __m128i affine_horizontal(__m128i ca, __m128i cb, int64_t ua, int64_t ub) {
    const int fa = (int)(ua >> (AFF_FRAC - 8)) & 0xff, fb = (int)(ub >> (AFF_FRAC - 8)) & 0xff;
    const __m128i left = _mm_unpacklo_epi64(ca, cb), right = _mm_unpackhi_epi64(ca, cb);
    const __m128i wx = _mm_unpacklo_epi64(_mm_set1_epi16((short)fa), _mm_set1_epi16((short)fb));
    const __m128i wx1 = _mm_sub_epi16(_mm_set1_epi16(256), wx);
    return _mm_srli_epi16(_mm_add_epi16(_mm_mullo_epi16(left, wx1), _mm_mullo_epi16(right, wx)), 8);
}

/* s (two pixels) times alpha aa / ab (0..256, rounded), OVER the destination pixels
   (d * (255 - sa) with 255 counted as 256, rounded), packed with saturation: span_over_px with
   round 128, two pixels at a time. */
static inline __m128i affine_over(__m128i s, uint32_t aa, uint32_t ab, __m128i d) {
    const __m128i zero = _mm_setzero_si128(), half = _mm_set1_epi16(128);
    if (aa < 256 || ab < 256) {
        const __m128i a = _mm_unpacklo_epi64(_mm_set1_epi16((short)aa), _mm_set1_epi16((short)ab));
        s = _mm_srli_epi16(_mm_add_epi16(_mm_mullo_epi16(s, a), half), 8);
    }
    __m128i inv = _mm_sub_epi16(_mm_set1_epi16(255), _mm_shufflehi_epi16(_mm_shufflelo_epi16(s, 0xff), 0xff));
    inv = _mm_add_epi16(inv, _mm_srli_epi16(inv, 7));
    const __m128i dd = _mm_unpacklo_epi8(d, zero);
    s = _mm_add_epi16(s, _mm_srli_epi16(_mm_add_epi16(_mm_mullo_epi16(dd, inv), half), 8));
    return _mm_packus_epi16(s, zero);
}
#endif

/* One edge pixel: texels outside the image are transparent. */
static inline void affine_edge_px(const uint32_t *src, size_t stride, int sw, int sh, int64_t u, int64_t v, uint32_t a,
                                  uint32_t *d, int level) {
    if (a == 0) return;
#if defined(__SSE2__)
    if (level != 0) {
        const __m128i c = affine_column_edge(src, stride, sw, sh, u, v);
        const __m128i s = affine_horizontal(c, c, u, u);
        *d = (uint32_t)_mm_cvtsi128_si32(affine_over(s, a, a, _mm_cvtsi32_si128((int)*d)));
        return;
    }
#else
    (void)level;
#endif
    const int ui = (int)(u >> AFF_FRAC), vi = (int)(v >> AFF_FRAC);
    const uint32_t fx = (uint32_t)(u >> (AFF_FRAC - 8)) & 0xff, fy = (uint32_t)(v >> (AFF_FRAC - 8)) & 0xff;
    *d = span_over_px(bilinear_px(texel(src, stride, sw, sh, ui, vi), texel(src, stride, sw, sh, ui + 1, vi),
                                  texel(src, stride, sw, sh, ui, vi + 1), texel(src, stride, sw, sh, ui + 1, vi + 1), fx, fy),
                      a, *d, 128);
}

void th_composite_affine_bilinear(const uint32_t *src, size_t src_stride, int sw, int sh,
                                  uint32_t *dst, size_t dst_stride, int x0, int y0, int x1, int y1,
                                  const double m[6], const uint8_t *mask, size_t mask_stride, uint32_t alpha,
                                  int src_opaque) {
    if (alpha == 0 || x1 <= x0 || y1 <= y0 || sw <= 0 || sh <= 0) return;
    /* Far-away or degenerate maps: the exact projective loop clamps its coordinates. */
    const double lim = 1.0e9;
    for (int c = 0; c < 4; c++) {
        const double X = (c & 1) ? x1 : x0, Y = (c & 2) ? y1 : y0;
        const double U = m[0] * X + m[1] * Y + m[2], V = m[3] * X + m[4] * Y + m[5];
        if (!(U > -lim && U < lim && V > -lim && V < lim)) {
            const double p[9] = {m[0], m[1], m[2], m[3], m[4], m[5], 0, 0, 1};
            th_composite_projective_bilinear(src, src_stride, sw, sh, dst, dst_stride, x0, y0, x1, y1, p, mask, mask_stride, alpha);
            return;
        }
    }
    const double one = (double)((int64_t)1 << AFF_FRAC);
    const int64_t du = round_i64(m[0] * one), dv = round_i64(m[3] * one);
    const int64_t W = (int64_t)sw << AFF_FRAC, H = (int64_t)sh << AFF_FRAC, ONE = (int64_t)1 << AFF_FRAC;
    const int n = x1 - x0, rows = y1 - y0;
    /* Interior pixels of an opaque source at full alpha are opaque: stored, not blended. */
    const int store = src_opaque && alpha >= 256 && !mask;
    /* Per row: the source position of the first pixel, the pixels whose footprint touches the
       image (texel row/column -1 .. size - 1) and those whose whole footprint is inside
       (0 .. size - 2, read without bounds checks). */
    typedef struct { int64_t u0, v0; int32_t ko0, ko1, ki0, ki1; } row_span;
    row_span *spans = (row_span *)malloc((size_t)rows * sizeof(row_span));
    if (!spans) return;
    for (int y = y0; y < y1; y++) {
        row_span *r = &spans[y - y0];
        const double X = x0 + 0.5, Y = y + 0.5;
        r->u0 = round_i64((m[0] * X + m[1] * Y + m[2] - 0.5) * one);
        r->v0 = round_i64((m[3] * X + m[4] * Y + m[5] - 0.5) * one);
        int64_t ko0 = 0, ko1 = n;
        narrow(r->u0, du, -ONE, W - 1, &ko0, &ko1);
        narrow(r->v0, dv, -ONE, H - 1, &ko0, &ko1);
        int64_t ki0 = ko0, ki1 = ko1;
        if (ko0 < ko1 && sw >= 2 && sh >= 2) {
            narrow(r->u0, du, 0, W - ONE - 1, &ki0, &ki1);
            narrow(r->v0, dv, 0, H - ONE - 1, &ki0, &ki1);
        } else ki1 = ki0;
        if (ki0 >= ki1) ki0 = ki1 = ko1;
        r->ko0 = (int32_t)ko0; r->ko1 = (int32_t)ko1; r->ki0 = (int32_t)ki0; r->ki1 = (int32_t)ki1;
    }
    /* Vertical strips of STRIP destination columns, each top to bottom: a rotated source is
       then read within a small band (cache and TLB friendly) instead of across as many source
       rows as a destination row crosses. */
    enum { STRIP = 64 };
    const int level = th_span_level_now();
    /* How far a pixel's source position moves eight rows down (where the AVX2 interior
       prefetches). */
    const int64_t ahead_u = round_i64(m[1] * one * 8), ahead_v = round_i64(m[4] * one * 8);
    for (int sx = 0; sx < n; sx += STRIP) {
        const int se = sx + STRIP < n ? sx + STRIP : n;
        for (int y = y0; y < y1; y++) {
            const row_span *r = &spans[y - y0];
            const int lo = r->ko0 > sx ? r->ko0 : sx, hi = r->ko1 < se ? r->ko1 : se;
            if (lo >= hi) continue;
            int i0 = r->ki0 < lo ? lo : (r->ki0 > hi ? hi : r->ki0);
            int i1 = r->ki1 < i0 ? i0 : (r->ki1 > hi ? hi : r->ki1);
            uint32_t *drow = (uint32_t *)((uint8_t *)dst + (size_t)y * dst_stride) + x0;
            const uint8_t *mrow = mask ? mask + (size_t)(y - y0) * mask_stride : 0;
            int k = lo;
            int64_t u = r->u0 + k * du, v = r->v0 + k * dv;
            for (; k < i0; k++, u += du, v += dv)
                affine_edge_px(src, src_stride, sw, sh, u, v, mask_alpha(alpha, mrow, k), &drow[k], level);
            /* The interior pixels, an even number of them at every level (the odd one is an edge
               pixel), so that each pixel is blended or stored alike at every level. */
            const int ie = i0 + ((i1 - i0) & ~1);
#if defined(__x86_64__) || defined(__i386__)
            if (level == 2) {
                k = th_affine_interior_avx2(src, src_stride, sw, sh, drow, k, ie, u, v, du, dv, ahead_u, ahead_v, mrow, alpha, store);
                u = r->u0 + k * du; v = r->v0 + k * dv;
            }
#endif
#if defined(__SSE2__)
            const __m128i zero = _mm_setzero_si128();
            for (; level != 0 && k < ie; k += 2, u += 2 * du, v += 2 * dv) {
                const __m128i s = affine_horizontal(affine_column(src, src_stride, u, v),
                                                    affine_column(src, src_stride, u + du, v + dv), u, u + du);
                __m128i *d = (__m128i *)&drow[k];
                if (store) {
                    _mm_storel_epi64(d, _mm_packus_epi16(s, zero));
                    continue;
                }
                const uint32_t aa = mask_alpha(alpha, mrow, k), ab = mask_alpha(alpha, mrow, k + 1);
                if ((aa | ab) == 0) continue;
                _mm_storel_epi64(d, affine_over(s, aa, ab, _mm_loadl_epi64(d)));
            }
#endif
            for (; k < ie; k++, u += du, v += dv) {
                const uint32_t *p = (const uint32_t *)((const uint8_t *)src + (size_t)(v >> AFF_FRAC) * src_stride) + (u >> AFF_FRAC);
                const uint32_t *q = (const uint32_t *)((const uint8_t *)p + src_stride);
                const uint32_t s = bilinear_px(p[0], p[1], q[0], q[1], (uint32_t)(u >> (AFF_FRAC - 8)) & 0xff, (uint32_t)(v >> (AFF_FRAC - 8)) & 0xff);
                drow[k] = store ? s : span_over_px(s, mask_alpha(alpha, mrow, k), drow[k], 128);
            }
            for (; k < hi; k++, u += du, v += dv)
                affine_edge_px(src, src_stride, sw, sh, u, v, mask_alpha(alpha, mrow, k), &drow[k], level);
        }
    }
    free(spans);
}
