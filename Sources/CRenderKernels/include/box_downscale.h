#ifndef TRANSHOST_BOX_DOWNSCALE_H
#define TRANSHOST_BOX_DOWNSCALE_H
#include <stdint.h>
#include <stddef.h>

/// Draws `src` (premultiplied ARGB32, sw x sh, `sstride` bytes per row) shrunk to tw x th
/// over `dst` at (dx, dy), with exactly the pixels cairo 1.16 and pixman 0.42 give for
/// cairo_paint of that surface scaled by tw / sw and th / sh under CAIRO_FILTER_GOOD, clipped
/// to the thumbnail's rectangle, operator OVER, extend NONE: a box filter of the scale's
/// width sampled at 1 / 2^k pixel phases in 16.16 fixed point, each tap weighted by the
/// rounded product of its row and column weights, the sums rounded and clamped, then blended
/// with pixman's 8-bit OVER.
///
/// Only whole-number shrinks from 2x to 256x on both axes (cairo's filter stops growing at 16x) are handled (sw = s * tw, sh = t * th),
/// except 2x on both, which cairo draws with its bilinear filter: returns 0 without drawing
/// anything otherwise, and the caller draws through cairo. The
/// thumbnail must lie inside `dst` (dst_w x dst_h pixels, `dstride` bytes per row).
int th_box_downscale_over(const uint32_t *src, size_t sstride, int sw, int sh,
                          uint32_t *dst, size_t dstride, int dst_w, int dst_h,
                          int dx, int dy, int tw, int th);

#endif
