#ifndef TRANSHOST_PNG_OPAQUE_H
#define TRANSHOST_PNG_OPAQUE_H
#include <stdint.h>
#include <stddef.h>

/// Whether every pixel of a premultiplied ARGB32 image has alpha 255.
int th_png_is_opaque(const uint32_t *pixels, size_t stride, int width, int height);

/// The most bytes th_png_encode_opaque writes for a width x height image.
size_t th_png_opaque_bound(int width, int height);

/// Encodes an opaque ARGB32 image as the PNG cairo 1.16 writes for it through libpng 1.6
/// (cairo_surface_write_to_png), byte for byte: 8-bit RGB, the white bKGD chunk, the rows
/// filtered as libpng chooses (of none, sub, up, average and Paeth, the smallest sum of the
/// bytes' distances from zero, earlier filters winning ties; for one column or one row, only
/// the filters libpng keeps for it), deflated by the system zlib at
/// libpng's settings (level 6, 32 KiB window, memory level 8, Z_FILTERED), in IDAT chunks of
/// 8192 bytes. Returns the bytes written to `out` (th_png_opaque_bound bytes long), or 0 if
/// zlib failed or the image is at most 16 KiB of rows (for which libpng narrows the deflate
/// window). Callers check th_png_is_opaque first: translucent images are cairo's.
size_t th_png_encode_opaque(const uint32_t *pixels, size_t stride, int width, int height, uint8_t *out);

#endif
