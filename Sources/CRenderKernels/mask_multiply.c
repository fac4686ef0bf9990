#include "render_kernels.h"
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* dst = src IN mask: every channel of src times the mask's alpha, rounded as pixman's
   UN8x4_MUL_UN8 rounds (c * a / 255 to nearest, (t + (t >> 8)) >> 8 with t = c * a + 128), so
   the bytes are those of copying src and compositing the mask IN_REVERSE onto it. A mask is
   mostly fully opaque or clear (a shape's inside and outside): four such pixels are a copy or
   zeros. */
static inline uint32_t mul_un8x4(uint32_t x, uint32_t a) {
    uint32_t t = (x & 0xff00ff) * a + 0x800080;
    t = ((t + ((t >> 8) & 0xff00ff)) >> 8) & 0xff00ff;
    uint32_t u = ((x >> 8) & 0xff00ff) * a + 0x800080;
    u = (u + ((u >> 8) & 0xff00ff)) & 0xff00ff00;
    return u | t;
}

void th_multiply_by_mask_alpha(const uint32_t *src, size_t src_stride, const uint32_t *mask, size_t mask_stride,
                               uint32_t *dst, size_t dst_stride, int width, int height) {
    for (int y = 0; y < height; y++) {
        const uint32_t *s = (const uint32_t *)((const uint8_t *)src + (size_t)y * src_stride);
        const uint32_t *m = (const uint32_t *)((const uint8_t *)mask + (size_t)y * mask_stride);
        uint32_t *d = (uint32_t *)((uint8_t *)dst + (size_t)y * dst_stride);
        int x = 0;
#if defined(__SSE2__)
        const __m128i alpha = _mm_set1_epi32((int)0xff000000u), zero = _mm_setzero_si128();
        for (; x + 4 <= width; x += 4) {
            __m128i ma = _mm_and_si128(_mm_loadu_si128((const __m128i *)(m + x)), alpha);
            int full = _mm_movemask_epi8(_mm_cmpeq_epi32(ma, alpha)), none = _mm_movemask_epi8(_mm_cmpeq_epi32(ma, zero));
            if (full == 0xffff) { _mm_storeu_si128((__m128i *)(d + x), _mm_loadu_si128((const __m128i *)(s + x))); continue; }
            if (none == 0xffff) { _mm_storeu_si128((__m128i *)(d + x), zero); continue; }
            for (int j = 0; j < 4; j++) d[x + j] = mul_un8x4(s[x + j], m[x + j] >> 24);
        }
#endif
        for (; x < width; x++) d[x] = mul_un8x4(s[x], m[x] >> 24);
    }
}
