#ifndef TRANSHOST_RENDER_KERNELS_H
#define TRANSHOST_RENDER_KERNELS_H
#include <stdint.h>
#include <stddef.h>

/// Converts premultiplied ARGB32 to straight RGBA bytes (r, g, b, a per pixel).
void th_unpremultiply_to_rgba(const uint32_t *pixels, size_t stride, int width, int height, uint8_t *out_rgba);

/// dst = src times mask's alpha, per channel, rounded as pixman rounds (the bytes of copying
/// src to dst, then compositing mask onto it with PIXMAN_OP_IN_REVERSE), over width x height
/// pixels of three premultiplied ARGB32 images (strides in bytes).
void th_multiply_by_mask_alpha(const uint32_t *src, size_t src_stride, const uint32_t *mask, size_t mask_stride,
                               uint32_t *dst, size_t dst_stride, int width, int height);

#endif

#ifndef TRANSHOST_RENDER_SPANS
#define TRANSHOST_RENDER_SPANS
/// Composites a premultiplied ARGB32 source OVER a premultiplied ARGB32 destination through
/// a projective map, exactly (one division per pixel), with bilinear filtering; source texels
/// outside the image count as transparent, which antialiases the layer's edges.
///
/// For each destination pixel (x, y) in [x0, x1) x [y0, y1), its centre (x + 0.5, y + 0.5)
/// maps to the source point (U / W, V / W) with U = m[0] X + m[1] Y + m[2],
/// V = m[3] X + m[4] Y + m[5], W = m[6] X + m[7] Y + m[8]; pixels with W <= 0 are skipped.
/// `alpha` (0..256) scales the source; `mask` (A8, may be NULL) covers the rectangle, its
/// byte for (x, y) at mask[(y - y0) * mask_stride + (x - x0)]. Integer arithmetic after the
/// division, so results are deterministic.
void th_composite_projective_bilinear(const uint32_t *src, size_t src_stride, int src_width, int src_height,
                                      uint32_t *dst, size_t dst_stride, int x0, int y0, int x1, int y1,
                                      const double m[9], const uint8_t *mask, size_t mask_stride, uint32_t alpha);
#endif

#ifndef TRANSHOST_RENDER_BANDS
#define TRANSHOST_RENDER_BANDS
/// Whether a large composite may split its rows onto a second thread: only while fewer
/// renderers are busy (between th_render_busy_enter and _leave, one per export thread) than
/// there are cores, so a run that already keeps every core drawing does not oversubscribe them.
/// The split never changes a byte; only the time does.
int th_render_may_band(void);
void th_render_busy_enter(void);
void th_render_busy_leave(void);
#endif

#ifndef TRANSHOST_RENDER_AFFINE
#define TRANSHOST_RENDER_AFFINE
/// As th_composite_projective_bilinear for an affine map (U = m[0] X + m[1] Y + m[2],
/// V = m[3] X + m[4] Y + m[5]; no division): source positions step by a constant per pixel in
/// 40.24 fixed point, and each row visits only the pixels whose bilinear footprint touches the
/// source (found exactly in integer arithmetic); the interior of that span reads texels without
/// bounds checks. `src_opaque` (every source texel has alpha 255) lets interior pixels at full
/// alpha without a mask be stored instead of blended. Deterministic (integer arithmetic after
/// one double evaluation per row).
void th_composite_affine_bilinear(const uint32_t *src, size_t src_stride, int src_width, int src_height,
                                  uint32_t *dst, size_t dst_stride, int x0, int y0, int x1, int y1,
                                  const double m[6], const uint8_t *mask, size_t mask_stride, uint32_t alpha,
                                  int src_opaque);
#endif

#ifndef TRANSHOST_RENDER_TRANSLATE
#define TRANSHOST_RENDER_TRANSLATE
/// pixman_image_composite32's bytes for OVER of an a8r8g8b8 source (BILINEAR filter, repeat
/// NONE, no mask) onto an a8r8g8b8 destination under a transform that only translates: every
/// pixel has the same four 7-bit weights, so they are found once. (vx, vy) is the sample
/// position of destination pixel (x0, y0) in 16.16, half a texel back from its mapped centre,
/// as pixman computes it; the pixel one to the right samples 1.0 further. Texels outside the
/// source count as transparent. Rows of a large rectangle are split onto a second thread when
/// th_render_may_band allows; the bytes do not change.
void th_composite_translate_bilinear(const uint32_t *src, size_t src_stride, int src_width, int src_height,
                                     uint32_t *dst, size_t dst_stride, int x0, int y0, int x1, int y1,
                                     int64_t vx, int64_t vy);
#endif

#ifndef TRANSHOST_RENDER_TRANSLATE_LEVEL
#define TRANSHOST_RENDER_TRANSLATE_LEVEL
/// Chooses th_composite_translate_bilinear's vector code, for tests and benchmarks: 0 scalar,
/// 1 SSE2, 2 AVX2; a level the CPU lacks, or -1, picks the best it has. Returns the level now in
/// use. Every level gives the same bytes. Call it before drawing, not while another thread draws.
int th_translate_bilinear_level(int level);
#endif

#ifndef TRANSHOST_RENDER_SCALED
#define TRANSHOST_RENDER_SCALED
/// pixman_image_composite32's bytes for OVER of an a8r8g8b8 source (BILINEAR filter, repeat
/// NONE) onto an a8r8g8b8 destination, with no mask or a solid one, under a transform that
/// scales each axis by a positive factor and translates. (vx, vy) is the sample position of
/// destination pixel (x0, y0) in 16.16 as pixman computes it (its centre mapped, half a texel
/// back); (ux, uy), both positive, the matrix's scale entries, which step it by a pixel to the
/// right and down. `mask` is the solid mask's 8-bit alpha as pixman holds it (the top byte of
/// the 16-bit alpha), 255 for none. Rows of a large rectangle may be split onto a second thread
/// (th_render_may_band); the bytes do not change.
void th_composite_scaled_bilinear(const uint32_t *src, size_t src_stride, int src_width, int src_height,
                                  uint32_t *dst, size_t dst_stride, int x0, int y0, int x1, int y1,
                                  int64_t vx, int64_t vy, int64_t ux, int64_t uy, uint32_t mask);
/// Chooses th_composite_scaled_bilinear's vector code, as th_translate_bilinear_level does:
/// 0 scalar, 2 AVX2 (1 is scalar too); -1 or a level the CPU lacks picks the best.
int th_scaled_bilinear_level(int level);
#endif

#ifndef TRANSHOST_RENDER_SPAN_LEVEL
#define TRANSHOST_RENDER_SPAN_LEVEL
/// Chooses the vector code of th_composite_projective_bilinear's and
/// th_composite_affine_bilinear's span loops, for tests and benchmarks: 0 scalar, 1 SSE2,
/// 2 AVX2; a level the CPU lacks, or -1, picks the best it has. Returns the level now in use.
/// Every level gives the same bytes. Call it before drawing, not while another thread draws.
int th_span_bilinear_level(int level);
/// Whether th_composite_projective_bilinear draws runs of spans its span search provably keeps
/// whole in one go (1, the default: the same bytes, fewer steps) or searches every span (0),
/// for tests and benchmarks. Returns the setting now in use. Call it before drawing.
int th_projective_span_runs(int enabled);
#endif
