#ifndef TRANSHOST_RENDER_KERNELS_H
#define TRANSHOST_RENDER_KERNELS_H
#include <stdint.h>
#include <stddef.h>

/// Levels of the fixed GIF palette: 6 reds x 7 greens x 6 blues = 252 colours (index
/// r * 42 + g * 6 + b); entries 252..255 are unused black so the map has 256 entries.
enum { TH_PAL_R = 6, TH_PAL_G = 7, TH_PAL_B = 6, TH_PAL_USED = 252, TH_PAL_SIZE = 256 };

/// Fills `rgb` (TH_PAL_SIZE * 3 bytes) with the fixed palette.
void th_fixed_palette(uint8_t *rgb);

/// Maps premultiplied ARGB32 pixels (native-endian uint32, `stride` bytes per row) composited
/// over the opaque background (bg_r, bg_g, bg_b) to palette indices with 8x8 ordered (Bayer)
/// dithering. Deterministic: integer arithmetic only.
void th_dither_fixed_palette(const uint32_t *pixels, size_t stride, int width, int height,
                             uint8_t bg_r, uint8_t bg_g, uint8_t bg_b, uint8_t *out_indices);

/// Converts premultiplied ARGB32 to straight RGBA bytes (r, g, b, a per pixel).
void th_unpremultiply_to_rgba(const uint32_t *pixels, size_t stride, int width, int height, uint8_t *out_rgba);

#endif
