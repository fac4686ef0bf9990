#include "png_deflate_state.h"
#include <string.h>

/* The blocks of png_deflate.c's stream and their Huffman codes, built as zlib 1.2's trees.c
   builds them: the same heap order and tie-breaks, the same limit on code lengths, the same
   run-length coding of the code lengths, and the same choice between a stored block, the fixed
   codes and the block's own. */

static const int extra_lbits[LENGTH_CODES] = {0,0,0,0,0,0,0,0,1,1,1,1,2,2,2,2,3,3,3,3,4,4,4,4,5,5,5,5,0};
static const int extra_dbits[D_CODES] = {0,0,0,0,1,1,2,2,3,3,4,4,5,5,6,6,7,7,8,8,9,9,10,10,11,11,12,12,13,13};
static const int extra_blbits[BL_CODES] = {0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,2,3,7};
static const uint8_t bl_order[BL_CODES] = {16,17,18,0,8,7,9,6,10,5,11,4,12,3,13,2,14,1,15};

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
void th_deflate_align(th_deflate *d) {
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

void th_deflate_init_tables(th_deflate *d) {
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

void th_deflate_init_block(th_deflate *d) {
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
void th_deflate_flush_block(th_deflate *d, int last) {
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
        th_deflate_align(d);
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
    th_deflate_init_block(d);
    if (last) th_deflate_align(d);
    d->block_start = (long)d->strstart;
}
