// libwebp (BSD-3-Clause): lossless animated WebP encoding through the mux library
// (WebPAnimEncoder), and decoding for tests (WebPAnimDecoder).
#include <webp/encode.h>
#include <webp/mux.h>
#include <webp/demux.h>
