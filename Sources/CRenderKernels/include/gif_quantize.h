#ifndef TRANSHOST_GIF_QUANTIZE_H
#define TRANSHOST_GIF_QUANTIZE_H
#include <stdint.h>
#include <stddef.h>

/// Flattens premultiplied ARGB32 pixels (`stride` bytes per row) over the opaque background
/// (bg_r, bg_g, bg_b) into tightly packed 0x00RRGGBB words, `width` per row.
void th_flatten_rgb(const uint32_t *pixels, size_t stride, int width, int height,
                    uint8_t bg_r, uint8_t bg_g, uint8_t bg_b, uint32_t *out_rgb);

/// Per-frame adaptive palettes for GIF frames. Holds its tables between frames so they are
/// allocated once per GIF.
typedef struct th_gif_quantizer th_gif_quantizer;

th_gif_quantizer *th_gifq_create(void);
/// Makes `q` as th_gifq_create makes a quantizer, for the next GIF, keeping its memory.
void th_gifq_reset(th_gif_quantizer *q);
void th_gifq_destroy(th_gif_quantizer *q);

/// What th_gifq_frame chose.
typedef struct {
    /// Palette entries used (1..256); the colours are in palette_rgb[0 .. 3 * colors).
    int colors;
    /// The index standing for "unchanged since the previous frame", or -1.
    int transparent;
    /// 1 when every encoded pixel kept its exact colour (no quantisation happened).
    int exact;
    /// Pixels that went through ordered dithering (only non-flat pixels without an exact entry).
    long dithered;
} th_gifq_result;

/// Builds a palette for the pixels of `cur` inside rect (x0, y0, x1, y1) that differ from
/// `prev` (every pixel of the rectangle when prev is NULL) and writes one index per pixel of
/// the rectangle (row by row, x1 - x0 per row) to out_indices. Unchanged pixels get the
/// transparent index, so the decoder keeps what the previous frame showed there. Returns
/// colors = 0 only when out of memory.
///
/// When the colours to encode fit in the palette they are all kept exactly. Otherwise the
/// colours covering the most pixels (flat UI fills) keep exact entries and median cut fills
/// the rest; pixels whose colour has no exact entry are dithered (8x8 ordered) only where
/// their neighbourhood is not flat, so a flat area is never speckled. Integer arithmetic only.
th_gifq_result th_gifq_frame(th_gif_quantizer *q, const uint32_t *cur, const uint32_t *prev, int width, int height,
                             int x0, int y0, int x1, int y1, uint8_t *palette_rgb, uint8_t *out_indices);

/// One frame of a GIF from its premultiplied ARGB32 pixels: flattens them over the background
/// into `shown`, which holds the previous frame's packed RGB (ignored when `first` is nonzero)
/// and is left holding this one's (only the pixels that differ are written), and codes them as
/// th_gifq_frame would code the flattened frame against the previous one inside rect, the
/// smallest rectangle holding every changed pixel ({x0, y0, x1, y1}, ends exclusive; the whole
/// frame when first, a 1 x 1 rectangle at the origin when nothing changed). The frames are
/// compared once, while each row is still in the cache, and the palette passes then visit only
/// the changed pixels. `hint` ({x0, y0, x1, y1}, ends exclusive; NULL for none) is a rectangle
/// outside which the frame is known to equal the previous one (what a renderer redrew since):
/// only the pixels of th_gifq_read_extent(hint) are read, and the result is the same as
/// without it.
th_gifq_result th_gifq_encode(th_gif_quantizer *q, const uint32_t *pixels, size_t stride, int width, int height,
                              uint8_t bg_r, uint8_t bg_g, uint8_t bg_b, uint32_t *shown, int first, const int *hint,
                              int rect[4], uint8_t *palette_rgb, uint8_t *out_indices);

/// The pixels th_gifq_encode reads of a frame ({x0, y0, x1, y1}, ends exclusive, into `out`):
/// the whole frame when `first` is nonzero or `hint` is NULL; else the hint clamped to the
/// frame, its left edge down to a multiple of 16 and its right edge up to one (or the frame's
/// edge); nothing (all zero) when the hint is empty.
void th_gifq_read_extent(const int *hint, int first, int width, int height, int out[4]);

/// The index of the entry of `palette` (n RGB triples, 1 to 256) nearest to (r, g, b), the first
/// of equals, as the coder finds it for a pixel without an exact entry, searched the way `path`
/// says: 0 one entry at a time, 1 with SSE2, 2 with AVX2. -1 when this CPU or build has no such
/// path. (For tests: every path must find the same entry.)
int th_gifq_nearest(const uint8_t *palette, int n, int r, int g, int b, int path);

#endif
