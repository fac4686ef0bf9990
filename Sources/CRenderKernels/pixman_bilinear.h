/* pixman's 7-bit bilinear sample and its OVER, one pixel at a time in plain C, and OVER eight
   pixels at a time with AVX2 (private to this module; the vector loops of translate_bilinear.c
   and scaled_bilinear.c match the scalar ones byte for byte, and tests hold both to pixman's
   own output). */
#ifndef TRANSHOST_PIXMAN_BILINEAR_H
#define TRANSHOST_PIXMAN_BILINEAR_H
#include <stddef.h>
#include <stdint.h>

/* The two source rows a destination row at 16.16 position vy reads, as pixman's bilinear
   filter does: row vy >> 16 (top) and the next (bottom), with 7-bit weights wt + wb = 128. A
   row outside the source (or a bottom row of weight 0) is the other row at weight 0. Returns 0
   when both are outside: every sample is zero, and OVER leaves the row as it is. */
static inline int tb_row_taps(const uint32_t *src, size_t stride, int sh, int64_t vy,
                              const uint32_t **top, const uint32_t **bot, uint32_t *wt, uint32_t *wb) {
    const int64_t sy = vy >> 16;
    *wb = (uint32_t)(vy >> 9) & 127;
    *wt = 128 - *wb;
    *top = (sy >= 0 && sy < sh) ? (const uint32_t *)((const uint8_t *)src + (size_t)sy * stride) : 0;
    *bot = (*wb != 0 && sy + 1 >= 0 && sy + 1 < sh) ? (const uint32_t *)((const uint8_t *)src + (size_t)(sy + 1) * stride) : 0;
    if (!*top && !*bot) return 0;
    if (!*top) { *top = *bot; *wt = 0; }
    if (!*bot) { *bot = *top; *wb = 0; }
    return 1;
}

/* Two channels of a pixel in one 64-bit word, at bits 0 and 32 (channels 0 and 2, or 1 and 3):
   every product below stays under 2^32 per lane, so one multiply serves both. */
static inline uint64_t tb_lanes(uint32_t p) { return (uint64_t)(p & 0xff) | ((uint64_t)(p & 0xff0000) << 16); }
static inline uint32_t tb_unlanes(uint64_t v) { return (uint32_t)(v & 0xff) | (uint32_t)((v >> 16) & 0xff0000); }
static const uint64_t tb_lane_mask = 0x000000ff000000ffull;

static inline uint64_t tb_sample_lanes(uint64_t tl, uint64_t tr, uint64_t bl, uint64_t br,
                                       uint32_t wl, uint32_t wr, uint32_t wt, uint32_t wb) {
    return (((tl * wt + bl * wb) * wl + (tr * wt + br * wb) * wr) >> 14) & tb_lane_mask;
}

static inline uint32_t tb_sample(uint32_t tl, uint32_t tr, uint32_t bl, uint32_t br,
                                 uint32_t wl, uint32_t wr, uint32_t wt, uint32_t wb) {
    const uint64_t rb = tb_sample_lanes(tb_lanes(tl), tb_lanes(tr), tb_lanes(bl), tb_lanes(br), wl, wr, wt, wb);
    const uint64_t ag = tb_sample_lanes(tb_lanes(tl >> 8), tb_lanes(tr >> 8), tb_lanes(bl >> 8), tb_lanes(br >> 8), wl, wr, wt, wb);
    return tb_unlanes(rb) | tb_unlanes(ag) << 8;
}

/* s + d (255 - sa) / 255 in two lanes, saturated at 255. */
static inline uint64_t tb_over_lanes(uint64_t s, uint64_t d, uint32_t ia) {
    uint64_t c = s + ((((d * ia) + 0x0000008000000080ull) * 0x101 >> 16) & tb_lane_mask);
    /* a lane above 255 has bit 8 set: make it 255 */
    const uint64_t over = (c >> 8) & 0x0000000100000001ull;
    return (c | (over * 0xff)) & tb_lane_mask;
}

static inline uint32_t tb_over(uint32_t s, uint32_t d) {
    const uint32_t a = s >> 24;
    if (a == 255) return s;
    if (s == 0) return d;
    return tb_unlanes(tb_over_lanes(tb_lanes(s), tb_lanes(d), 255 - a))
        | tb_unlanes(tb_over_lanes(tb_lanes(s >> 8), tb_lanes(d >> 8), 255 - a)) << 8;
}

static inline uint32_t tb_texel(const uint32_t *row, int sw, int64_t x) {
    return (row && x >= 0 && x < sw) ? row[x] : 0;
}

/* s times the 8-bit mask m, per channel, as pixman rounds it. */
static inline uint32_t tb_in(uint32_t s, uint32_t m) {
    const uint64_t rb = (((tb_lanes(s) * m) + 0x0000008000000080ull) * 0x101 >> 16) & tb_lane_mask;
    const uint64_t ag = (((tb_lanes(s >> 8) * m) + 0x0000008000000080ull) * 0x101 >> 16) & tb_lane_mask;
    return tb_unlanes(rb) | tb_unlanes(ag) << 8;
}

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
/* s (eight pixels) times the mask m, OVER the eight pixels at d, as pixman's SSE2 OVER does it. */
__attribute__((target("avx2"))) static inline void pm_over8(__m256i s, uint32_t *d, uint32_t m) {
    const __m256i z = _mm256_setzero_si256(), alpha = _mm256_set1_epi32((int)0xff000000);
    if (_mm256_movemask_epi8(_mm256_cmpeq_epi8(s, z)) == -1) return;
    const __m256i c80 = _mm256_set1_epi16(0x80), c101 = _mm256_set1_epi16(0x101), ff = _mm256_set1_epi16(0xff);
    __m256i slo = _mm256_unpacklo_epi8(s, z), shi = _mm256_unpackhi_epi8(s, z);
    if (m != 255) {
        const __m256i mm = _mm256_set1_epi16((short)m);
        slo = _mm256_mulhi_epu16(_mm256_adds_epu16(_mm256_mullo_epi16(slo, mm), c80), c101);
        shi = _mm256_mulhi_epu16(_mm256_adds_epu16(_mm256_mullo_epi16(shi, mm), c80), c101);
        s = _mm256_packus_epi16(slo, shi);
    } else if (_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_and_si256(s, alpha), alpha)) == -1) {
        _mm256_storeu_si256((__m256i *)d, s);
        return;
    }
    const __m256i dv = _mm256_loadu_si256((const __m256i *)d);
    const __m256i alo = _mm256_xor_si256(_mm256_shufflehi_epi16(_mm256_shufflelo_epi16(slo, 0xff), 0xff), ff);
    const __m256i ahi = _mm256_xor_si256(_mm256_shufflehi_epi16(_mm256_shufflelo_epi16(shi, 0xff), 0xff), ff);
    const __m256i dlo = _mm256_mulhi_epu16(_mm256_adds_epu16(_mm256_mullo_epi16(_mm256_unpacklo_epi8(dv, z), alo), c80), c101);
    const __m256i dhi = _mm256_mulhi_epu16(_mm256_adds_epu16(_mm256_mullo_epi16(_mm256_unpackhi_epi8(dv, z), ahi), c80), c101);
    _mm256_storeu_si256((__m256i *)d, _mm256_adds_epu8(s, _mm256_packus_epi16(dlo, dhi)));
}
#endif

#endif
