#ifndef TRANSHOST_PNG_DEFLATE_STATE_H
#define TRANSHOST_PNG_DEFLATE_STATE_H
/* Private to png_deflate.c (matching, the window) and png_deflate_trees.c (blocks and their
   Huffman codes): the coder's state, as zlib 1.2 keeps it at libpng's settings. */
#include "png_deflate.h"
#include <stdint.h>

enum {
    WSIZE = 1 << 15, WMASK = WSIZE - 1, WINDOW = 2 * WSIZE, HMASK = (1 << 15) - 1,
    MIN_MATCH = 3, MAX_MATCH = 258, MIN_LOOKAHEAD = MAX_MATCH + MIN_MATCH + 1, MAX_DIST = WSIZE - MIN_LOOKAHEAD,
    GOOD = 8, MAX_LAZY = 16, NICE = 128, MAX_CHAIN = 128,
    SYM_END = ((1 << 14) - 1) * 3,
    LITERALS = 256, END_BLOCK = 256, LENGTH_CODES = 29, L_CODES = LITERALS + 1 + LENGTH_CODES, D_CODES = 30,
    BL_CODES = 19, HEAP_SIZE = 2 * L_CODES + 1, MAX_BITS = 15, MAX_BL_BITS = 7,
    REP_3_6 = 16, REPZ_3_10 = 17, REPZ_11_138 = 18
};

typedef struct { uint16_t freq, code, len, dad; } tree_node;
typedef struct { tree_node *tree; const tree_node *stat; const int *extra; int base, elems, max_length, max_code; } tree_desc;

struct th_deflate {
    /* The window (and MAX_MATCH + 8 bytes that comparisons may read past it), its hash chains:
       head[h] the latest position hashing to h, prev[p & WMASK] the one before p (0: none). */
    uint8_t window[WINDOW + MAX_MATCH + 16];
    uint16_t head[HMASK + 1], prev[WSIZE];
    uint32_t strstart, lookahead, match_start, prev_match;
    long block_start;
    int match_length, prev_length, match_available;
    const uint8_t *next_in;
    size_t avail_in;
    /* The block's symbols (distance low, high, literal or length - 3) and its trees. */
    uint8_t sym_buf[SYM_END + 3];
    unsigned sym_next;
    tree_node ltree[HEAP_SIZE], dtree[2 * D_CODES + 1], bltree[2 * BL_CODES + 1];
    tree_node static_ltree[L_CODES + 2], static_dtree[D_CODES];
    tree_desc l_desc, d_desc, bl_desc;
    int heap[2 * L_CODES + 1], heap_len, heap_max;
    uint8_t depth[2 * L_CODES + 1];
    uint16_t bl_count[MAX_BITS + 1];
    unsigned long opt_len, static_len;
    uint8_t length_code[MAX_MATCH - MIN_MATCH + 1], dist_code[512];
    int base_length[LENGTH_CODES], base_dist[D_CODES];
    /* Output, least significant bit first. */
    uint8_t *out;
    size_t pos, cap;
    uint64_t bits;
    int nbits, failed;
};

/* The tables and trees of a new coder, and of each new block. */
TH_DEFLATE_HIDDEN void th_deflate_init_tables(th_deflate *d);
TH_DEFLATE_HIDDEN void th_deflate_init_block(th_deflate *d);
/* Ends the block of the symbols so far (zlib's _tr_flush_block, then block_start moves up). */
TH_DEFLATE_HIDDEN void th_deflate_flush_block(th_deflate *d, int last);
/* Writes out the pending bits to a byte boundary. */
TH_DEFLATE_HIDDEN void th_deflate_align(th_deflate *d);

/* A literal or a match (distance, length - 3) into the block; 1 when the block is full. */
static inline int th_deflate_tally_lit(th_deflate *d, uint8_t c) {
    d->sym_buf[d->sym_next++] = 0;
    d->sym_buf[d->sym_next++] = 0;
    d->sym_buf[d->sym_next++] = c;
    d->ltree[c].freq++;
    return d->sym_next == SYM_END;
}

static inline int th_deflate_tally_dist(th_deflate *d, unsigned dist, unsigned len) {
    d->sym_buf[d->sym_next++] = (uint8_t)dist;
    d->sym_buf[d->sym_next++] = (uint8_t)(dist >> 8);
    d->sym_buf[d->sym_next++] = (uint8_t)len;
    dist--;
    d->ltree[d->length_code[len] + LITERALS + 1].freq++;
    d->dtree[d->dist_code[dist < 256 ? dist : 256 + (dist >> 7)]].freq++;
    return d->sym_next == SYM_END;
}
#endif
