/* The vector levels of the projective and the affine span loops (private to this module):
   which code their inner loops run, and the AVX2 interiors, compiled for AVX2 alone and called
   only when the CPU has it. Every level gives the same bytes as the scalar reference in
   pixel_math.h. */
#ifndef TRANSHOST_SPAN_LEVELS_H
#define TRANSHOST_SPAN_LEVELS_H
#include <stddef.h>
#include <stdint.h>

#define TH_HIDDEN __attribute__((visibility("hidden")))

/* The level now in use (0 scalar, 1 SSE2, 2 AVX2), the best the CPU has until a test or a
   benchmark sets another with th_span_bilinear_level. */
TH_HIDDEN int th_span_level_now(void);

/* The projective loop's interior at full alpha without a mask: len pixels from d, pixel k at
   16.16 footprint origin (u + k du, v + k dv), every footprint inside the source. Draws a
   multiple of four pixels and returns how many; the caller draws the rest. */
TH_HIDDEN int th_projective_interior_avx2(const uint32_t *src, size_t stride, uint32_t *d, int len,
                                          int64_t u, int64_t v, int64_t du, int64_t dv);

/* texels_are and fill_px of the projective loop, eight texels at a time: whether texels
   [u0, u1] x [v0, v1] (inside the image) are all c; n pixels of colour c from d. */
TH_HIDDEN int th_texels_are_avx2(const uint32_t *src, size_t stride, int u0, int u1, int v0, int v1, uint32_t c);
TH_HIDDEN void th_fill_avx2(uint32_t *d, int n, uint32_t c);

/* The affine loop's interior: pixels [k, kend) of drow, pixel k at 40.24 footprint origin
   (u, v) stepping (du, dv), every footprint inside the sw x sh source; (ahead_u, ahead_v) is
   how far the source position moves some rows further down (for prefetching only); mrow (may
   be NULL) and alpha give each pixel's alpha, store says the pixels are opaque and stored.
   Draws four at a time and returns the first pixel it did not draw. */
TH_HIDDEN int th_affine_interior_avx2(const uint32_t *src, size_t stride, int sw, int sh, uint32_t *drow, int k, int kend,
                                      int64_t u, int64_t v, int64_t du, int64_t dv, int64_t ahead_u, int64_t ahead_v,
                                      const uint8_t *mrow, uint32_t alpha, int store);
#endif
