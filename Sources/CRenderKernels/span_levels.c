#include "render_kernels.h"
#include "span_levels.h"
#include "render_bands.h"
#include <stdatomic.h>

/* ---- Vector levels of the projective and the affine span loops ----------------------------

   Both loops blend four texels with 8-bit weights, the vertical step first and each step
   truncated to 8 bits (16-bit lanes hold every intermediate), then OVER the destination. The
   scalar level (pixel_math.h) spells that arithmetic out channel by channel; the SSE2 level
   draws one pixel (projective) or two (affine) per step, and AVX2 four. All give the same bytes; the level only changes the time. */

/* -1 until the first composite (or th_span_bilinear_level) picks the best the CPU has. */
static _Atomic int span_level = -1;

int th_span_bilinear_level(int level) {
    const int best = th_vector_best_level();
    const int chosen = (level < 0 || level > best) ? best : level;
    atomic_store_explicit(&span_level, chosen, memory_order_relaxed);
    return chosen;
}

int th_span_level_now(void) {
    const int level = atomic_load_explicit(&span_level, memory_order_relaxed);
    return level >= 0 ? level : th_span_bilinear_level(-1);
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#include <string.h>
#define SPAN_AVX2 __attribute__((target("avx2")))

/* Bilinear samples of four pixels as 16-bit channels, pixels 0 1 | 2 3 in the two 128-bit
   lanes. top and bot hold each pixel's texel pair (left, right) of its upper and lower source
   row in 64-bit lane i, fx and fy its weights (0..255) in the same lanes. */
SPAN_AVX2 static inline __m256i span_bilinear4(__m256i top, __m256i bot, __m256i fx, __m256i fy) {
    const __m256i z = _mm256_setzero_si256(), w256 = _mm256_set1_epi16(256);
    /* Spread the low word of a lane's first (even pixel) or second (odd pixel) 64 bits. */
    const __m256i even = _mm256_setr_epi8(0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1,
                                          0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1);
    const __m256i odd = _mm256_setr_epi8(8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9,
                                         8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9, 8, 9);
    /* One pixel per 128-bit lane: words 0-3 its left texel column, 4-7 its right one. */
    const __m256i fye = _mm256_shuffle_epi8(fy, even), fyo = _mm256_shuffle_epi8(fy, odd);
    const __m256i ve = _mm256_srli_epi16(_mm256_add_epi16(_mm256_mullo_epi16(_mm256_unpacklo_epi8(top, z), _mm256_sub_epi16(w256, fye)),
                                                          _mm256_mullo_epi16(_mm256_unpacklo_epi8(bot, z), fye)), 8);
    const __m256i vo = _mm256_srli_epi16(_mm256_add_epi16(_mm256_mullo_epi16(_mm256_unpackhi_epi8(top, z), _mm256_sub_epi16(w256, fyo)),
                                                          _mm256_mullo_epi16(_mm256_unpackhi_epi8(bot, z), fyo)), 8);
    const __m256i fxe = _mm256_shuffle_epi8(fx, even), fxo = _mm256_shuffle_epi8(fx, odd);
    const __m256i he = _mm256_mullo_epi16(ve, _mm256_blend_epi16(_mm256_sub_epi16(w256, fxe), fxe, 0xf0));
    const __m256i ho = _mm256_mullo_epi16(vo, _mm256_blend_epi16(_mm256_sub_epi16(w256, fxo), fxo, 0xf0));
    const __m256i se = _mm256_srli_epi16(_mm256_add_epi16(he, _mm256_bsrli_epi128(he, 8)), 8);
    const __m256i so = _mm256_srli_epi16(_mm256_add_epi16(ho, _mm256_bsrli_epi128(ho, 8)), 8);
    return _mm256_unpacklo_epi64(se, so);
}

/* s OVER the four pixels at d: d times 255 - sa (255 counting as 256) plus round, shifted
   down 8, added to s with saturation. */
SPAN_AVX2 static inline void span_over4(__m256i s, uint32_t *d, __m256i round) {
    __m256i inv = _mm256_sub_epi16(_mm256_set1_epi16(255), _mm256_shufflehi_epi16(_mm256_shufflelo_epi16(s, 0xff), 0xff));
    inv = _mm256_add_epi16(inv, _mm256_srli_epi16(inv, 7));
    const __m256i dd = _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)d));
    const __m256i out = _mm256_add_epi16(s, _mm256_srli_epi16(_mm256_add_epi16(_mm256_mullo_epi16(dd, inv), round), 8));
    _mm_storeu_si128((__m128i *)d, _mm256_castsi256_si128(_mm256_permute4x64_epi64(_mm256_packus_epi16(out, out), 0x08)));
}

/* span_bilinear4, for footprints that may lie in flat areas: a pixel whose four texels are one
   colour samples that colour exactly (each step's weights sum to 256), so when all four pixels'
   do, their left top texels, spread to 16-bit channels, are the samples. */
SPAN_AVX2 static inline __m256i span_sample4(__m256i top, __m256i bot, __m256i fx, __m256i fy) {
    const __m256i same = _mm256_and_si256(_mm256_cmpeq_epi32(top, bot), _mm256_cmpeq_epi32(top, _mm256_shuffle_epi32(top, 0xb1)));
    if (_mm256_movemask_epi8(same) != -1) return span_bilinear4(top, bot, fx, fy);
    const __m256i left = _mm256_setr_epi8(0, -1, 1, -1, 2, -1, 3, -1, 8, -1, 9, -1, 10, -1, 11, -1,
                                          0, -1, 1, -1, 2, -1, 3, -1, 8, -1, 9, -1, 10, -1, 11, -1);
    return _mm256_shuffle_epi8(top, left);
}
SPAN_AVX2 static inline void span_store4(__m256i s, uint32_t *d) {
    _mm_storeu_si128((__m128i *)d, _mm256_castsi256_si128(_mm256_permute4x64_epi64(_mm256_packus_epi16(s, s), 0x08)));
}

/* The texel pairs (left, right) of four footprints whose top-left texels are at p[0..3], in
   their row (*top) and the row below (*bot), pixel i in 64-bit lane i. Plain loads: on the
   AMD EPYC (Zen 3) measured they beat _mm256_i64gather_epi64 by a third. */
SPAN_AVX2 static inline void span_pairs4(const uint8_t *const p[4], size_t stride, __m256i *top, __m256i *bot) {
    long long t[4], b[4];
    for (int i = 0; i < 4; i++) { memcpy(&t[i], p[i], 8); memcpy(&b[i], p[i] + stride, 8); }
    *top = _mm256_setr_epi64x(t[0], t[1], t[2], t[3]);
    *bot = _mm256_setr_epi64x(b[0], b[1], b[2], b[3]);
}

/* The top-left texels of the footprints at (u + i du, v + i dv), i = 0..3, positions with frac
   fractional bits, non-negative inside the image. */
static inline void span_texels4(const uint32_t *src, size_t stride, int frac, int64_t u, int64_t v, int64_t du, int64_t dv,
                                const uint8_t *p[4]) {
    for (int i = 0; i < 4; i++, u += du, v += dv)
        p[i] = (const uint8_t *)src + (size_t)(v >> frac) * stride + (size_t)(u >> frac) * 4;
}

SPAN_AVX2 int th_projective_interior_avx2(const uint32_t *src, size_t stride, uint32_t *d, int len,
                                          int64_t u, int64_t v, int64_t du, int64_t dv) {
    const __m256i m255 = _mm256_set1_epi64x(255), zero = _mm256_setzero_si256();
    const __m256i du4 = _mm256_set1_epi64x(4 * du), dv4 = _mm256_set1_epi64x(4 * dv);
    __m256i uu = _mm256_setr_epi64x(u, u + du, u + 2 * du, u + 3 * du);
    __m256i vv = _mm256_setr_epi64x(v, v + dv, v + 2 * dv, v + 3 * dv);
    int k = 0;
    for (; k + 4 <= len; k += 4, u += 4 * du, v += 4 * dv, uu = _mm256_add_epi64(uu, du4), vv = _mm256_add_epi64(vv, dv4)) {
        const uint8_t *p[4];
        __m256i top, bot;
        span_texels4(src, stride, 16, u, v, du, dv, p);
        span_pairs4(p, stride, &top, &bot);
        /* Not span_sample4: flat footprints were filled before this is called (draw_span). */
        const __m256i s = span_bilinear4(top, bot, _mm256_and_si256(_mm256_srli_epi64(uu, 8), m255),
                                         _mm256_and_si256(_mm256_srli_epi64(vv, 8), m255));
        span_over4(s, d + k, zero);
    }
    return k;
}

SPAN_AVX2 int th_texels_are_avx2(const uint32_t *src, size_t stride, int u0, int u1, int v0, int v1, uint32_t c) {
    const __m256i want = _mm256_set1_epi32((int)c);
    const int n = u1 - u0 + 1;
    for (int v = v0; v <= v1; v++) {
        const uint32_t *row = (const uint32_t *)((const uint8_t *)src + (size_t)v * stride) + u0;
        if (n < 8) {
            for (int i = 0; i < n; i++)
                if (row[i] != c) return 0;
            continue;
        }
        /* eight at a time, the last eight ending at u1 (overlapping the ones before) */
        for (int i = 0;; i += 8) {
            if (i > n - 8) i = n - 8;
            const __m256i t = _mm256_loadu_si256((const __m256i *)(row + i));
            if (_mm256_movemask_epi8(_mm256_cmpeq_epi32(t, want)) != -1) return 0;
            if (i == n - 8) break;
        }
    }
    return 1;
}

SPAN_AVX2 void th_fill_avx2(uint32_t *d, int n, uint32_t c) {
    if (n < 8) {
        for (int k = 0; k < n; k++) d[k] = c;
        return;
    }
    const __m256i v = _mm256_set1_epi32((int)c);
    for (int k = 0;; k += 8) {
        if (k > n - 8) k = n - 8;
        _mm256_storeu_si256((__m256i *)(d + k), v);
        if (k == n - 8) break;
    }
}

SPAN_AVX2 int th_affine_interior_avx2(const uint32_t *src, size_t stride, int sw, int sh, uint32_t *drow, int k, int kend,
                                      int64_t u, int64_t v, int64_t du, int64_t dv, int64_t ahead_u, int64_t ahead_v,
                                      const uint8_t *mrow, uint32_t alpha, int store) {
    const __m256i m255 = _mm256_set1_epi64x(255);
    const __m256i du4 = _mm256_set1_epi64x(4 * du), dv4 = _mm256_set1_epi64x(4 * dv), half = _mm256_set1_epi16(128);
    /* A pixel's alpha in its four channel words (its 64 bits of the sample). */
    const __m256i spread = _mm256_setr_epi8(0, 1, 0, 1, 0, 1, 0, 1, 8, 9, 8, 9, 8, 9, 8, 9,
                                            0, 1, 0, 1, 0, 1, 0, 1, 8, 9, 8, 9, 8, 9, 8, 9);
    const __m256i flat = _mm256_set1_epi16((short)alpha);
    __m256i uu = _mm256_setr_epi64x(u, u + du, u + 2 * du, u + 3 * du);
    __m256i vv = _mm256_setr_epi64x(v, v + dv, v + 2 * dv, v + 3 * dv);
    for (; k + 4 <= kend; k += 4, u += 4 * du, v += 4 * dv, uu = _mm256_add_epi64(uu, du4), vv = _mm256_add_epi64(vv, dv4)) {
        const uint8_t *p[4];
        __m256i top, bot;
        span_texels4(src, stride, 24, u, v, du, dv, p);
        {
            /* The texels these pixels' column reads some rows further down: the strip walks
               straight down, and a rotated source's rows are too far apart for the hardware
               prefetcher to follow (measured: a fifth of the time of a @3x layer). */
            int64_t pr = (v + ahead_v) >> 24, pc = (u + ahead_u) >> 24;
            pr = pr < 0 ? 0 : (pr >= sh ? sh - 1 : pr);
            pc = pc < 0 ? 0 : (pc >= sw ? sw - 1 : pc);
            __builtin_prefetch((const uint8_t *)src + (size_t)pr * stride + (size_t)pc * 4);
        }
        span_pairs4(p, stride, &top, &bot);
        __m256i s = span_sample4(top, bot, _mm256_and_si256(_mm256_srli_epi64(uu, 16), m255), _mm256_and_si256(_mm256_srli_epi64(vv, 16), m255));
        if (store) {
            span_store4(s, drow + k);
            continue;
        }
        if (mrow) {
            /* mask_alpha of four pixels, in 32 bits as there */
            uint32_t word;
            memcpy(&word, mrow + k, 4);
            __m128i m = _mm_cvtepu8_epi32(_mm_cvtsi32_si128((int)word));
            m = _mm_srli_epi32(_mm_mullo_epi32(_mm_add_epi32(m, _mm_srli_epi32(m, 7)), _mm_set1_epi32((int)alpha)), 8);
            s = _mm256_srli_epi16(_mm256_add_epi16(_mm256_mullo_epi16(s, _mm256_shuffle_epi8(_mm256_cvtepu32_epi64(m), spread)), half), 8);
        } else if (alpha < 256) {
            s = _mm256_srli_epi16(_mm256_add_epi16(_mm256_mullo_epi16(s, flat), half), 8);
        }
        span_over4(s, drow + k, half);
    }
    return k;
}
#endif
