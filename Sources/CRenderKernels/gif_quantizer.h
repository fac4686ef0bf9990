#ifndef TRANSHOST_GIF_QUANTIZER_H
#define TRANSHOST_GIF_QUANTIZER_H
/* Private to gif_quantize.c: the quantizer's tables, kept between frames and GIFs. */
#include "gif_quantize.h"
#include "gif_changes.h"
#include "gif_palette.h"
#include "gif_segment_cache.h"
#include <stdint.h>

/* Each frame's colours are counted exactly while there are at most EXACT_MAX of them; past
   that (photos, long gradients) they are binned on 5 bits per channel, each bin remembering its
   majority colour (Boyer-Moore vote), so a flat fill is still found exactly. */
enum {
    NBINS = 1 << 15, EXACT_BITS = 16, MIN_BITS = 10, EXACT_MAX = 1 << 15, CACHE_BITS = 12,
    MIN_KEPT = 2, MIN_GRADIENT_ENTRIES = 64, GRADIENT_STEP = 12, DITHER_SPREAD = 12
};

/* A colour (high 24 bits) and its nearest entry (low 8), valid while gen is the frame's. The
   cache has 2^CACHE_BITS of them, 32 KiB: with 2^16 (512 KiB, the second-level cache's size)
   most lookups missed the first-level cache, and the gallery's share of time in quantise
   fell from about 7.7% to 6.3% when it shrank (corner-fly's, with more colours, stayed about
   6.2%). A miss here only costs a nearest() search, so the indices are the same. */
typedef struct { uint32_t tag, gen; } cache_entry;
/* A colour's slot: key is the colour + 1 (0 for a free slot); value is the entry's number (its
   place in used_slots) in pass 1, then its palette index, or -1 when it has no exact entry. */
typedef struct { uint32_t key; int32_t value; } exact_entry;

struct th_gif_quantizer {
    exact_entry table[1 << EXACT_BITS];
    int32_t used_slots[EXACT_MAX];
    uint32_t pixels[EXACT_MAX];   /* pass 1: each entry's pixels, by its number */
    int16_t index_of[EXACT_MAX];  /* pass 3: each entry's palette index (-1: none), by its number */
    int bits;
    uint32_t count[NBINS], exact[NBINS], cand[NBINS];
    int32_t vote[NBINS];
    uint64_t sum[NBINS][3];
    int16_t reserved[NBINS];
    int32_t touched[NBINS];
    uint32_t kept[EXACT_MAX][2];
    item items[EXACT_MAX], scratch[EXACT_MAX];
    cache_entry cache[1 << CACHE_BITS];
    uint32_t gen;
    gif_changes changes;
    /* Pass 1's state, carried from row to row. */
    int nused, overflow;
    exact_entry *last;
    uint32_t last_colour;
    gif_segment_cache segments;
    nearest_table near;
    /* Last, and not cleared by th_gifq_reset: sort_kept's scratch, written before it is read. */
    uint64_t keys[2][EXACT_MAX];
};

#endif
