#include "png_deflate_state.h"
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
   choice (which match, when a block ends, how it is coded) is the same, and so are the bytes:
   PNGDeflateTests compares the two on inputs of every kind, PNGWriterTests the PNGs with
   cairo's. The blocks and their codes are png_deflate_trees.c's.

   What differs is how fast the steps go on a contact sheet, whose filtered rows are 95% long
   runs of zero bytes (a row like the one above it filters to zeros): zlib hashes every byte of
   a match into its chains one at a time, each waiting for the last, and compares matches two
   bytes a step. Here the bytes of a match that lie in a run of one value, which all hash alike,
   are chained in one sweep (each to the one before it, which is what inserting them one by one
   leaves), and candidates are checked two bytes at once and measured eight at once. */

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
        uint32_t e = a;   /* the run's last position whose three bytes are v */
        if (w[a + 1] == v && w[a + 2] == v) e += same(w + a + 3, b - a, v);
        if (e == a) { insert(d, a); a++; continue; }
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
            int flush = th_deflate_tally_dist(d, d->strstart - 1 - d->prev_match, (unsigned)(d->prev_length - MIN_MATCH));
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
            if (flush) th_deflate_flush_block(d, 0);
        } else if (d->match_available) {
            if (th_deflate_tally_lit(d, d->window[d->strstart - 1])) th_deflate_flush_block(d, 0);
            d->strstart++;
            d->lookahead--;
        } else {
            d->match_available = 1;
            d->strstart++;
            d->lookahead--;
        }
    }
    if (d->match_available) {
        th_deflate_tally_lit(d, d->window[d->strstart - 1]);
        d->match_available = 0;
    }
    th_deflate_flush_block(d, 1);
}

th_deflate *th_deflate_create(uint8_t *out, size_t cap) {
    th_deflate *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    th_deflate_init_tables(d);
    th_deflate_init_block(d);
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
    th_deflate_align(d);
    return d->failed ? 0 : d->pos;
}
