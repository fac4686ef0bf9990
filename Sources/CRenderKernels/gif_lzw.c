#include "gif_lzw.h"
#include <stdlib.h>
#include <string.h>

/* The string table maps (prefix code, next index) to a code. Each prefix's first child is kept
   beside it (first[prefix] = index << 16 | code), which answers the lookups along runs of one
   index, UI frames' common case, from 16 KiB; other children go to an open-addressing hash
   table whose entries pack the 20-bit key (codes stay below 4095, indices below 256) with the
   12-bit code. EMPTY is no entry. Both stay small enough for the first-level cache, which
   matters: each lookup waits for the previous one. */
enum { TABLE_BITS = 13, TABLE_SIZE = 1 << TABLE_BITS, MAX_CODE = 4095 };
#define EMPTY 0xffffffffu

/* Runs of one index (unchanged pixels, flat fills) are most of a UI frame. Inside a run the
   coder walks from the one-pixel string p through p p, p p p, ... one lookup a pixel, each
   waiting for the last. run[p] remembers that walk, run[p][k] being the code of k + 2 p's,
   and run_len[p] how far it goes: a run is then measured with a byte scan and jumped over with
   one read. The walk only ever grows at its end (a string's code never changes until the
   table is cleared), so the memo is extended exactly when the coder adds the code one past
   it. It is a cache of what the lookups would find: the codes written are the same. Pages
   of `run` are touched only for the indices that do run (calloc leaves the rest unmapped). */
struct th_gif_lzw {
    uint32_t first[MAX_CODE + 1];
    uint32_t table[TABLE_SIZE];
    uint16_t run_len[256];
    uint16_t run[256][MAX_CODE];
};

th_gif_lzw *th_gif_lzw_create(void) { return calloc(1, sizeof(th_gif_lzw)); }
void th_gif_lzw_destroy(th_gif_lzw *z) { free(z); }

static inline size_t same_bytes(const uint8_t *px, size_t n, uint8_t v) {
    size_t i = 0;
    while (i + 8 <= n) {
        uint64_t w;
        memcpy(&w, px + i, 8);
        uint64_t d = w ^ (0x0101010101010101ull * v);
        if (d) return i + (size_t)(__builtin_ctzll(d) >> 3);
        i += 8;
    }
    while (i < n && px[i] == v) i++;
    return i;
}

size_t th_gif_lzw_bound(size_t count) {
    /* At most one 12-bit code per pixel plus the clear codes, the end code and the framing. */
    size_t codes = count + count / 4000 + 4;
    size_t bytes = (codes * 12 + 7) / 8;
    return 1 + bytes + bytes / 255 + 2;
}

typedef struct {
    uint8_t *out;
    size_t pos, block;     /* write position; the length byte of the open sub-block */
    uint32_t bits;         /* pending bits, least significant first */
    int nbits;
    int width;             /* current code width */
    int next;              /* the next code to assign */
    int limit;             /* 1 << width */
} coder;

static inline void put_byte(coder *c, uint8_t b) {
    if (c->out[c->block] == 255) { c->block = c->pos++; c->out[c->block] = 0; }
    c->out[c->pos++] = b;
    c->out[c->block]++;
}

static inline void put_code(coder *c, int code) {
    c->bits |= (uint32_t)code << c->nbits;
    c->nbits += c->width;
    while (c->nbits >= 8) { put_byte(c, (uint8_t)(c->bits & 0xff)); c->bits >>= 8; c->nbits -= 8; }
    /* Widen once the next code no longer fits (as decoders expect). */
    if (c->next >= c->limit && code <= MAX_CODE) c->limit = 1 << ++c->width;
}

static inline uint32_t slot_of(uint32_t key) { return (key * 2654435761u) >> (32 - TABLE_BITS); }

size_t th_gif_lzw_encode(th_gif_lzw *z, const uint8_t *px, size_t n, int bpp, uint8_t *out) {
    int min_bits = bpp < 2 ? 2 : bpp;
    const int clear = 1 << min_bits, eof = clear + 1;
    const uint8_t mask = (uint8_t)((1u << min_bits) - 1);
    coder c = { out, 0, 0, 0, 0, min_bits + 1, eof + 1, 1 << (min_bits + 1) };
    out[c.pos++] = (uint8_t)min_bits;
    c.block = c.pos++;
    out[c.block] = 0;
    memset(z->first, 0xff, sizeof z->first);
    memset(z->table, 0xff, sizeof z->table);
    memset(z->run_len, 0, sizeof z->run_len);
    put_code(&c, clear);
    if (n > 0) {
        uint32_t prefix = px[0] & mask;
        for (size_t i = 1; i < n; i++) {
            uint32_t p = px[i] & mask;
            if (prefix == p && z->run_len[p] > 0 && px[i] == p) {
                /* At the one-pixel string p with more p's coming: jump along the remembered
                   walk as far as the run and the walk both go. */
                size_t k = same_bytes(px + i, n - i < z->run_len[p] ? n - i : z->run_len[p], (uint8_t)p);
                prefix = z->run[p][k - 1];
                i += k - 1;
                continue;
            }
            uint32_t f = z->first[prefix];
            if ((f >> 16) == p) { prefix = f & 0xffff; continue; }
            uint32_t key = (prefix << 8) | p, s = 0;
            if (f != EMPTY) {
                s = slot_of(key);
                for (;;) {
                    uint32_t e = z->table[s];
                    if (e == EMPTY) break;
                    if ((e >> 12) == key) break;
                    s = (s + 1) & (TABLE_SIZE - 1);
                }
                uint32_t e = z->table[s];
                if (e != EMPTY) { prefix = e & 0xfff; continue; }
            }
            put_code(&c, (int)prefix);
            uint32_t from = prefix;
            prefix = p;
            if (c.next >= MAX_CODE) {
                put_code(&c, clear);
                c.next = eof + 1;
                c.width = min_bits + 1;
                c.limit = 1 << c.width;
                memset(z->first, 0xff, sizeof z->first);
                memset(z->table, 0xff, sizeof z->table);
                memset(z->run_len, 0, sizeof z->run_len);
            } else {
                /* The code one past p's remembered walk (or its first step) extends it. */
                uint32_t len = z->run_len[p];
                if (from == (len ? z->run[p][len - 1] : p)) z->run[p][z->run_len[p]++] = (uint16_t)c.next;
                if (f == EMPTY) z->first[from] = (p << 16) | (uint32_t)c.next++;
                else z->table[s] = (key << 12) | (uint32_t)c.next++;
            }
        }
        put_code(&c, (int)prefix);
    }
    put_code(&c, eof);
    while (c.nbits > 0) { put_byte(&c, (uint8_t)(c.bits & 0xff)); c.bits >>= 8; c.nbits -= 8; }
    if (out[c.block] == 0) c.pos = c.block;   /* no empty sub-block before the terminator */
    out[c.pos++] = 0;
    return c.pos;
}
