#ifndef TRANSHOST_GIF_PALETTE_H
#define TRANSHOST_GIF_PALETTE_H
/* Private to gif_quantize.c: median cut, which shares palette entries out among colours, and
   the search for a colour's nearest entry. */
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#include "render_bands.h"
#define NEAREST_AVX2 1
#endif

/* A colour to place, and how many pixels it stands for. */
typedef struct { uint8_t c[3]; uint32_t w; } item;

/* The palette as nearest() reads it (see nearest_prepare). */
typedef struct { int16_t rg[512], b[512]; int n, wide; } nearest_table;

/* A padding entry of the nearest table: farther from every colour than any real entry. */
enum { NEAREST_FAR = 600 };

/* Stable counting sort of items[lo, hi) by channel k (no globals: GIFs are written on several
   threads at once). */
static void sort_items(item *items, item *scratch, int lo, int hi, int k) {
    int start[257] = {0};
    for (int i = lo; i < hi; i++) start[items[i].c[k] + 1]++;
    for (int v = 0; v < 256; v++) start[v + 1] += start[v];
    for (int i = lo; i < hi; i++) scratch[lo + start[items[i].c[k]]++] = items[i];
    memcpy(items + lo, scratch + lo, (size_t)(hi - lo) * sizeof *items);
}

/* A box of median cut: items[lo, hi), the axis of its widest channel range, and its score
   (that range times its weight; 0 when it cannot be split), found once when the box is made. */
typedef struct { int lo, hi, axis; uint64_t score; } box;

static box make_box(const item *items, int lo, int hi) {
    box b = { lo, hi, 0, 0 };
    if (hi - lo < 2) return b;
    int mn[3] = {255, 255, 255}, mx[3] = {0, 0, 0};
    uint64_t w = 0;
    for (int i = lo; i < hi; i++) {
        for (int k = 0; k < 3; k++) {
            if (items[i].c[k] < mn[k]) mn[k] = items[i].c[k];
            if (items[i].c[k] > mx[k]) mx[k] = items[i].c[k];
        }
        w += items[i].w;
    }
    for (int k = 1; k < 3; k++) if (mx[k] - mn[k] > mx[b.axis] - mn[b.axis]) b.axis = k;
    b.score = (uint64_t)(mx[b.axis] - mn[b.axis]) * w;
    return b;
}

/* Median cut of items[0, n) into at most k boxes; writes each box's weighted mean. The box
   split next is the first with the highest score. */
static int median_cut(item *items, item *scratch, int n, int k, uint8_t *out_rgb) {
    if (n == 0 || k <= 0) return 0;
    box boxes[256];
    int nb = 1;
    boxes[0] = make_box(items, 0, n);
    while (nb < k) {
        int best = -1;
        uint64_t best_score = 0;
        for (int i = 0; i < nb; i++)
            if (boxes[i].score > best_score) { best_score = boxes[i].score; best = i; }
        if (best < 0) break;
        box b = boxes[best];
        sort_items(items, scratch, b.lo, b.hi, b.axis);
        uint64_t total = 0, acc = 0;
        for (int i = b.lo; i < b.hi; i++) total += items[i].w;
        int split = b.lo + 1;
        for (int i = b.lo; i < b.hi - 1; i++) {
            acc += items[i].w;
            split = i + 1;
            if (acc * 2 >= total) break;
        }
        boxes[best] = make_box(items, b.lo, split);
        boxes[nb++] = make_box(items, split, b.hi);
    }
    for (int i = 0; i < nb; i++) {
        uint64_t w = 0, s[3] = {0, 0, 0};
        for (int j = boxes[i].lo; j < boxes[i].hi; j++) {
            w += items[j].w;
            for (int c = 0; c < 3; c++) s[c] += (uint64_t)items[j].c[c] * items[j].w;
        }
        for (int c = 0; c < 3; c++) out_rgb[i * 3 + c] = (uint8_t)(w ? (s[c] + w / 2) / w : 0);
    }
    return nb;
}

/* The palette entry nearest to (r, g, b) by weighted squared distance, the first of equals.
   With SSE2 four entries a step: the palette is kept as 16-bit (r, g) and (b, 0) pairs, padded
   to a multiple of four with entries farther than any colour, and each distance carries its
   index in its low byte, so the smallest key is the first nearest entry. */
static void nearest_prepare(nearest_table *q, const uint8_t *pal, int n) {
    /* Padded to a multiple of eight, which the AVX2 search takes a step (the SSE2 one takes
       the padding's extra four in its stride: farther than any colour, they win nothing). */
    q->n = (n + 7) & ~7;
#ifdef NEAREST_AVX2
    q->wide = th_vector_best_level() >= 2;
#endif
    for (int i = 0; i < q->n; i++) {
        int pad = i >= n;
        q->rg[2 * i] = (int16_t)(pad ? NEAREST_FAR : pal[i * 3]);
        q->rg[2 * i + 1] = (int16_t)(pad ? NEAREST_FAR : pal[i * 3 + 1]);
        q->b[2 * i] = (int16_t)(pad ? NEAREST_FAR : pal[i * 3 + 2]);
        q->b[2 * i + 1] = 0;
    }
}

#ifdef NEAREST_AVX2
/* Eight entries a step, on two chains of steps (each step's minimum waits for the one before
   it on its chain). For frames with more colours than entries, the SSE2 search below was about
   a third of the GIF palette's own time; a search of 256 entries takes 27 ns here against its
   104. The keys are distinct (each carries its index), so the smallest is the same whichever
   way the minimum is taken. */
__attribute__((target("avx2"))) static int nearest_avx2(const nearest_table *q, int r, int g, int b) {
    const __m256i qrg = _mm256_set1_epi32((int)((uint32_t)g << 16 | (uint32_t)r)), qb = _mm256_set1_epi32(b);
    const __m256i wrg = _mm256_set1_epi32(4 << 16 | 3), wb = _mm256_set1_epi32(2), sixteen = _mm256_set1_epi32(16);
    __m256i best0 = _mm256_set1_epi32(0x7fffffff), best1 = best0;
    __m256i idx0 = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), idx1 = _mm256_setr_epi32(8, 9, 10, 11, 12, 13, 14, 15);
    int i = 0;
#define NEAREST_STEP(at, idx, best) do { \
        __m256i drg = _mm256_sub_epi16(qrg, _mm256_loadu_si256((const __m256i *)(q->rg + 2 * (at)))); \
        __m256i db = _mm256_sub_epi16(qb, _mm256_loadu_si256((const __m256i *)(q->b + 2 * (at)))); \
        __m256i d = _mm256_add_epi32(_mm256_madd_epi16(drg, _mm256_mullo_epi16(drg, wrg)), \
                                     _mm256_madd_epi16(db, _mm256_mullo_epi16(db, wb))); \
        best = _mm256_min_epi32(best, _mm256_or_si256(_mm256_slli_epi32(d, 8), idx)); \
    } while (0)
    for (; i + 16 <= q->n; i += 16) {
        NEAREST_STEP(i, idx0, best0);
        NEAREST_STEP(i + 8, idx1, best1);
        idx0 = _mm256_add_epi32(idx0, sixteen);
        idx1 = _mm256_add_epi32(idx1, sixteen);
    }
    if (i < q->n) NEAREST_STEP(i, idx0, best0);
#undef NEAREST_STEP
    __m256i m8 = _mm256_min_epi32(best0, best1);
    __m128i m4 = _mm_min_epi32(_mm256_castsi256_si128(m8), _mm256_extracti128_si256(m8, 1));
    m4 = _mm_min_epi32(m4, _mm_shuffle_epi32(m4, _MM_SHUFFLE(1, 0, 3, 2)));
    m4 = _mm_min_epi32(m4, _mm_shuffle_epi32(m4, _MM_SHUFFLE(2, 3, 0, 1)));
    return _mm_cvtsi128_si32(m4) & 255;
}
#endif

/* The search one entry at a time: what the vector searches must find. */
static int nearest_scalar(const uint8_t *pal, int n, int r, int g, int b) {
    int best = 0;
    long best_d = -1;
    for (int i = 0; i < n; i++) {
        int dr = r - pal[i * 3], dg = g - pal[i * 3 + 1], db = b - pal[i * 3 + 2];
        long d = 3L * dr * dr + 4L * dg * dg + 2L * db * db;
        if (best_d < 0 || d < best_d) { best_d = d; best = i; if (d == 0) break; }
    }
    return best;
}

static int nearest(const nearest_table *q, const uint8_t *pal, int n, int r, int g, int b) {
#ifdef NEAREST_AVX2
    if (q->wide) return nearest_avx2(q, r, g, b);
#endif
#if defined(__SSE2__)
    (void)pal; (void)n;
    const __m128i qrg = _mm_set1_epi32((int)((uint32_t)g << 16 | (uint32_t)r)), qb = _mm_set1_epi32(b);
    const __m128i wrg = _mm_set1_epi32(4 << 16 | 3), wb = _mm_set1_epi32(2), four = _mm_set1_epi32(4);
    __m128i best = _mm_set1_epi32(0x7fffffff), idx = _mm_setr_epi32(0, 1, 2, 3);
    for (int i = 0; i < q->n; i += 4) {
        __m128i drg = _mm_sub_epi16(qrg, _mm_loadu_si128((const __m128i *)(q->rg + 2 * i)));
        __m128i db = _mm_sub_epi16(qb, _mm_loadu_si128((const __m128i *)(q->b + 2 * i)));
        __m128i d = _mm_add_epi32(_mm_madd_epi16(drg, _mm_mullo_epi16(drg, wrg)), _mm_madd_epi16(db, _mm_mullo_epi16(db, wb)));
        __m128i key = _mm_or_si128(_mm_slli_epi32(d, 8), idx);
        __m128i lt = _mm_cmplt_epi32(key, best);
        best = _mm_or_si128(_mm_and_si128(lt, key), _mm_andnot_si128(lt, best));
        idx = _mm_add_epi32(idx, four);
    }
    int32_t k[4];
    _mm_storeu_si128((__m128i *)k, best);
    int32_t m = k[0];
    for (int j = 1; j < 4; j++) if (k[j] < m) m = k[j];
    return m & 255;
#else
    (void)q;
    return nearest_scalar(pal, n, r, g, b);
#endif
}

#endif
