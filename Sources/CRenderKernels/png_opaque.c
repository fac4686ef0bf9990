#include "png_opaque.h"
#include "png_deflate.h"
#include "render_bands.h"
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

int th_png_is_opaque(const uint32_t *pixels, size_t stride, int width, int height) {
    for (int y = 0; y < height; y++) {
        const uint32_t *row = (const uint32_t *)((const uint8_t *)pixels + (size_t)y * stride);
        uint32_t all = 0xffffffffu;
        for (int x = 0; x < width; x++) all &= row[x];
        if ((all >> 24) != 0xff) return 0;
    }
    return 1;
}

enum { IDAT_BYTES = 8192 };

size_t th_png_opaque_bound(int width, int height) {
    size_t raw = (size_t)height * ((size_t)width * 3 + 1);
    size_t z = (size_t)compressBound((uLong)raw) + 64;
    return 8 + 25 + 18 + z + (z / IDAT_BYTES + 1) * 12 + 12;
}

static uint8_t *put32(uint8_t *p, uint32_t v) {
    p[0] = (uint8_t)(v >> 24); p[1] = (uint8_t)(v >> 16); p[2] = (uint8_t)(v >> 8); p[3] = (uint8_t)v;
    return p + 4;
}

/* A chunk: length, type, data (already at p + 8), CRC of type and data. */
static uint8_t *chunk(uint8_t *p, const char *type, size_t len) {
    put32(p, (uint32_t)len);
    memcpy(p + 4, type, 4);
    uLong crc = crc32(0L, p + 4, (uInt)(len + 4));
    return put32(p + 8 + len, (uint32_t)crc);
}

/* libpng chooses each row's filter (of none, sub, up, average and Paeth) by the smallest sum
   of the filtered bytes' distances from zero as signed bytes, earlier filters winning ties. Its
   early stop (a sum past the best so far cannot win) changes no choice, so all five sums are
   taken in one pass, and only the winner's row is written out.

   The pass works on the pixels as they are in memory, 4 bytes each with the alpha byte cleared,
   instead of libpng's 3: every filter is bytewise with the left neighbour one pixel back, so an
   RGB byte filters to the same value in either layout, and a cleared byte filters to 0 under
   every filter (0 on the left, above and above-left too), adding nothing to any sum. Rows sit
   in buffers with a zero pixel before them, which is what libpng's filters take for the left
   neighbours of a row's first pixel (its first-pixel rules are those of a zero neighbour). */
enum { PAD = 16 };

/* The filters' bytes from each byte x, its left neighbour a, the one above b and above-left c;
   each function is the scalar rule applied bytewise. */
#if defined(__SSE2__) && !defined(TH_PNG_SCALAR_ONLY) /* the define tests the other CPUs' path */
#define PNG_SSE2 1
#include <emmintrin.h>
typedef __m128i vec;
static inline vec vload(const uint8_t *p) { return _mm_loadu_si128((const vec *)p); }
static inline vec vsub(vec x, vec y) { return _mm_sub_epi8(x, y); }
/* floor((a + b) / 2): pavgb rounds up, so take back the odd bit. */
static inline vec vavg(vec a, vec b) {
    return _mm_sub_epi8(_mm_avg_epu8(a, b), _mm_and_si128(_mm_xor_si128(a, b), _mm_set1_epi8(1)));
}
static inline vec absdiff(vec x, vec y) { return _mm_or_si128(_mm_subs_epu8(x, y), _mm_subs_epu8(y, x)); }
static inline vec le_u8(vec x, vec y) { return _mm_cmpeq_epi8(_mm_min_epu8(x, y), x); }
static inline vec pick(vec m, vec yes, vec no) { return _mm_or_si128(_mm_and_si128(m, yes), _mm_andnot_si128(m, no)); }
/* Paeth's predictor in bytes: pa = |b - c| and pb = |a - c| fit; pc = |(b - c) + (a - c)| is
   pa + pb when the two differences have one sign and |pa - pb| when not, and saturating it at
   255 changes no comparison (pa, pb <= 255 <= pa + pb there). A zero difference gives the same
   pc either way, so which sign it counts as does not matter. */
static inline vec vpaeth(vec a, vec b, vec c) {
    vec pa = absdiff(b, c), pb = absdiff(a, c);
    vec same = _mm_cmpeq_epi8(_mm_cmpeq_epi8(_mm_max_epu8(b, c), b), _mm_cmpeq_epi8(_mm_max_epu8(a, c), a));
    vec pc = pick(same, _mm_adds_epu8(pa, pb), absdiff(pa, pb));
    vec take_a = _mm_and_si128(le_u8(pa, pb), le_u8(pa, pc));
    return pick(take_a, a, pick(le_u8(pb, pc), b, c));
}
/* The sum of each byte's distance from zero as a signed byte: min(v, -v) unsigned. */
static inline vec vcost(vec v) {
    return _mm_sad_epu8(_mm_min_epu8(v, _mm_sub_epi8(_mm_setzero_si128(), v)), _mm_setzero_si128());
}
static inline size_t vtotal(vec s) { return (size_t)_mm_cvtsi128_si32(s) + (size_t)_mm_cvtsi128_si32(_mm_srli_si128(s, 8)); }

#if defined(__x86_64__) || defined(__i386__)
/* The same five sums thirty-two bytes a step, where the CPU has AVX2 (th_vector_best_level):
   each function is its sixteen-byte twin above on both halves of the register (every
   operation is bytewise, or sums bytes within eight-byte groups), so the sums are the same. */
#define PNG_AVX2 1
#include <immintrin.h>
#define AVX2_FN __attribute__((target("avx2"))) static inline
typedef __m256i wvec;
AVX2_FN wvec wload(const uint8_t *p) { return _mm256_loadu_si256((const wvec *)p); }
AVX2_FN wvec wavg(wvec a, wvec b) {
    return _mm256_sub_epi8(_mm256_avg_epu8(a, b), _mm256_and_si256(_mm256_xor_si256(a, b), _mm256_set1_epi8(1)));
}
AVX2_FN wvec wabsdiff(wvec x, wvec y) { return _mm256_or_si256(_mm256_subs_epu8(x, y), _mm256_subs_epu8(y, x)); }
AVX2_FN wvec wle_u8(wvec x, wvec y) { return _mm256_cmpeq_epi8(_mm256_min_epu8(x, y), x); }
AVX2_FN wvec wpick(wvec m, wvec yes, wvec no) { return _mm256_or_si256(_mm256_and_si256(m, yes), _mm256_andnot_si256(m, no)); }
AVX2_FN wvec wpaeth(wvec a, wvec b, wvec c) {
    wvec pa = wabsdiff(b, c), pb = wabsdiff(a, c);
    wvec same = _mm256_cmpeq_epi8(_mm256_cmpeq_epi8(_mm256_max_epu8(b, c), b), _mm256_cmpeq_epi8(_mm256_max_epu8(a, c), a));
    wvec pc = wpick(same, _mm256_adds_epu8(pa, pb), wabsdiff(pa, pb));
    wvec take_a = _mm256_and_si256(wle_u8(pa, pb), wle_u8(pa, pc));
    return wpick(take_a, a, wpick(wle_u8(pb, pc), b, c));
}
AVX2_FN wvec wcost(wvec v) {
    return _mm256_sad_epu8(_mm256_min_epu8(v, _mm256_sub_epi8(_mm256_setzero_si256(), v)), _mm256_setzero_si256());
}
AVX2_FN size_t wtotal(wvec s) {
    return vtotal(_mm_add_epi64(_mm256_castsi256_si128(s), _mm256_extracti128_si256(s, 1)));
}

/* Bytes [0, i) of the row, thirty-two at a time, added to sums; returns i. */
__attribute__((target("avx2"))) static size_t filter_costs_avx2(const uint8_t *r, const uint8_t *u, size_t n, size_t sums[5]) {
    size_t i = 0;
    wvec s0 = _mm256_setzero_si256(), s1 = s0, s2 = s0, s3 = s0, s4 = s0;
    for (; i + 32 <= n; i += 32) {
        wvec x = wload(r + i), a = wload(r + i - 4), b = wload(u + i), c = wload(u + i - 4);
        s0 = _mm256_add_epi64(s0, wcost(x));
        s1 = _mm256_add_epi64(s1, wcost(_mm256_sub_epi8(x, a)));
        s2 = _mm256_add_epi64(s2, wcost(_mm256_sub_epi8(x, b)));
        s3 = _mm256_add_epi64(s3, wcost(_mm256_sub_epi8(x, wavg(a, b))));
        s4 = _mm256_add_epi64(s4, wcost(_mm256_sub_epi8(x, wpaeth(a, b, c))));
    }
    sums[0] += wtotal(s0); sums[1] += wtotal(s1); sums[2] += wtotal(s2); sums[3] += wtotal(s3); sums[4] += wtotal(s4);
    return i;
}
#endif
#endif

static inline uint8_t paeth(int a, int b, int c) {
    int p = b - c, pc = a - c;
    int pa = p < 0 ? -p : p, pb = pc < 0 ? -pc : pc;
    pc = (p + pc) < 0 ? -(p + pc) : p + pc;
    return (uint8_t)((pa <= pb && pa <= pc) ? a : (pb <= pc) ? b : c);
}
static inline size_t cost(uint8_t v) { return v < 128 ? v : 256u - v; }
/* The left neighbours are read as (r + i)[-4], not r[i - 4]: for the first pixel i - 4 would
   wrap around as a size_t; the byte itself is in the zero padding before the row. */
static inline uint8_t filter_byte(int f, const uint8_t *r, const uint8_t *u, size_t i) {
    const uint8_t a = (r + i)[-4], c = (u + i)[-4];
    switch (f) {
    case 1: return (uint8_t)(r[i] - a);
    case 2: return (uint8_t)(r[i] - u[i]);
    case 3: return (uint8_t)(r[i] - (a + u[i]) / 2);
    case 4: return (uint8_t)(r[i] - paeth(a, u[i], c));
    default: return r[i];
    }
}

/* The five filters' sums for the row r (n bytes, 4 a pixel) under the row u. */
static void filter_costs(const uint8_t *r, const uint8_t *u, size_t n, size_t sums[5], int wide) {
    size_t i = 0;
    for (int f = 0; f < 5; f++) sums[f] = 0;
#ifdef PNG_AVX2
    if (wide) i = filter_costs_avx2(r, u, n, sums);
#else
    (void)wide;
#endif
#ifdef PNG_SSE2
    vec s0 = _mm_setzero_si128(), s1 = s0, s2 = s0, s3 = s0, s4 = s0;
    for (; i + 16 <= n; i += 16) {
        vec x = vload(r + i), a = vload(r + i - 4), b = vload(u + i), c = vload(u + i - 4);
        s0 = _mm_add_epi64(s0, vcost(x));
        s1 = _mm_add_epi64(s1, vcost(vsub(x, a)));
        s2 = _mm_add_epi64(s2, vcost(vsub(x, b)));
        s3 = _mm_add_epi64(s3, vcost(vsub(x, vavg(a, b))));
        s4 = _mm_add_epi64(s4, vcost(vsub(x, vpaeth(a, b, c))));
    }
    sums[0] += vtotal(s0); sums[1] += vtotal(s1); sums[2] += vtotal(s2); sums[3] += vtotal(s3); sums[4] += vtotal(s4);
#endif
    for (; i < n; i++)
        for (int f = 0; f < 5; f++) sums[f] += cost(filter_byte(f, r, u, i));
}

/* Filter f of row r under u into out[1 ..] as libpng's 3-byte pixels (R, G, B), after the
   filter's type byte. `tmp` holds n + 16 bytes. */
static void filter_row(int f, const uint8_t *r, const uint8_t *u, size_t n, uint8_t *tmp, uint8_t *out) {
    size_t i = 0;
#ifdef PNG_SSE2
    for (; i + 16 <= n; i += 16) {
        vec x = vload(r + i), a = vload(r + i - 4), b = vload(u + i), c = vload(u + i - 4), v = x;
        switch (f) {
        case 1: v = vsub(x, a); break;
        case 2: v = vsub(x, b); break;
        case 3: v = vsub(x, vavg(a, b)); break;
        case 4: v = vsub(x, vpaeth(a, b, c)); break;
        default: break;
        }
        _mm_storeu_si128((vec *)(tmp + i), v);
    }
#endif
    for (; i < n; i++) tmp[i] = filter_byte(f, r, u, i);
    out[0] = (uint8_t)f;
    uint8_t *o = out + 1;
    for (size_t k = 0; k < n; k += 4, o += 3) { o[0] = tmp[k + 2]; o[1] = tmp[k + 1]; o[2] = tmp[k]; }
}

/* The Adler-32 of n bytes continued from `adler`, as zlib's adler32() gives it. zlib computes
   it a byte at a time inside deflate (about 1% of the gallery's CPU samples, for the contact
   sheets); here sixteen bytes are summed at once. Over a block of 16k bytes from (s1, s2):
   s1 gains the bytes' sum, and s2 gains 16k s1 plus, for each 16-byte chunk c, 16 times the sum
   of the chunks before it and the sum of its bytes weighted 16 down to 1. Blocks stay short
   enough (NMAX, zlib's bound) that no 32-bit lane overflows before the sums are reduced. */
static uint32_t adler32_of(uint32_t adler, const uint8_t *p, size_t n) {
    enum { BASE = 65521, NMAX = 5552 };
    uint32_t s1 = adler & 0xffff, s2 = adler >> 16;
#ifdef PNG_SSE2
    const vec zero = _mm_setzero_si128();
    const vec w_lo = _mm_setr_epi16(16, 15, 14, 13, 12, 11, 10, 9), w_hi = _mm_setr_epi16(8, 7, 6, 5, 4, 3, 2, 1);
    while (n >= 16) {
        size_t k = (n < NMAX ? n : NMAX) / 16;
        n -= k * 16;
        vec vs1 = zero, before = zero, vs2 = zero;
        uint64_t prior = (uint64_t)s1 * 16 * k;
        for (size_t c = 0; c < k; c++, p += 16) {
            vec v = vload(p);
            before = _mm_add_epi32(before, vs1);
            vs1 = _mm_add_epi32(vs1, _mm_sad_epu8(v, zero));
            vec lo = _mm_unpacklo_epi8(v, zero), hi = _mm_unpackhi_epi8(v, zero);
            vs2 = _mm_add_epi32(vs2, _mm_add_epi32(_mm_madd_epi16(lo, w_lo), _mm_madd_epi16(hi, w_hi)));
        }
        uint32_t l1[4], lb[4], l2[4];
        _mm_storeu_si128((vec *)l1, vs1); _mm_storeu_si128((vec *)lb, before); _mm_storeu_si128((vec *)l2, vs2);
        uint64_t sum1 = (uint64_t)l1[0] + l1[2], sumb = (uint64_t)lb[0] + lb[2];
        uint64_t sum2 = (uint64_t)l2[0] + l2[1] + l2[2] + l2[3];
        s2 = (uint32_t)(((uint64_t)s2 + prior + 16 * sumb + sum2) % BASE);
        s1 = (uint32_t)(((uint64_t)s1 + sum1) % BASE);
    }
#endif
    while (n > 0) {
        size_t k = n < NMAX ? n : NMAX;
        n -= k;
        for (; k; k--) { s1 += *p++; s2 += s1; }
        s1 %= BASE; s2 %= BASE;
    }
    return s2 << 16 | s1;
}

size_t th_png_deflate(const uint8_t *data, size_t n, size_t piece, int path, uint8_t *out, size_t cap) {
    if (piece == 0) piece = n ? n : 1;
    if (path == 1) {
        z_stream zs;
        memset(&zs, 0, sizeof zs);
        if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_FILTERED) != Z_OK) return 0;
        zs.next_out = out;
        zs.avail_out = (uInt)cap;
        int ok = 1;
        for (size_t at = 0; at < n && ok; at += piece) {
            zs.next_in = (Bytef *)(uintptr_t)(data + at);
            zs.avail_in = (uInt)(n - at < piece ? n - at : piece);
            if (deflate(&zs, Z_NO_FLUSH) != Z_OK || zs.avail_in != 0) ok = 0;
        }
        if (ok && deflate(&zs, Z_FINISH) != Z_STREAM_END) ok = 0;
        size_t written = ok ? zs.total_out : 0;
        deflateEnd(&zs);
        return written;
    }
    if (path != 0) return 0;
    th_deflate *d = th_deflate_create(out, cap);
    if (!d) return 0;
    int ok = 1;
    for (size_t at = 0; at < n && ok; at += piece) ok = th_deflate_feed(d, data + at, n - at < piece ? n - at : piece);
    size_t written = ok ? th_deflate_finish(d) : 0;
    th_deflate_destroy(d);
    return written;
}

size_t th_png_encode_opaque(const uint32_t *pixels, size_t stride, int width, int height, uint8_t *out) {
    const size_t n = (size_t)width * 3;
    /* libpng narrows the window (and rewrites the zlib header) for images of at most 16 KiB. */
    if (width <= 0 || height <= 0 || (size_t)height * (n + 1) <= 16384) return 0;
    const size_t n4 = (size_t)width * 4;
    /* Two rows of 4-byte pixels, each after PAD zero bytes (the left neighbours of its first
       pixel); the row above the first starts as zeros, as libpng's. */
    uint8_t *rows = calloc(2 * (PAD + n4), 1), *tmp = malloc(n4 + 16), *chosen = malloc(n + 4);
    uint8_t *zout = malloc(th_png_opaque_bound(width, height));
    if (!rows || !tmp || !chosen || !zout) { free(rows); free(tmp); free(chosen); free(zout); return 0; }
    /* Raw deflate (png_deflate.c: zlib's choices at libpng's settings), with the zlib stream's
       header and Adler-32 trailer written here: the compressed data is the same as zlib's own
       stream carries (the window, level, memory level and strategy decide it; the wrapper only
       frames it), and the header is the one zlib writes for a 32 KiB window at level 6. */
    th_deflate *zs = th_deflate_create(zout + 2, th_png_opaque_bound(width, height) - 2 - 4);
    if (!zs) { free(rows); free(tmp); free(chosen); free(zout); return 0; }
    zout[0] = 0x78; zout[1] = 0x9c;
    uint32_t adler = 1;
    uint8_t *prev = rows + PAD, *cur = rows + 2 * PAD + n4;
    /* libpng drops the filters that would read a missing neighbour: with one column, sub,
       average and Paeth; with one row, up, average and Paeth. */
    unsigned allowed = 0x1f;
    if (width == 1) allowed &= ~(1u << 1 | 1u << 3 | 1u << 4);
    if (height == 1) allowed &= ~(1u << 2 | 1u << 3 | 1u << 4);
    int ok = 1;
    const int wide = th_vector_best_level() >= 2;
    for (int y = 0; y < height && ok; y++) {
        const uint32_t *src = (const uint32_t *)((const uint8_t *)pixels + (size_t)y * stride);
        uint32_t *c32 = (uint32_t *)(void *)cur;
        for (int x = 0; x < width; x++) c32[x] = src[x] & 0x00ffffffu;
        size_t sums[5];
        filter_costs(cur, prev, n4, sums, wide);
        int f = 0;
        for (int k = 1; k < 5; k++) if ((allowed >> k & 1) && sums[k] < sums[f]) f = k;
        filter_row(f, cur, prev, n4, tmp, chosen);
        adler = adler32_of(adler, chosen, n + 1);
        if (!th_deflate_feed(zs, chosen, n + 1)) ok = 0;
        uint8_t *t = prev; prev = cur; cur = t;
    }
    size_t coded = ok ? th_deflate_finish(zs) : 0;
    if (coded == 0) ok = 0;
    size_t zlen = 2 + coded;
    th_deflate_destroy(zs);
    if (ok) { put32(zout + zlen, adler); zlen += 4; }
    size_t written = 0;
    if (ok) {
        static const uint8_t signature[8] = {137, 80, 78, 71, 13, 10, 26, 10};
        uint8_t *p = out;
        memcpy(p, signature, 8);
        p += 8;
        uint8_t *d = p + 8;
        d = put32(d, (uint32_t)width);
        d = put32(d, (uint32_t)height);
        d[0] = 8; d[1] = 2; d[2] = 0; d[3] = 0; d[4] = 0; /* 8-bit RGB, deflate, adaptive filters, no interlace */
        p = chunk(p, "IHDR", 13);
        static const uint8_t white[6] = {0, 255, 0, 255, 0, 255};
        memcpy(p + 8, white, 6);
        p = chunk(p, "bKGD", 6);
        for (size_t off = 0; off < zlen; off += IDAT_BYTES) {
            size_t len = zlen - off < IDAT_BYTES ? zlen - off : IDAT_BYTES;
            memcpy(p + 8, zout + off, len);
            p = chunk(p, "IDAT", len);
        }
        p = chunk(p, "IEND", 0);
        written = (size_t)(p - out);
    }
    free(rows); free(tmp); free(chosen); free(zout);
    return written;
}
