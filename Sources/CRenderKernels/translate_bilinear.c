#include "render_kernels.h"
#include "pixman_bilinear.h"
#include "render_bands.h"
#include <stdatomic.h>
#include <stdint.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* ---- pixman's bilinear OVER for a layer moved by a fraction of a pixel --------------------------

   What pixman 0.42 computes for OVER of an a8r8g8b8 source (repeat NONE, BILINEAR filter, a
   transform that only translates) onto an a8r8g8b8 destination, without a mask, written again
   for the one case where every destination pixel has the same four weights. pixman works the
   weights out per pixel; here they are worked out once per call.

   pixman's arithmetic (its SSE2 scaled bilinear paths, which this machine family takes):
   - the sample position of a pixel is its centre mapped and moved back half a texel, in 16.16;
     its integer part is the top-left texel, bits 9..15 of its fraction the 7-bit weight of the
     right (bottom) texel, and 128 minus that the left (top) one;
   - each channel is (wl (wt tl + wb bl) + wr (wt tr + wb br)) >> 14, exactly, with texels
     outside the source counted as 0;
   - OVER: a source pixel of alpha 255 is stored, a zero pixel leaves the destination, and any
     other gives s + d (255 - sa) / 255 per channel, the product rounded as ((d (255 - sa) +
     0x80) * 0x101) >> 16, the sum saturated at 255. */

typedef struct {
    const uint32_t *src; size_t src_stride; int sw, sh;
    uint32_t *dst; size_t dst_stride; int x0, x1;
    int64_t vx, vy; /* sample position of (x0, y0), 16.16 */
    int y0;         /* the rectangle's first row, whose pixel (x0, y0) samples at (vx, vy) */
} tb_job;

#if defined(__SSE2__)
/* Four pixels whose eight texels all lie inside the source: tp/bp point at the top-left texel
   of the first pixel in the top and bottom rows. */
static inline __m128i tb_sample4(const uint32_t *tp, const uint32_t *bp, __m128i wt, __m128i wb, __m128i wh) {
    const __m128i z = _mm_setzero_si128();
    const __m128i t0 = _mm_loadu_si128((const __m128i *)tp), t1 = _mm_loadu_si128((const __m128i *)(tp + 1));
    const __m128i b0 = _mm_loadu_si128((const __m128i *)bp), b1 = _mm_loadu_si128((const __m128i *)(bp + 1));
    const __m128i l01 = _mm_add_epi16(_mm_mullo_epi16(_mm_unpacklo_epi8(t0, z), wt), _mm_mullo_epi16(_mm_unpacklo_epi8(b0, z), wb));
    const __m128i l23 = _mm_add_epi16(_mm_mullo_epi16(_mm_unpackhi_epi8(t0, z), wt), _mm_mullo_epi16(_mm_unpackhi_epi8(b0, z), wb));
    const __m128i r01 = _mm_add_epi16(_mm_mullo_epi16(_mm_unpacklo_epi8(t1, z), wt), _mm_mullo_epi16(_mm_unpacklo_epi8(b1, z), wb));
    const __m128i r23 = _mm_add_epi16(_mm_mullo_epi16(_mm_unpackhi_epi8(t1, z), wt), _mm_mullo_epi16(_mm_unpackhi_epi8(b1, z), wb));
    const __m128i p0 = _mm_srli_epi32(_mm_madd_epi16(_mm_unpacklo_epi16(l01, r01), wh), 14);
    const __m128i p1 = _mm_srli_epi32(_mm_madd_epi16(_mm_unpackhi_epi16(l01, r01), wh), 14);
    const __m128i p2 = _mm_srli_epi32(_mm_madd_epi16(_mm_unpacklo_epi16(l23, r23), wh), 14);
    const __m128i p3 = _mm_srli_epi32(_mm_madd_epi16(_mm_unpackhi_epi16(l23, r23), wh), 14);
    return _mm_packus_epi16(_mm_packs_epi32(p0, p1), _mm_packs_epi32(p2, p3));
}

/* s OVER the four pixels at d, as pixman's SSE2 OVER does it. */
static inline void tb_over4(__m128i s, uint32_t *d) {
    const __m128i alpha = _mm_set1_epi32((int)0xff000000);
    const int opaque = _mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(s, alpha), alpha)) == 0xffff;
    if (opaque) { _mm_storeu_si128((__m128i *)d, s); return; }
    const __m128i z = _mm_setzero_si128();
    if (_mm_movemask_epi8(_mm_cmpeq_epi8(s, z)) == 0xffff) return;
    const __m128i dv = _mm_loadu_si128((const __m128i *)d);
    const __m128i c80 = _mm_set1_epi16(0x80), c101 = _mm_set1_epi16(0x101), ff = _mm_set1_epi16(0xff);
    const __m128i slo = _mm_unpacklo_epi8(s, z), shi = _mm_unpackhi_epi8(s, z);
    const __m128i alo = _mm_xor_si128(_mm_shufflehi_epi16(_mm_shufflelo_epi16(slo, 0xff), 0xff), ff);
    const __m128i ahi = _mm_xor_si128(_mm_shufflehi_epi16(_mm_shufflelo_epi16(shi, 0xff), 0xff), ff);
    const __m128i dlo = _mm_mulhi_epu16(_mm_adds_epu16(_mm_mullo_epi16(_mm_unpacklo_epi8(dv, z), alo), c80), c101);
    const __m128i dhi = _mm_mulhi_epu16(_mm_adds_epu16(_mm_mullo_epi16(_mm_unpackhi_epi8(dv, z), ahi), c80), c101);
    _mm_storeu_si128((__m128i *)d, _mm_adds_epu8(s, _mm_packus_epi16(dlo, dhi)));
}
#endif

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define TB_AVX2 __attribute__((target("avx2")))
/* Eight pixels at once. The vertical step multiplies interleaved (top, bottom) bytes by the
   (wt, wb) byte pair, which needs both weights below 128: tb_rows turns wt = 128 into pixman's
   own equivalent (the same row twice, 64 and 64). In-lane unpacks and packs undo each other, so
   the pixels come out in order. */
TB_AVX2 static inline __m256i tb_blend8(__m256i t0, __m256i t1, __m256i b0, __m256i b1, __m256i wv, __m256i wh) {
    const __m256i la = _mm256_maddubs_epi16(_mm256_unpacklo_epi8(t0, b0), wv); /* px 0 1 | 4 5 */
    const __m256i lb = _mm256_maddubs_epi16(_mm256_unpackhi_epi8(t0, b0), wv); /* px 2 3 | 6 7 */
    const __m256i ra = _mm256_maddubs_epi16(_mm256_unpacklo_epi8(t1, b1), wv);
    const __m256i rb = _mm256_maddubs_epi16(_mm256_unpackhi_epi8(t1, b1), wv);
    const __m256i p0 = _mm256_srli_epi32(_mm256_madd_epi16(_mm256_unpacklo_epi16(la, ra), wh), 14);
    const __m256i p1 = _mm256_srli_epi32(_mm256_madd_epi16(_mm256_unpackhi_epi16(la, ra), wh), 14);
    const __m256i p2 = _mm256_srli_epi32(_mm256_madd_epi16(_mm256_unpacklo_epi16(lb, rb), wh), 14);
    const __m256i p3 = _mm256_srli_epi32(_mm256_madd_epi16(_mm256_unpackhi_epi16(lb, rb), wh), 14);
    return _mm256_packus_epi16(_mm256_packs_epi32(p0, p1), _mm256_packs_epi32(p2, p3));
}
TB_AVX2 static inline __m256i tb_sample8(const uint32_t *tp, const uint32_t *bp, __m256i wv, __m256i wh) {
    return tb_blend8(_mm256_loadu_si256((const __m256i *)tp), _mm256_loadu_si256((const __m256i *)(tp + 1)),
                     _mm256_loadu_si256((const __m256i *)bp), _mm256_loadu_si256((const __m256i *)(bp + 1)), wv, wh);
}

/* Pixels [k, kb) of a row, eight at a time while the eighth one's right tap is inside; returns
   the first pixel it did not draw. */
TB_AVX2 static int tb_span8(const uint32_t *top, const uint32_t *bot, uint32_t *d, int64_t sx0, int k, int kb,
                            uint32_t wl, uint32_t wr, uint32_t wt, uint32_t wb) {
    const __m256i wv = _mm256_set1_epi16((short)(wt | (wb << 8)));
    const __m256i wh = _mm256_set1_epi32((int)(wl | (wr << 16)));
    const int k0 = k;
    /* Weights short of 128 stand for a row outside the source (tb_row_taps passes the other
       row in its place, with the missing one's weight): equal texels then blend to less. */
    const int rows_inside = wt + wb == 128;
    for (; k + 8 <= kb; k += 8) {
        const uint32_t *tp = top + sx0 + k, *bp = bot + sx0 + k;
        const __m256i t0 = _mm256_loadu_si256((const __m256i *)tp), t1 = _mm256_loadu_si256((const __m256i *)(tp + 1));
        const __m256i b0 = _mm256_loadu_si256((const __m256i *)bp), b1 = _mm256_loadu_si256((const __m256i *)(bp + 1));
        /* The nine texels of both rows one colour (a flat area, most of a page): every blend is
           that colour exactly (weights summing to 128 twice, shifted back by 14). */
        const __m256i same = _mm256_and_si256(_mm256_and_si256(_mm256_cmpeq_epi32(t0, t1), _mm256_cmpeq_epi32(t0, b0)),
                                              _mm256_cmpeq_epi32(t1, b1));
        pm_over8(rows_inside && _mm256_movemask_epi8(same) == -1 ? t0 : tb_blend8(t0, t1, b0, b1, wv, wh), d + k, 255);
    }
    if (k < kb && kb - 8 >= k0) {
        /* The last few: the eight samples ending at kb (their reads are inside), blended one
           by one where not yet drawn. */
        uint32_t last[8];
        _mm256_storeu_si256((__m256i *)last, tb_sample8(top + sx0 + kb - 8, bot + sx0 + kb - 8, wv, wh));
        for (; k < kb; k++) d[k] = tb_over(last[k - (kb - 8)], d[k]);
    }
    return k;
}
#endif

/* Which vector code the rows use: 2 AVX2, 1 SSE2, 0 none; -1 until the first composite (or
   th_translate_bilinear_level) picks the best the CPU has. */
static _Atomic int tb_level = -1;

int th_translate_bilinear_level(int level) {
    const int best = th_vector_best_level();
    const int chosen = (level < 0 || level > best) ? best : level;
    atomic_store_explicit(&tb_level, chosen, memory_order_relaxed);
    return chosen;
}

/* Rows [ya, yb) of the rectangle (each row depends only on itself). */
static void tb_rows(const void *job, int ya, int yb) {
    const tb_job *j = (const tb_job *)job;
    const int level = atomic_load_explicit(&tb_level, memory_order_relaxed);
    const uint32_t wr = (uint32_t)(j->vx >> 9) & 127, wl = 128 - wr;
    const int64_t sx0 = j->vx >> 16; /* texel column of x0's left tap */
    const int n = j->x1 - j->x0;
    /* Pixels k in [ka, kb) read both taps inside the source. */
    int64_t ka = -sx0, kb = (int64_t)j->sw - 1 - sx0;
    if (ka < 0) ka = 0;
    if (ka > n) ka = n;
    if (kb > n) kb = n;
    if (kb < ka) kb = ka;
    for (int y = ya; y < yb; y++) {
        const uint32_t *top, *bot;
        uint32_t wt, wb;
        if (!tb_row_taps(j->src, j->src_stride, j->sh, j->vy + (int64_t)(y - j->y0) * 65536, &top, &bot, &wt, &wb)) continue;
        uint32_t *d = (uint32_t *)((uint8_t *)j->dst + (size_t)y * j->dst_stride) + j->x0;
        int k = 0;
        for (; k < ka; k++) {
            const int64_t x = sx0 + k;
            d[k] = tb_over(tb_sample(tb_texel(top, j->sw, x), tb_texel(top, j->sw, x + 1),
                                     tb_texel(bot, j->sw, x), tb_texel(bot, j->sw, x + 1), wl, wr, wt, wb), d[k]);
        }
#if defined(__x86_64__) || defined(__i386__)
        if (level == 2) {
            /* pixman's own form of a whole top weight: the top row twice, 64 and 64 */
            if (wt == 128) k = tb_span8(top, top, d, sx0, k, kb, wl, wr, 64, 64);
            else k = tb_span8(top, bot, d, sx0, k, kb, wl, wr, wt, wb);
        }
#endif
#if defined(__SSE2__)
        if (level == 1) {
            const __m128i vwt = _mm_set1_epi16((short)wt), vwb = _mm_set1_epi16((short)wb);
            const __m128i vwh = _mm_set1_epi32((int)(wl | (wr << 16)));
            /* four at a time while the fourth pixel's right tap is inside */
            for (; k + 4 <= kb; k += 4)
                tb_over4(tb_sample4(top + sx0 + k, bot + sx0 + k, vwt, vwb, vwh), d + k);
        }
#endif
        for (; k < kb; k++) {
            const int64_t x = sx0 + k;
            d[k] = tb_over(tb_sample(top[x], top[x + 1], bot[x], bot[x + 1], wl, wr, wt, wb), d[k]);
        }
        for (; k < n; k++) {
            const int64_t x = sx0 + k;
            d[k] = tb_over(tb_sample(tb_texel(top, j->sw, x), tb_texel(top, j->sw, x + 1),
                                     tb_texel(bot, j->sw, x), tb_texel(bot, j->sw, x + 1), wl, wr, wt, wb), d[k]);
        }
    }
}

void th_composite_translate_bilinear(const uint32_t *src, size_t src_stride, int sw, int sh,
                                     uint32_t *dst, size_t dst_stride, int x0, int y0, int x1, int y1,
                                     int64_t vx, int64_t vy) {
    if (x1 <= x0 || y1 <= y0 || sw <= 0 || sh <= 0) return;
    if (atomic_load_explicit(&tb_level, memory_order_relaxed) < 0) th_translate_bilinear_level(-1);
    const tb_job job = {src, src_stride, sw, sh, dst, dst_stride, x0, x1, vx, vy, y0};
    th_band_rows(tb_rows, &job, y0, y1, (int64_t)(x1 - x0) * (y1 - y0));
}
