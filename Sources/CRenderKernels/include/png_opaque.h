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
/// the filters libpng keeps for it), deflated as zlib 1.2 deflates at libpng's settings (level
/// 6, 32 KiB window, memory level 8, Z_FILTERED; by transhost's own coder, th_png_deflate path
/// 0), in IDAT chunks of 8192 bytes. Returns the bytes written to `out` (th_png_opaque_bound
/// bytes long), or 0 when out of memory or the image is at most 16 KiB of rows (for which
/// libpng narrows the deflate window). Callers check th_png_is_opaque first: translucent images
/// are cairo's.
size_t th_png_encode_opaque(const uint32_t *pixels, size_t stride, int width, int height, uint8_t *out);

/// Raw deflate of n bytes at libpng's settings, fed `piece` bytes at a time (0: all at once) as
/// a PNG writer feeds rows: path 0 by transhost's coder (what th_png_encode_opaque uses), 1 by
/// the system zlib (deflate with Z_NO_FLUSH per piece, then Z_FINISH), for tests that the two
/// write the same bytes. Returns the bytes written to `out` (cap bytes long), or 0 when out of
/// room or memory or for another path.
size_t th_png_deflate(const uint8_t *data, size_t n, size_t piece, int path, uint8_t *out, size_t cap);

#endif
