#ifndef TRANSHOST_GIF_LZW_H
#define TRANSHOST_GIF_LZW_H
#include <stdint.h>
#include <stddef.h>

/// The code table of the GIF LZW coder, allocated once per GIF and reused for every frame.
typedef struct th_gif_lzw th_gif_lzw;

th_gif_lzw *th_gif_lzw_create(void);
void th_gif_lzw_destroy(th_gif_lzw *z);

/// The most bytes th_gif_lzw_encode writes for `count` pixels.
size_t th_gif_lzw_bound(size_t count);

/// Writes one GIF image's data for `count` palette indices of a `bits_per_pixel`-bit colour
/// table: the LZW minimum code size byte, the codes in sub-blocks of at most 255 bytes, and the
/// empty terminating block. Returns the bytes written to `out` (at least th_gif_lzw_bound(count)
/// bytes long). The codes follow the classic GIF encoder's rules exactly: a clear code first,
/// code width growing when the next code no longer fits, and a clear code when the table holds
/// 4095 codes.
size_t th_gif_lzw_encode(th_gif_lzw *z, const uint8_t *indices, size_t count, int bits_per_pixel, uint8_t *out);

#endif
