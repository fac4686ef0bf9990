#ifndef TRANSHOST_PIXEL_RUNS_H
#define TRANSHOST_PIXEL_RUNS_H
/* Private to CRenderKernels: how far two frames, or one colour, run on (GIF frame passes). */
#include <stddef.h>
#include <stdint.h>

/* How many leading pixels of a and b (n of them) are equal; and how many trailing. Frames
   after the first mostly repeat the previous one, so the GIF passes skip unchanged stretches
   many pixels at a time. */
#if defined(__SSE2__)
#include <emmintrin.h>
static inline size_t same_run(const uint32_t *a, const uint32_t *b, size_t n) {
    size_t i = 0;
    /* Sixteen pixels a step while they all match (one mask test for four compares). */
    for (; i + 16 <= n; i += 16) {
        __m128i e0 = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(a + i)), _mm_loadu_si128((const __m128i *)(b + i)));
        __m128i e1 = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(a + i + 4)), _mm_loadu_si128((const __m128i *)(b + i + 4)));
        __m128i e2 = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(a + i + 8)), _mm_loadu_si128((const __m128i *)(b + i + 8)));
        __m128i e3 = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(a + i + 12)), _mm_loadu_si128((const __m128i *)(b + i + 12)));
        if (_mm_movemask_epi8(_mm_and_si128(_mm_and_si128(e0, e1), _mm_and_si128(e2, e3))) != 0xffff) break;
    }
    for (; i + 4 <= n; i += 4) {
        __m128i eq = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(a + i)), _mm_loadu_si128((const __m128i *)(b + i)));
        if (_mm_movemask_epi8(eq) != 0xffff) break;
    }
    while (i < n && a[i] == b[i]) i++;
    return i;
}
static inline size_t same_tail(const uint32_t *a, const uint32_t *b, size_t n) {
    size_t i = 0;
    for (; i + 16 <= n; i += 16) {
        const uint32_t *x = a + n - i - 16, *y = b + n - i - 16;
        __m128i e0 = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)x), _mm_loadu_si128((const __m128i *)y));
        __m128i e1 = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(x + 4)), _mm_loadu_si128((const __m128i *)(y + 4)));
        __m128i e2 = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(x + 8)), _mm_loadu_si128((const __m128i *)(y + 8)));
        __m128i e3 = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(x + 12)), _mm_loadu_si128((const __m128i *)(y + 12)));
        if (_mm_movemask_epi8(_mm_and_si128(_mm_and_si128(e0, e1), _mm_and_si128(e2, e3))) != 0xffff) break;
    }
    for (; i + 4 <= n; i += 4) {
        __m128i eq = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(a + n - i - 4)), _mm_loadu_si128((const __m128i *)(b + n - i - 4)));
        if (_mm_movemask_epi8(eq) != 0xffff) break;
    }
    while (i < n && a[n - 1 - i] == b[n - 1 - i]) i++;
    return i;
}
#else
static inline size_t same_run(const uint32_t *a, const uint32_t *b, size_t n) {
    size_t i = 0;
    while (i < n && a[i] == b[i]) i++;
    return i;
}
static inline size_t same_tail(const uint32_t *a, const uint32_t *b, size_t n) {
    size_t i = 0;
    while (i < n && a[n - 1 - i] == b[n - 1 - i]) i++;
    return i;
}
#endif

/* How many leading pixels of a and b (n of them) all differ: a changed stretch of a row. */
static inline size_t differ_run(const uint32_t *a, const uint32_t *b, size_t n) {
    size_t i = 0;
#if defined(__SSE2__)
    for (; i + 4 <= n; i += 4) {
        int eq = _mm_movemask_epi8(_mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(a + i)), _mm_loadu_si128((const __m128i *)(b + i))));
        if (eq != 0) return i + (size_t)(__builtin_ctz((unsigned)eq) >> 2);
    }
#endif
    while (i < n && a[i] != b[i]) i++;
    return i;
}

/* How many of the n pixels from p on are colour c (the stretch of one flat fill). */
static inline size_t colour_run(const uint32_t *p, size_t n, uint32_t c) {
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i cc = _mm_set1_epi32((int)c);
    for (; i + 4 <= n; i += 4) {
        int eq = _mm_movemask_epi8(_mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(p + i)), cc));
        if (eq != 0xffff) return i + (size_t)(__builtin_ctz((unsigned)~eq) >> 2);
    }
#endif
    while (i < n && p[i] == c) i++;
    return i;
}

/* How many of the n pixels from cur on are colour c and changed (prev, when given, differs
   there): the stretch of one flat fill the passes below count or index at once. */
static inline size_t changed_run(const uint32_t *cur, const uint32_t *prev, size_t n, uint32_t c) {
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i cc = _mm_set1_epi32((int)c);
    if (prev) {
        for (; i + 4 <= n; i += 4) {
            __m128i same = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(cur + i)), cc);
            __m128i kept = _mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(prev + i)), cc);
            if (_mm_movemask_epi8(_mm_andnot_si128(kept, same)) != 0xffff) break;
        }
    } else {
        for (; i + 4 <= n; i += 4)
            if (_mm_movemask_epi8(_mm_cmpeq_epi32(_mm_loadu_si128((const __m128i *)(cur + i)), cc)) != 0xffff) break;
    }
#endif
    while (i < n && cur[i] == c && (!prev || prev[i] != c)) i++;
    return i;
}

#endif
