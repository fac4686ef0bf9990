#include "png_deflate.h"
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Raw deflate that writes what zlib 1.2's deflate writes at libpng's settings: level 6 (lazy
   matching: chains of at most 128 candidates, a quarter of that once a match of 8 is in hand,
   no lazy search after a match of 16, a match of 128 ends the search), a 32 KiB window, memory
   level 8 (15-bit hashes of three bytes, blocks of at most 16383 symbols) and Z_FILTERED
   (matches of 5 bytes or fewer are dropped). The steps are zlib's, in zlib's order, so every
   choice (which match, when a block ends, how it is coded) is the same, and so are the bytes;
   PNGWriterTests compares the two on rows of every kind.

   What differs is how fast the steps go on a contact sheet, whose filtered rows are 95% long
   runs of zero bytes (a row like the one above it filters to zeros): zlib hashes every byte of
   a match into its chains one at a time, each waiting for the last, and compares matches two
   bytes a step. Here the bytes of a match that lie in a run of one value, which all hash alike,
   are chained in one sweep (each to the one before it, which is what inserting them one by one
   leaves), and matches are compared eight bytes a step. */

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

static const int extra_lbits[LENGTH_CODES] = {0,0,0,0,0,0,0,0,1,1,1,1,2,2,2,2,3,3,3,3,4,4,4,4,5,5,5,5,0};
static const int extra_dbits[D_CODES] = {0,0,0,0,1,1,2,2,3,3,4,4,5,5,6,6,7,7,8,8,9,9,10,10,11,11,12,12,13,13};
static const int extra_blbits[BL_CODES] = {0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2,3,7};
static const uint8_t bl_order[BL_CODES] = {16,17,18,0,8,7,9,6,10,5,11,4,12,3,13,2,14,1,15};

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

/* ---- output ---- */

static inline void put_bits(th_deflate *d, unsigned value, int length) {
    d->bits |= (uint64_t)value << d->nbits;
    d->nbits += length;
    if (d->nbits >= 32) {
        if (d->pos + 4 > d->cap) { d->failed = 1; d->nbits = 0; d->bits = 0; return; }
        for (int k = 0; k < 4; k++) d->out[d->pos++] = (uint8_t)(d->bits >> (8 * k));
        d->bits >>= 32;
        d->nbits -= 32;
    }
}

/* Out to a byte boundary, the last byte padded with zeros. */
static void align(th_deflate *d) {
    while (d->nbits > 0) {
        if (d->pos >= d->cap) { d->failed = 1; break; }
        d->out[d->pos++] = (uint8_t)d->bits;
        d->bits >>= 8;
        d->nbits -= 8;
    }
    d->bits = 0;
    d->nbits = 0;
}

static unsigned reverse(unsigned code, int len) {
    unsigned r = 0;
    do { r |= code & 1; code >>= 1; r <<= 1; } while (--len > 0);
    return r >> 1;
}

/* ---- Huffman trees, as zlib builds them (its heap order and tie-breaks) ---- */

static void gen_codes(tree_node *tree, int max_code, const uint16_t *bl_count) {
    uint16_t next[MAX_BITS + 1];
    unsigned code = 0;
    for (int b = 1; b <= MAX_BITS; b++) { code = (code + bl_count[b - 1]) << 1; next[b] = (uint16_t)code; }
    for (int n = 0; n <= max_code; n++) {
        int len = tree[n].len;
        if (len) tree[n].code = (uint16_t)reverse(next[len]++, len);
    }
}

static void init_tables(th_deflate *d) {
    int length = 0, code;
    for (code = 0; code < LENGTH_CODES - 1; code++) {
        d->base_length[code] = length;
        for (int n = 0; n < (1 << extra_lbits[code]); n++) d->length_code[length++] = (uint8_t)code;
    }
    d->length_code[length - 1] = (uint8_t)code;
    d->base_length[LENGTH_CODES - 1] = 0;
    int dist = 0;
    for (code = 0; code < 16; code++) {
        d->base_dist[code] = dist;
        for (int n = 0; n < (1 << extra_dbits[code]); n++) d->dist_code[dist++] = (uint8_t)code;
    }
    dist >>= 7;
    for (; code < D_CODES; code++) {
        d->base_dist[code] = dist << 7;
        for (int n = 0; n < (1 << (extra_dbits[code] - 7)); n++) d->dist_code[256 + dist++] = (uint8_t)code;
    }
    uint16_t count[MAX_BITS + 1] = {0};
    int n = 0;
    while (n <= 143) { d->static_ltree[n++].len = 8; count[8]++; }
    while (n <= 255) { d->static_ltree[n++].len = 9; count[9]++; }
    while (n <= 279) { d->static_ltree[n++].len = 7; count[7]++; }
    while (n <= 287) { d->static_ltree[n++].len = 8; count[8]++; }
    gen_codes(d->static_ltree, L_CODES + 1, count);
    for (n = 0; n < D_CODES; n++) { d->static_dtree[n].len = 5; d->static_dtree[n].code = (uint16_t)reverse((unsigned)n, 5); }
    d->l_desc = (tree_desc){ d->ltree, d->static_ltree, extra_lbits, LITERALS + 1, L_CODES, MAX_BITS, 0 };
    d->d_desc = (tree_desc){ d->dtree, d->static_dtree, extra_dbits, 0, D_CODES, MAX_BITS, 0 };
    d->bl_desc = (tree_desc){ d->bltree, NULL, extra_blbits, 0, BL_CODES, MAX_BL_BITS, 0 };
}

static void init_block(th_deflate *d) {
    for (int n = 0; n < L_CODES; n++) d->ltree[n].freq = 0;
    for (int n = 0; n < D_CODES; n++) d->dtree[n].freq = 0;
    for (int n = 0; n < BL_CODES; n++) d->bltree[n].freq = 0;
    d->ltree[END_BLOCK].freq = 1;
    d->opt_len = d->static_len = 0;
    d->sym_next = 0;
}

static inline int smaller(const tree_node *tree, int n, int m, const uint8_t *depth) {
    return tree[n].freq < tree[m].freq || (tree[n].freq == tree[m].freq && depth[n] <= depth[m]);
}

static void downheap(th_deflate *d, const tree_node *tree, int k) {
    int v = d->heap[k], j = k << 1;
    while (j <= d->heap_len) {
        if (j < d->heap_len && smaller(tree, d->heap[j + 1], d->heap[j], d->depth)) j++;
        if (smaller(tree, v, d->heap[j], d->depth)) break;
        d->heap[k] = d->heap[j];
        k = j;
        j <<= 1;
    }
    d->heap[k] = v;
}

/* Code lengths from the tree's shape, limited to max_length as zlib limits them. */
static void gen_bitlen(th_deflate *d, tree_desc *desc) {
    tree_node *tree = desc->tree;
    int h, n, m, bits, overflow = 0;
    for (bits = 0; bits <= MAX_BITS; bits++) d->bl_count[bits] = 0;
    tree[d->heap[d->heap_max]].len = 0;
    for (h = d->heap_max + 1; h < HEAP_SIZE; h++) {
        n = d->heap[h];
        bits = tree[tree[n].dad].len + 1;
        if (bits > desc->max_length) { bits = desc->max_length; overflow++; }
        tree[n].len = (uint16_t)bits;
        if (n > desc->max_code) continue;
        d->bl_count[bits]++;
        int xbits = n >= desc->base ? desc->extra[n - desc->base] : 0;
        unsigned long f = tree[n].freq;
        d->opt_len += f * (unsigned)(bits + xbits);
        if (desc->stat) d->static_len += f * (unsigned)(desc->stat[n].len + xbits);
    }
    if (overflow == 0) return;
    do {
        bits = desc->max_length - 1;
        while (d->bl_count[bits] == 0) bits--;
        d->bl_count[bits]--;
        d->bl_count[bits + 1] += 2;
        d->bl_count[desc->max_length]--;
        overflow -= 2;
    } while (overflow > 0);
    for (bits = desc->max_length; bits != 0; bits--) {
        n = d->bl_count[bits];
        while (n != 0) {
            m = d->heap[--h];
            if (m > desc->max_code) continue;
            if (tree[m].len != (unsigned)bits) {
                d->opt_len += ((unsigned long)bits - tree[m].len) * tree[m].freq;
                tree[m].len = (uint16_t)bits;
            }
            n--;
        }
    }
}

static void build_tree(th_deflate *d, tree_desc *desc) {
    tree_node *tree = desc->tree;
    int n, m, max_code = -1, node;
    d->heap_len = 0;
    d->heap_max = HEAP_SIZE;
    for (n = 0; n < desc->elems; n++) {
        if (tree[n].freq != 0) { d->heap[++d->heap_len] = max_code = n; d->depth[n] = 0; }
        else tree[n].len = 0;
    }
    while (d->heap_len < 2) {
        node = d->heap[++d->heap_len] = max_code < 2 ? ++max_code : 0;
        tree[node].freq = 1;
        d->depth[node] = 0;
        d->opt_len--;
        if (desc->stat) d->static_len -= desc->stat[node].len;
    }
    desc->max_code = max_code;
    for (n = d->heap_len / 2; n >= 1; n--) downheap(d, tree, n);
    node = desc->elems;
    do {
        n = d->heap[1];
        d->heap[1] = d->heap[d->heap_len--];
        downheap(d, tree, 1);
        m = d->heap[1];
        d->heap[--d->heap_max] = n;
        d->heap[--d->heap_max] = m;
        tree[node].freq = (uint16_t)(tree[n].freq + tree[m].freq);
        d->depth[node] = (uint8_t)((d->depth[n] >= d->depth[m] ? d->depth[n] : d->depth[m]) + 1);
        tree[n].dad = tree[m].dad = (uint16_t)node;
        d->heap[1] = node++;
        downheap(d, tree, 1);
    } while (d->heap_len >= 2);
    d->heap[--d->heap_max] = d->heap[1];
    gen_bitlen(d, desc);
    gen_codes(tree, max_code, d->bl_count);
}

/* The code lengths of `tree` (0 .. max_code), run-length coded: counted into the bit-length
   tree (send 0) or sent with it (send 1). `guard` stands for the length after the last. */
static void code_lengths(th_deflate *d, const tree_node *tree, int max_code, int send) {
    int prevlen = -1, nextlen = tree[0].len, count = 0, max_count = 7, min_count = 4;
    if (nextlen == 0) { max_count = 138; min_count = 3; }
    for (int n = 0; n <= max_code; n++) {
        int curlen = nextlen;
        nextlen = n + 1 <= max_code ? tree[n + 1].len : 0xffff;
        if (++count < max_count && curlen == nextlen) continue;
        if (count < min_count) {
            if (send) do { put_bits(d, d->bltree[curlen].code, d->bltree[curlen].len); } while (--count != 0);
            else d->bltree[curlen].freq = (uint16_t)(d->bltree[curlen].freq + count);
        } else if (curlen != 0) {
            if (curlen != prevlen) {
                if (send) { put_bits(d, d->bltree[curlen].code, d->bltree[curlen].len); count--; }
                else d->bltree[curlen].freq++;
            }
            if (send) { put_bits(d, d->bltree[REP_3_6].code, d->bltree[REP_3_6].len); put_bits(d, (unsigned)count - 3, 2); }
            else d->bltree[REP_3_6].freq++;
        } else if (count <= 10) {
            if (send) { put_bits(d, d->bltree[REPZ_3_10].code, d->bltree[REPZ_3_10].len); put_bits(d, (unsigned)count - 3, 3); }
            else d->bltree[REPZ_3_10].freq++;
        } else {
            if (send) { put_bits(d, d->bltree[REPZ_11_138].code, d->bltree[REPZ_11_138].len); put_bits(d, (unsigned)count - 11, 7); }
            else d->bltree[REPZ_11_138].freq++;
        }
        count = 0;
        prevlen = curlen;
        if (nextlen == 0) { max_count = 138; min_count = 3; }
        else if (curlen == nextlen) { max_count = 6; min_count = 3; }
        else { max_count = 7; min_count = 4; }
    }
}

static void compress_block(th_deflate *d, const tree_node *ltree, const tree_node *dtree) {
    for (unsigned sx = 0; sx < d->sym_next; sx += 3) {
        unsigned dist = d->sym_buf[sx] | (unsigned)d->sym_buf[sx + 1] << 8;
        int lc = d->sym_buf[sx + 2];
        if (dist == 0) { put_bits(d, ltree[lc].code, ltree[lc].len); continue; }
        int code = d->length_code[lc];
        put_bits(d, ltree[code + LITERALS + 1].code, ltree[code + LITERALS + 1].len);
        if (extra_lbits[code]) put_bits(d, (unsigned)(lc - d->base_length[code]), extra_lbits[code]);
        dist--;
        code = d->dist_code[dist < 256 ? dist : 256 + (dist >> 7)];
        put_bits(d, dtree[code].code, dtree[code].len);
        if (extra_dbits[code]) put_bits(d, dist - (unsigned)d->base_dist[code], extra_dbits[code]);
    }
    put_bits(d, ltree[END_BLOCK].code, ltree[END_BLOCK].len);
}

/* Ends the block of the symbols so far: stored, with the fixed codes or with its own, whichever
   zlib would pick. `buf` is its bytes (NULL once they have left the window). */
static void flush_block(th_deflate *d, int last) {
    const uint8_t *buf = d->block_start >= 0 ? d->window + d->block_start : NULL;
    unsigned long stored_len = (unsigned long)((long)d->strstart - d->block_start);
    build_tree(d, &d->l_desc);
    build_tree(d, &d->d_desc);
    code_lengths(d, d->ltree, d->l_desc.max_code, 0);
    code_lengths(d, d->dtree, d->d_desc.max_code, 0);
    build_tree(d, &d->bl_desc);
    int max_blindex;
    for (max_blindex = BL_CODES - 1; max_blindex >= 3; max_blindex--) if (d->bltree[bl_order[max_blindex]].len != 0) break;
    d->opt_len += 3 * ((unsigned long)max_blindex + 1) + 5 + 5 + 4;
    unsigned long opt_lenb = (d->opt_len + 3 + 7) >> 3, static_lenb = (d->static_len + 3 + 7) >> 3;
    if (static_lenb <= opt_lenb) opt_lenb = static_lenb;
    if (stored_len + 4 <= opt_lenb && buf) {
        put_bits(d, (unsigned)last, 3);
        align(d);
        if (d->pos + 4 + stored_len > d->cap) d->failed = 1;
        else {
            uint8_t *o = d->out + d->pos;
            o[0] = (uint8_t)stored_len; o[1] = (uint8_t)(stored_len >> 8);
            o[2] = (uint8_t)~stored_len; o[3] = (uint8_t)(~stored_len >> 8);
            memcpy(o + 4, buf, stored_len);
            d->pos += 4 + stored_len;
        }
    } else if (static_lenb == opt_lenb) {
        put_bits(d, (1u << 1) + (unsigned)last, 3);
        compress_block(d, d->static_ltree, d->static_dtree);
    } else {
        put_bits(d, (2u << 1) + (unsigned)last, 3);
        int lcodes = d->l_desc.max_code + 1, dcodes = d->d_desc.max_code + 1;
        put_bits(d, (unsigned)lcodes - 257, 5);
        put_bits(d, (unsigned)dcodes - 1, 5);
        put_bits(d, (unsigned)max_blindex + 1 - 4, 4);
        for (int rank = 0; rank <= max_blindex; rank++) put_bits(d, d->bltree[bl_order[rank]].len, 3);
        code_lengths(d, d->ltree, lcodes - 1, 1);
        code_lengths(d, d->dtree, dcodes - 1, 1);
        compress_block(d, d->ltree, d->dtree);
    }
    init_block(d);
    if (last) align(d);
    d->block_start = (long)d->strstart;
}

static inline int tally_lit(th_deflate *d, uint8_t c) {
    d->sym_buf[d->sym_next++] = 0;
    d->sym_buf[d->sym_next++] = 0;
    d->sym_buf[d->sym_next++] = c;
    d->ltree[c].freq++;
    return d->sym_next == SYM_END;
}

static inline int tally_dist(th_deflate *d, unsigned dist, unsigned len) {
    d->sym_buf[d->sym_next++] = (uint8_t)dist;
    d->sym_buf[d->sym_next++] = (uint8_t)(dist >> 8);
    d->sym_buf[d->sym_next++] = (uint8_t)len;
    dist--;
    d->ltree[d->length_code[len] + LITERALS + 1].freq++;
    d->dtree[d->dist_code[dist < 256 ? dist : 256 + (dist >> 7)]].freq++;
    return d->sym_next == SYM_END;
}

/* ---- matching ---- */

/* zlib's rolling hash of the three bytes at p, which after three steps depends on them alone. */
static inline unsigned hash_at(const uint8_t *p) { return (((unsigned)p[0] << 10) ^ ((unsigned)p[1] << 5) ^ p[2]) & HMASK; }

static inline unsigned insert(th_deflate *d, uint32_t p) {
    unsigned h = hash_at(d->window + p), was = d->head[h];
    d->prev[p & WMASK] = (uint16_t)was;
    d->head[h] = (uint16_t)p;
    return was;
}

/* How many of the n bytes at p are v. */
static inline uint32_t same(const uint8_t *p, uint32_t n, uint8_t v) {
    uint32_t i = 0;
#if defined(__SSE2__)
    const __m128i want = _mm_set1_epi8((char)v);
    for (; i + 16 <= n; i += 16) {
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(p + i)), want));
        if (m != 0xffff) return i + (uint32_t)__builtin_ctz(~m);
    }
#endif
    while (i < n && p[i] == v) i++;
    return i;
}

/* Inserts positions a ..= b, as one insert after another would. Where the three bytes at each
   position are one value (a run), they all hash alike: the first is chained to the hash's
   latest position, each later one to the one before it, and the last becomes the latest. */
static void insert_range(th_deflate *d, uint32_t a, uint32_t b) {
    const uint8_t *w = d->window;
    while (a <= b) {
        uint8_t v = w[a];
        uint32_t e = a + same(w + a + 3, b - a, v);   /* the run's last position whose three bytes are v */
        if (w[a + 1] != v || w[a + 2] != v || e == a) { insert(d, a); a++; continue; }
        unsigned h = hash_at(w + a);
        d->prev[a & WMASK] = d->head[h];
        for (uint32_t q = a + 1; q <= e; q++) d->prev[q & WMASK] = (uint16_t)(q - 1);
        d->head[h] = (uint16_t)e;
        a = e + 1;
    }
}

/* How many of the bytes at s and m agree, from index `from` up to MAX_MATCH. */
static inline int agree(const uint8_t *s, const uint8_t *m, int from) {
    int i = from;
    while (i + 8 <= MAX_MATCH) {
        uint64_t x, y;
        memcpy(&x, s + i, 8);
        memcpy(&y, m + i, 8);
        if (x != y) return i + (__builtin_ctzll(x ^ y) >> 3);
        i += 8;
    }
    while (i < MAX_MATCH && s[i] == m[i]) i++;
    return i;
}

static inline uint16_t two(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }

/* zlib's longest_match: the candidates of the chain from `cur`, nearest first, each checked at
   the bytes that would lengthen the best match so far and at its first two, then measured. */
static int longest_match(th_deflate *d, unsigned cur) {
    unsigned chain = MAX_CHAIN;
    const uint8_t *scan = d->window + d->strstart;
    int best = d->prev_length, nice = NICE;
    unsigned limit = d->strstart > MAX_DIST ? d->strstart - MAX_DIST : 0;
    const uint16_t start = two(scan);
    uint16_t end = two(scan + best - 1);
    if ((unsigned)d->prev_length >= GOOD) chain >>= 2;
    if ((unsigned)nice > d->lookahead) nice = (int)d->lookahead;
    do {
        const uint8_t *match = d->window + cur;
        const unsigned next = d->prev[cur & WMASK];   /* read early: the walk waits on it */
        if (two(match + best - 1) != end || two(match) != start) { cur = next; continue; }
        /* Byte 2 agrees too (same hash, same first two bytes): zlib compares from byte 3. */
        int len = agree(scan, match, 3);
        if (len > best) {
            d->match_start = cur;
            best = len;
            if (len >= nice) break;
            end = two(scan + best - 1);
        }
        cur = next;
    } while (cur > limit && --chain != 0);
    return (unsigned)best <= d->lookahead ? best : (int)d->lookahead;
}

/* ---- the window ---- */

static void slide(uint16_t *p, size_t n) {
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i w = _mm_set1_epi16((short)WSIZE);
    for (; i + 8 <= n; i += 8) _mm_storeu_si128((__m128i *)(p + i), _mm_subs_epu16(_mm_loadu_si128((const __m128i *)(p + i)), w));
#endif
    for (; i < n; i++) p[i] = (uint16_t)(p[i] >= WSIZE ? p[i] - WSIZE : 0);
}

/* zlib's fill_window: slides the window down by WSIZE once strstart is far enough up (chains
   that reach below it end), then reads what input fits. */
static void fill_window(th_deflate *d) {
    do {
        unsigned more = WINDOW - d->lookahead - d->strstart;
        if (d->strstart >= WSIZE + MAX_DIST) {
            memcpy(d->window, d->window + WSIZE, WSIZE - more);
            d->match_start -= WSIZE;
            d->strstart -= WSIZE;
            d->block_start -= WSIZE;
            slide(d->head, HMASK + 1);
            slide(d->prev, WSIZE);
            more += WSIZE;
        }
        if (d->avail_in == 0) break;
        size_t n = d->avail_in < more ? d->avail_in : more;
        memcpy(d->window + d->strstart + d->lookahead, d->next_in, n);
        d->next_in += n;
        d->avail_in -= n;
        d->lookahead += (uint32_t)n;
    } while (d->lookahead < MIN_LOOKAHEAD && d->avail_in != 0);
}

/* zlib's deflate_slow. Returns once it needs more input (or, finishing, at the end). */
static void run(th_deflate *d, int finish) {
    for (;;) {
        if (d->lookahead < MIN_LOOKAHEAD) {
            fill_window(d);
            if (d->lookahead < MIN_LOOKAHEAD && !finish) return;
            if (d->lookahead == 0) break;
        }
        unsigned hash_head = 0;
        if (d->lookahead >= MIN_MATCH) hash_head = insert(d, d->strstart);
        d->prev_length = d->match_length;
        d->prev_match = d->match_start;
        d->match_length = MIN_MATCH - 1;
        if (hash_head != 0 && d->prev_length < MAX_LAZY && d->strstart - hash_head <= MAX_DIST) {
            d->match_length = longest_match(d, hash_head);
            if (d->match_length <= 5) d->match_length = MIN_MATCH - 1;   /* Z_FILTERED */
        }
        if (d->prev_length >= MIN_MATCH && d->match_length <= d->prev_length) {
            uint32_t max_insert = d->strstart + d->lookahead - MIN_MATCH;
            int flush = tally_dist(d, d->strstart - 1 - d->prev_match, (unsigned)(d->prev_length - MIN_MATCH));
            d->lookahead -= (uint32_t)(d->prev_length - 1);
            /* The match's other positions, those with three bytes of input. */
            uint32_t last = d->strstart + (uint32_t)(d->prev_length - 2);
            if (last > max_insert) last = max_insert;
            if (d->strstart + 1 <= last) insert_range(d, d->strstart + 1, last);
            d->strstart += (uint32_t)(d->prev_length - 2);
            d->prev_length = 0;
            d->match_available = 0;
            d->match_length = MIN_MATCH - 1;
            d->strstart++;
            if (flush) flush_block(d, 0);
        } else if (d->match_available) {
            if (tally_lit(d, d->window[d->strstart - 1])) flush_block(d, 0);
            d->strstart++;
            d->lookahead--;
        } else {
            d->match_available = 1;
            d->strstart++;
            d->lookahead--;
        }
    }
    if (d->match_available) {
        tally_lit(d, d->window[d->strstart - 1]);
        d->match_available = 0;
    }
    flush_block(d, 1);
}

th_deflate *th_deflate_create(uint8_t *out, size_t cap) {
    th_deflate *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    init_tables(d);
    init_block(d);
    d->match_length = d->prev_length = MIN_MATCH - 1;
    d->out = out;
    d->cap = cap;
    return d;
}

void th_deflate_destroy(th_deflate *d) { free(d); }

int th_deflate_feed(th_deflate *d, const uint8_t *in, size_t n) {
    d->next_in = in;
    d->avail_in = n;
    if (n > 0 || d->lookahead != 0) run(d, 0);
    return !d->failed;
}

size_t th_deflate_finish(th_deflate *d) {
    d->next_in = NULL;
    d->avail_in = 0;
    run(d, 1);
    align(d);
    return d->failed ? 0 : d->pos;
}
