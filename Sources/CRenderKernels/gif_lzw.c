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

struct th_gif_lzw { uint32_t first[MAX_CODE + 1]; uint32_t table[TABLE_SIZE]; };

th_gif_lzw *th_gif_lzw_create(void) { return malloc(sizeof(th_gif_lzw)); }
void th_gif_lzw_destroy(th_gif_lzw *z) { free(z); }

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
    put_code(&c, clear);
    if (n > 0) {
        uint32_t prefix = px[0] & mask;
        for (size_t i = 1; i < n; i++) {
            uint32_t p = px[i] & mask;
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
            } else if (f == EMPTY) {
                z->first[from] = (p << 16) | (uint32_t)c.next++;
            } else {
                z->table[s] = (key << 12) | (uint32_t)c.next++;
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
