#ifndef TRANSHOST_PNG_DEFLATE_H
#define TRANSHOST_PNG_DEFLATE_H
/* Private to CRenderKernels: a raw deflate coder whose output is byte for byte what zlib's
   deflate writes at libpng's settings (level 6, a 32 KiB window, memory level 8, Z_FILTERED)
   for the same input fed in the same pieces with Z_NO_FLUSH, then Z_FINISH. See png_deflate.c. */
#include <stddef.h>
#include <stdint.h>

#define TH_DEFLATE_HIDDEN __attribute__((visibility("hidden")))

typedef struct th_deflate th_deflate;

/* A coder writing to out (cap bytes); NULL when out of memory. */
TH_DEFLATE_HIDDEN th_deflate *th_deflate_create(uint8_t *out, size_t cap);
TH_DEFLATE_HIDDEN void th_deflate_destroy(th_deflate *d);
/* Codes what it can of n more bytes (as deflate with Z_NO_FLUSH); 0 when out of room. */
TH_DEFLATE_HIDDEN int th_deflate_feed(th_deflate *d, const uint8_t *in, size_t n);
/* Codes the rest and ends the stream (as deflate with Z_FINISH): the bytes written, 0 when out
   of room. */
TH_DEFLATE_HIDDEN size_t th_deflate_finish(th_deflate *d);
#endif
