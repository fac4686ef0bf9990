#include "render_kernels.h"
#include "pixman_bilinear.h"
#include "render_bands.h"
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

/* ---- pixman's bilinear OVER for a scaled layer, optionally faded -------------------------------

   As translate_bilinear.c, for a transform that scales each axis by a positive factor (and
   translates), with an optional solid mask (a layer's alpha): pixman's scaled bilinear paths.
   Each row has one vertical weight pair; each pixel its own texel column, vx >> 16, and
   horizontal weight, bits 9..15 of vx, where vx steps by the matrix's x scale from pixel to
   pixel. A solid mask m (pixman's 8-bit alpha of the mask colour) first multiplies the sample,
   s m / 255 per channel rounded as OVER's product is, and the result goes OVER the
   destination; m = 255 is no mask. */

typedef struct {
    const uint32_t *src; size_t src_stride; int sw, sh;
    uint32_t *dst; size_t dst_stride; int x0, x1;
    int64_t vx, vy, ux, uy; /* sample position of (x0, y0) and its steps, 16.16 */
    uint32_t m;
    int y0; /* the rectangle's first row */
} sb_job;

/* As translate_bilinear.c's level: 2 AVX2, else 0 (there is no SSE2 code). */
static _Atomic int sb_level = -1;

int th_scaled_bilinear_level(int level) {
    const int best = th_vector_best_level() == 2 ? 2 : 0;
    const int chosen = (level < 0 || level > best) ? best : level;
    atomic_store_explicit(&sb_level, chosen, memory_order_relaxed);
    return chosen;
}

static inline uint32_t sb_blend(uint32_t s, uint32_t d, uint32_t m) {
    if (m != 255) s = tb_in(s, m);
    return tb_over(s, d);
}

#if defined(__x86_64__) || defined(__i386__)
#define SB_AVX2 __attribute__((target("avx2")))

/* Four pixels' samples, in order, from their texel pairs: t and b hold each pixel's (left,
   right) texels of the top and bottom rows, pixels 0 1 | 2 3. The pairs are interleaved top
   with bottom and multiplied by (wt, wb) (both below 128: see sb_rows), then each pixel's left
   and right sums are weighted by its own (wl, wr). `vx` holds the four sample positions. */
SB_AVX2 static inline __m128i sb_blend4(__m256i t, __m256i b, __m256i vx, __m256i wv) {
    const __m256i v02 = _mm256_maddubs_epi16(_mm256_unpacklo_epi8(t, b), wv); /* px 0 | px 2: L (4 x 16), R (4 x 16) */
    const __m256i v13 = _mm256_maddubs_epi16(_mm256_unpackhi_epi8(t, b), wv); /* px 1 | px 3 */
    const __m256i pairs = _mm256_setr_epi8(0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15,
                                           0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15);
    const __m256i wr = _mm256_and_si256(_mm256_srli_epi64(vx, 9), _mm256_set1_epi64x(127));
    const __m256i w = _mm256_or_si256(_mm256_sub_epi64(_mm256_set1_epi64x(128), wr), _mm256_slli_epi64(wr, 16));
    const __m256i p02 = _mm256_srli_epi32(_mm256_madd_epi16(_mm256_shuffle_epi8(v02, pairs), _mm256_shuffle_epi32(w, 0x00)), 14);
    const __m256i p13 = _mm256_srli_epi32(_mm256_madd_epi16(_mm256_shuffle_epi8(v13, pairs), _mm256_shuffle_epi32(w, 0xaa)), 14);
    const __m256i px = _mm256_packus_epi16(_mm256_packs_epi32(p02, p13), _mm256_setzero_si256()); /* 0 1 | 2 3 */
    return _mm256_castsi256_si128(_mm256_permute4x64_epi64(px, 0x08));
}

/* Four pixels' samples when the map shrinks by at most 2 (see sb_span): the eight texels from
   column x0 (at most the first pixel's left tap) of each row hold every tap of the four, and
   each pixel's pair is picked out of them. */
SB_AVX2 static inline __m128i sb_sample4(const uint32_t *top, const uint32_t *bot, int64_t x0, __m256i vx, __m256i wv) {
    const __m256i rel = _mm256_sub_epi64(_mm256_srli_epi64(vx, 16), _mm256_set1_epi64x(x0)); /* 0..6 */
    const __m256i idx = _mm256_add_epi32(_mm256_shuffle_epi32(rel, 0xa0), _mm256_setr_epi32(0, 1, 0, 1, 0, 1, 0, 1));
    const __m256i t = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(top + x0)), idx);
    const __m256i b = _mm256_permutevar8x32_epi32(_mm256_loadu_si256((const __m256i *)(bot + x0)), idx);
    return sb_blend4(t, b, vx, wv);
}

/* The same for any shrink: each pixel's pair read on its own (x: the four left taps). */
SB_AVX2 static inline __m128i sb_sample4_far(const uint32_t *top, const uint32_t *bot, const int64_t x[4], __m256i vx, __m256i wv) {
    long long p[4], q[4];
    for (int i = 0; i < 4; i++) { memcpy(&p[i], top + x[i], 8); memcpy(&q[i], bot + x[i], 8); }
    return sb_blend4(_mm256_setr_epi64x(p[0], p[1], p[2], p[3]), _mm256_setr_epi64x(q[0], q[1], q[2], q[3]), vx, wv);
}

/* Pixels [k, kb) whose texels are all inside, four at a time, for shrinks by more than 2.
   Returns the first not drawn. */
SB_AVX2 static int sb_span_far(const uint32_t *top, const uint32_t *bot, uint32_t *d, int64_t vx0, int64_t ux, int k, int kb,
                               __m256i wv, uint32_t m) {
    for (; k + 8 <= kb; k += 8) {
        const int64_t v = vx0 + (int64_t)k * ux, w = v + 4 * ux;
        const int64_t xa[4] = {v >> 16, (v + ux) >> 16, (v + 2 * ux) >> 16, (v + 3 * ux) >> 16};
        const int64_t xb[4] = {w >> 16, (w + ux) >> 16, (w + 2 * ux) >> 16, (w + 3 * ux) >> 16};
        const __m128i a = sb_sample4_far(top, bot, xa, _mm256_setr_epi64x(v, v + ux, v + 2 * ux, v + 3 * ux), wv);
        const __m128i b = sb_sample4_far(top, bot, xb, _mm256_setr_epi64x(w, w + ux, w + 2 * ux, w + 3 * ux), wv);
        pm_over8(_mm256_inserti128_si256(_mm256_castsi128_si256(a), b, 1), d + k, m);
    }
    for (; k + 4 <= kb; k += 4) {
        const int64_t v = vx0 + (int64_t)k * ux;
        const int64_t x[4] = {v >> 16, (v + ux) >> 16, (v + 2 * ux) >> 16, (v + 3 * ux) >> 16};
        uint32_t px[4];
        _mm_storeu_si128((__m128i *)px, sb_sample4_far(top, bot, x, _mm256_setr_epi64x(v, v + ux, v + 2 * ux, v + 3 * ux), wv));
        for (int i = 0; i < 4; i++) d[k + i] = sb_blend(px[i], d[k + i], m);
    }
    return k;
}

/* Pixels [k, kb) whose texels are all inside; eight at a time. Returns the first not drawn. */
SB_AVX2 static int sb_span(const uint32_t *top, const uint32_t *bot, int sw, uint32_t *d, int64_t vx0, int64_t ux, int k, int kb,
                           uint32_t wt, uint32_t wb, uint32_t m) {
    /* Four pixels' taps lie within eight texels while ux <= 2.0 (the fourth pixel's left tap is
       at most 6 past the first's); each half-block reads those eight, so stops before the
       row's end. */
    const __m256i wv = _mm256_set1_epi16((short)(wt | (wb << 8)));
    if (ux > 131072 || sw < 8) return sb_span_far(top, bot, d, vx0, ux, k, kb, wv, m);
    const int64_t v0 = vx0 + (int64_t)k * ux;
    __m256i vx = _mm256_setr_epi64x(v0, v0 + ux, v0 + 2 * ux, v0 + 3 * ux);
    const __m256i step = _mm256_set1_epi64x(4 * ux);
    /* The eight texels read start at the first pixel's left tap, or end at the row's end
       (every tap of an interior pixel is then still among them). */
    const int64_t last = sw - 8;
    const int k0 = k, whole = wt + wb == 128;
    for (int64_t v = v0; k + 8 <= kb; k += 8, v += 8 * ux) {
        const int64_t xa = v >> 16, xb = (v + 4 * ux) >> 16;
        /* Eight pixels whose taps (columns xa .. xl + 1 of both rows) are all one colour x
           sample x at any weights while the rows' weights sum to 128 (not on a row at the
           source's top or bottom edge, where one row is outside): 128 * 128 x >> 14 is x. It
           goes OVER as the samples would. Two loads a row cover the taps; the first ends
           before the row's end (xa <= last), the second at the last tap. */
        const int64_t xl = (v + 7 * ux) >> 16;
        if (whole && xa <= last && xl - xa <= 14) {
            const int64_t xq = xl - 6 > xa ? xl - 6 : xa;
            const __m256i c = _mm256_set1_epi32((int)top[xa]);
            const __m256i eq = _mm256_and_si256(
                _mm256_and_si256(_mm256_cmpeq_epi32(_mm256_loadu_si256((const __m256i *)(top + xa)), c),
                                 _mm256_cmpeq_epi32(_mm256_loadu_si256((const __m256i *)(top + xq)), c)),
                _mm256_and_si256(_mm256_cmpeq_epi32(_mm256_loadu_si256((const __m256i *)(bot + xa)), c),
                                 _mm256_cmpeq_epi32(_mm256_loadu_si256((const __m256i *)(bot + xq)), c)));
            if (_mm256_movemask_epi8(eq) == -1) {
                pm_over8(c, d + k, m);
                vx = _mm256_add_epi64(vx, _mm256_add_epi64(step, step));
                continue;
            }
        }
        const __m128i a = sb_sample4(top, bot, xa < last ? xa : last, vx, wv);
        vx = _mm256_add_epi64(vx, step);
        const __m128i b = sb_sample4(top, bot, xb < last ? xb : last, vx, wv);
        vx = _mm256_add_epi64(vx, step);
        pm_over8(_mm256_inserti128_si256(_mm256_castsi128_si256(a), b, 1), d + k, m);
    }
    /* The rest, four samples at a time (the last four ending at kb), blended one by one where
       not yet drawn. */
    while (k < kb && kb - 4 >= k0) {
        const int kk = k + 4 <= kb ? k : kb - 4;
        const int64_t v = vx0 + (int64_t)kk * ux, x = v >> 16;
        uint32_t px[4];
        _mm_storeu_si128((__m128i *)px, sb_sample4(top, bot, x < last ? x : last,
                                                     _mm256_setr_epi64x(v, v + ux, v + 2 * ux, v + 3 * ux), wv));
        for (; k < kk + 4; k++) d[k] = sb_blend(px[k - kk], d[k], m);
    }
    return k;
}
#endif

/* The first pixel k in [0, n] whose sample position vx0 + k ux (ux > 0) is at least lim. */
static inline int64_t sb_first_at(int64_t vx0, int64_t ux, int64_t lim, int n) {
    if (vx0 >= lim) return 0;
    const int64_t k = (lim - vx0 + ux - 1) / ux;
    return k > n ? n : k;
}

/* Rows [ya, yb) of the rectangle (each row depends only on itself). */
static void sb_rows(const void *job, int ya, int yb) {
    const sb_job *j = (const sb_job *)job;
    const int level = atomic_load_explicit(&sb_level, memory_order_relaxed), n = j->x1 - j->x0;
    /* Pixels [ka, kb) read both taps inside the source. */
    const int64_t ka = sb_first_at(j->vx, j->ux, 0, n);
    int64_t kb = sb_first_at(j->vx, j->ux, (int64_t)(j->sw - 1) * 65536, n);
    if (kb < ka) kb = ka;
    for (int y = ya; y < yb; y++) {
        const uint32_t *top, *bot;
        uint32_t wt, wb;
        if (!tb_row_taps(j->src, j->src_stride, j->sh, j->vy + (int64_t)(y - j->y0) * j->uy, &top, &bot, &wt, &wb)) continue;
        uint32_t *d = (uint32_t *)((uint8_t *)j->dst + (size_t)y * j->dst_stride) + j->x0;
        int k = 0;
        for (; k < ka; k++) {
            const int64_t vx = j->vx + k * j->ux, x = vx >> 16;
            if (x + 1 < 0) continue; /* both taps left of the source: nothing to draw */
            const uint32_t wr = (uint32_t)(vx >> 9) & 127;
            d[k] = sb_blend(tb_sample(tb_texel(top, j->sw, x), tb_texel(top, j->sw, x + 1), tb_texel(bot, j->sw, x),
                                      tb_texel(bot, j->sw, x + 1), 128 - wr, wr, wt, wb), d[k], j->m);
        }
#if defined(__x86_64__) || defined(__i386__)
        if (level == 2) {
            /* pixman's own form of a whole top weight: the top row twice, 64 and 64 */
            if (wt == 128) k = sb_span(top, top, j->sw, d, j->vx, j->ux, k, (int)kb, 64, 64, j->m);
            else k = sb_span(top, bot, j->sw, d, j->vx, j->ux, k, (int)kb, wt, wb, j->m);
        }
#endif
        for (; k < kb; k++) {
            const int64_t vx = j->vx + k * j->ux, x = vx >> 16;
            const uint32_t wr = (uint32_t)(vx >> 9) & 127;
            d[k] = sb_blend(tb_sample(top[x], top[x + 1], bot[x], bot[x + 1], 128 - wr, wr, wt, wb), d[k], j->m);
        }
        for (; k < n; k++) {
            const int64_t vx = j->vx + k * j->ux, x = vx >> 16;
            if (x >= j->sw) break; /* this and every later pixel: both taps right of the source */
            const uint32_t wr = (uint32_t)(vx >> 9) & 127;
            d[k] = sb_blend(tb_sample(tb_texel(top, j->sw, x), tb_texel(top, j->sw, x + 1), tb_texel(bot, j->sw, x),
                                      tb_texel(bot, j->sw, x + 1), 128 - wr, wr, wt, wb), d[k], j->m);
        }
    }
}

void th_composite_scaled_bilinear(const uint32_t *src, size_t src_stride, int sw, int sh,
                                  uint32_t *dst, size_t dst_stride, int x0, int y0, int x1, int y1,
                                  int64_t vx, int64_t vy, int64_t ux, int64_t uy, uint32_t mask) {
    if (x1 <= x0 || y1 <= y0 || sw <= 0 || sh <= 0 || ux <= 0 || uy <= 0 || mask == 0) return;
    if (atomic_load_explicit(&sb_level, memory_order_relaxed) < 0) th_scaled_bilinear_level(-1);
    const sb_job job = {src, src_stride, sw, sh, dst, dst_stride, x0, x1, vx, vy, ux, uy, mask > 255 ? 255 : mask, y0};
    th_band_rows(sb_rows, &job, y0, y1, (int64_t)(x1 - x0) * (y1 - y0));
}
