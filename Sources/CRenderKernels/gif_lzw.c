#include "gif_lzw.h"
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* The string table maps (prefix code, next index) to a code. A code's first child is the one
   the coder meets again and again: the strings of a frame that repeats what the rows or frames
   before it showed grow one index at a time, and the coder walks down the same first children
   each time, one lookup per pixel, each waiting for the last. So first children are kept as
   paths: a code with no children starts a path, and its first child, that child's first child
   and so on follow it in one array, each with the index that leads to it (`step`) and its code.
   The coder compares the next pixels with a path's steps sixteen at a time and jumps to the
   code where they part, instead of looking each one up. A path only ever grows at its end (a
   code gets its first child once); when its room runs out it moves to the end of the array
   with twice the room. Other children go to an open-addressing hash table whose entries pack
   the 20-bit key (codes stay below 4095, indices below 256) with the 12-bit code; EMPTY is no
   entry. Paths and table are caches of the same tree: the codes written are the same. */
enum { TABLE_BITS = 13, TABLE_SIZE = 1 << TABLE_BITS, MAX_CODE = 4095 };
#define EMPTY 0xffffffffu
/* A step no pixel matches: the end of a path (its code slot then holds the end of its room),
   and the place of a path's first code (its start, where a move copies from). */
enum { END = 0x100, START = 0x200 };
/* Paths' room: a path moved when it holds n codes gets 2 (n + 2) slots, so one that ends with
   n codes has at most 2 (n + 1) slots and the rooms it left behind add up to no more again:
   4 (n + 1) in all. A path with room has at least two codes, and a table has at most 4096
   codes, so every room of a table fits in 4 (4096 + 2048) slots. Slots 0 and 1 are the path of
   every code that has no children and no room yet; reading sixteen steps past a path's end
   stays inside the padding. */
enum { SLOTS = 8 * (MAX_CODE + 1) + 64, NONE = 0 };

/* Runs of one index (unchanged pixels, flat fills) are most of a UI frame. Inside a run the
   coder walks from the one-pixel string p through p p, p p p, ... one lookup a pixel, each
   waiting for the last. run[p] remembers that walk, run[p][k] being the code of k + 2 p's,
   and run_len[p] how far it goes: a run is then measured with a byte scan and jumped over with
   one read. The walk only ever grows at its end (a string's code never changes until the
   table is cleared), so the memo is extended exactly when the coder adds the code one past
   it. It is a cache of what the lookups would find: the codes written are the same. Pages
   of `run` are touched only for the indices that do run (calloc leaves the rest unmapped). */
struct th_gif_lzw {
    uint16_t at[MAX_CODE + 1];   /* each code's slot in its path */
    uint16_t step[SLOTS];
    uint16_t code[SLOTS];
    uint32_t top;                /* the first free slot */
    uint32_t table[TABLE_SIZE];
    uint16_t run_len[256];
    uint16_t run[256][MAX_CODE];
};

th_gif_lzw *th_gif_lzw_create(void) { return calloc(1, sizeof(th_gif_lzw)); }
void th_gif_lzw_destroy(th_gif_lzw *z) { free(z); }

static inline size_t same_bytes(const uint8_t *px, size_t n, uint8_t v) {
    size_t i = 0;
#if defined(__SSE2__)
    const __m128i want = _mm_set1_epi8((char)v);
    while (i + 16 <= n) {
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(px + i)), want));
        if (m != 0xffff) return i + (size_t)__builtin_ctz(~m);
        i += 16;
    }
#endif
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

/* How many of the n pixels at px (their `mask` bits) equal the steps at s (which end with END). */
static inline size_t path_match(const uint8_t *px, size_t n, const uint16_t *s, uint8_t mask) {
    size_t k = 0;
#if defined(__SSE2__)
    const __m128i zero = _mm_setzero_si128(), bits = _mm_set1_epi8((char)mask);
    while (k + 16 <= n) {
        __m128i b = _mm_and_si128(_mm_loadu_si128((const __m128i *)(px + k)), bits);
        __m128i lo = _mm_cmpeq_epi16(_mm_unpacklo_epi8(b, zero), _mm_loadu_si128((const __m128i *)(s + k)));
        __m128i hi = _mm_cmpeq_epi16(_mm_unpackhi_epi8(b, zero), _mm_loadu_si128((const __m128i *)(s + k + 8)));
        unsigned m = (unsigned)_mm_movemask_epi8(_mm_packs_epi16(lo, hi));
        if (m != 0xffff) return k + (size_t)__builtin_ctz(~m);
        k += 16;
    }
#endif
    while (k < n && (px[k] & mask) == s[k]) k++;
    return k;
}

/* The most bytes of codes for `count` pixels: at most one 12-bit code per pixel, plus the clear
   codes and the end code. */
static size_t stream_bound(size_t count) {
    size_t codes = count + count / 4000 + 4;
    return (codes * 12 + 7) / 8;
}

size_t th_gif_lzw_bound(size_t count) {
    /* The codes, a length byte per sub-block, the minimum code size and the terminator. */
    size_t bytes = stream_bound(count);
    return 1 + bytes + bytes / 255 + 2;
}

/* The codes are packed into one stream first (written at `raw`, far enough into the output
   that framing it into sub-blocks afterwards, in place and front to back, never overtakes it). */
typedef struct {
    uint8_t *raw;
    size_t pos;            /* bytes of the stream written */
    uint64_t bits;         /* pending bits, least significant first */
    int nbits;
    int width;             /* current code width */
    int next;              /* the next code to assign */
    int limit;             /* 1 << width */
} coder;

static inline void put_code(coder *c, int code) {
    c->bits |= (uint64_t)code << c->nbits;
    c->nbits += c->width;
    if (c->nbits >= 32) {
        uint32_t w = (uint32_t)c->bits;
        memcpy(c->raw + c->pos, &w, 4);
        c->pos += 4; c->bits >>= 32; c->nbits -= 32;
    }
    /* Widen once the next code no longer fits (as decoders expect). */
    if (c->next >= c->limit && code <= MAX_CODE) c->limit = 1 << ++c->width;
}

static inline uint32_t slot_of(uint32_t key) { return (key * 2654435761u) >> (32 - TABLE_BITS); }

/* An empty table: every one-pixel string a path of its own with no room yet. */
static void reset(th_gif_lzw *z, int roots) {
    z->step[NONE] = START; z->code[NONE] = 0;
    z->step[NONE + 1] = END; z->code[NONE + 1] = 0;
    z->top = 2;
    for (int c = 0; c < roots; c++) z->at[c] = NONE;
    memset(z->table, 0xff, sizeof z->table);
    memset(z->run_len, 0, sizeof z->run_len);
}

/* Makes `child`, reached from `parent` (which has no children: its slot is its path's last)
   by index p, the next code of parent's path, moving the path when its room is full. */
static void extend_path(th_gif_lzw *z, uint32_t parent, uint32_t p, uint32_t child) {
    uint32_t a = z->at[parent], e = a + 1;
    if (e + 1 >= z->code[e]) {
        /* Full (or parent has no room at all): copy the path to twice its length. */
        uint32_t s = a;
        if (a != NONE) while (z->step[s] != START) s--;
        uint32_t n = a == NONE ? 1 : a - s + 1, room = 2 * (n + 2), t = z->top;
        if (room < 8) room = 8;
        if (a == NONE) { z->step[t] = START; z->code[t] = (uint16_t)parent; z->at[parent] = (uint16_t)t; }
        else for (uint32_t k = 0; k < n; k++) {
            z->step[t + k] = z->step[s + k];
            z->code[t + k] = z->code[s + k];
            z->at[z->code[s + k]] = (uint16_t)(t + k);
        }
        z->top = t + room;
        a = t + n - 1;
        e = a + 1;
        z->code[e] = (uint16_t)(t + room);
    }
    uint32_t limit = z->code[e];
    z->step[e] = (uint16_t)p; z->code[e] = (uint16_t)child; z->at[child] = (uint16_t)e;
    z->step[e + 1] = END; z->code[e + 1] = (uint16_t)limit;
}

size_t th_gif_lzw_encode(th_gif_lzw *z, const uint8_t *px, size_t n, int bpp, uint8_t *out) {
    int min_bits = bpp < 2 ? 2 : bpp;
    const int clear = 1 << min_bits, eof = clear + 1;
    const uint8_t mask = (uint8_t)((1u << min_bits) - 1);
    const size_t gap = 3 + stream_bound(n) / 255;
    coder c = { out + gap, 0, 0, 0, min_bits + 1, eof + 1, 1 << (min_bits + 1) };
    reset(z, clear);
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
            uint32_t a = z->at[prefix];
            const uint16_t *next = z->step + a + 1;
            if (*next == p) {
                /* Down prefix's path as far as the pixels follow it. */
                size_t k = path_match(px + i, n - i, next, mask);
                prefix = z->code[a + k];
                i += k - 1;
                continue;
            }
            uint32_t key = (prefix << 8) | p, s = 0;
            int parent = *next != END;
            if (parent) {
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
                reset(z, clear);
            } else {
                /* The code one past p's remembered walk (or its first step) extends it. */
                uint32_t len = z->run_len[p];
                if (from == (len ? z->run[p][len - 1] : p)) z->run[p][z->run_len[p]++] = (uint16_t)c.next;
                uint32_t code = (uint32_t)c.next++;
                if (!parent) extend_path(z, from, p, code);
                else { z->table[s] = (key << 12) | code; z->at[code] = NONE; }
            }
        }
        put_code(&c, (int)prefix);
    }
    put_code(&c, eof);
    while (c.nbits > 0) { c.raw[c.pos++] = (uint8_t)c.bits; c.bits >>= 8; c.nbits -= 8; }
    /* The minimum code size, the stream in sub-blocks of 255 bytes (the last shorter, never
       empty), and the terminator. */
    size_t o = 0;
    out[o++] = (uint8_t)min_bits;
    for (size_t at = 0; at < c.pos; at += 255) {
        size_t len = c.pos - at < 255 ? c.pos - at : 255;
        out[o++] = (uint8_t)len;
        memmove(out + o, c.raw + at, len);
        o += len;
    }
    out[o++] = 0;
    return o;
}
