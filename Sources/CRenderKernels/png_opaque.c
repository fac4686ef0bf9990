#include "png_opaque.h"
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

/* libpng's measure of a filtered row: each byte's distance from zero as a signed byte. */
static inline size_t cost(unsigned v) { return v < 128 ? v : 256 - v; }

static size_t sum_none(const uint8_t *r, size_t n) {
    size_t s = 0;
    for (size_t i = 0; i < n; i++) s += cost(r[i]);
    return s;
}

/* Each filter writes its row to out[1 ..] and returns its cost; a cost past `best` may stop
   early (it cannot win), as libpng's does. */
static size_t filter_sub(const uint8_t *r, size_t n, int bpp, uint8_t *out, size_t best) {
    size_t s = 0, i = 0;
    out[0] = 1;
    for (; i < (size_t)bpp; i++) { out[1 + i] = r[i]; s += cost(r[i]); }
    for (; i < n; i++) {
        uint8_t v = (uint8_t)(r[i] - r[i - bpp]);
        out[1 + i] = v;
        s += cost(v);
        if (s > best) break;
    }
    return s;
}

static size_t filter_up(const uint8_t *r, const uint8_t *u, size_t n, uint8_t *out, size_t best) {
    size_t s = 0;
    out[0] = 2;
    for (size_t i = 0; i < n; i++) {
        uint8_t v = (uint8_t)(r[i] - u[i]);
        out[1 + i] = v;
        s += cost(v);
        if (s > best) break;
    }
    return s;
}

static size_t filter_avg(const uint8_t *r, const uint8_t *u, size_t n, int bpp, uint8_t *out, size_t best) {
    size_t s = 0, i = 0;
    out[0] = 3;
    for (; i < (size_t)bpp; i++) { uint8_t v = (uint8_t)(r[i] - u[i] / 2); out[1 + i] = v; s += cost(v); }
    for (; i < n; i++) {
        uint8_t v = (uint8_t)(r[i] - ((int)u[i] + (int)r[i - bpp]) / 2);
        out[1 + i] = v;
        s += cost(v);
        if (s > best) break;
    }
    return s;
}

static size_t filter_paeth(const uint8_t *r, const uint8_t *u, size_t n, int bpp, uint8_t *out, size_t best) {
    size_t s = 0, i = 0;
    out[0] = 4;
    for (; i < (size_t)bpp; i++) { uint8_t v = (uint8_t)(r[i] - u[i]); out[1 + i] = v; s += cost(v); }
    for (; i < n; i++) {
        int a = r[i - bpp], b = u[i], c = u[i - bpp];
        int p = b - c, pc = a - c;
        int pa = p < 0 ? -p : p, pb = pc < 0 ? -pc : pc;
        pc = (p + pc) < 0 ? -(p + pc) : p + pc;
        int pred = (pa <= pb && pa <= pc) ? a : (pb <= pc) ? b : c;
        uint8_t v = (uint8_t)(r[i] - pred);
        out[1 + i] = v;
        s += cost(v);
        if (s > best) break;
    }
    return s;
}

size_t th_png_encode_opaque(const uint32_t *pixels, size_t stride, int width, int height, uint8_t *out) {
    const size_t n = (size_t)width * 3;
    /* libpng narrows the window (and rewrites the zlib header) for images of at most 16 KiB. */
    if (width <= 0 || height <= 0 || (size_t)height * (n + 1) <= 16384) return 0;
    const int bpp = 3;
    uint8_t *rows = calloc(2 * n, 1), *cand = malloc(2 * (n + 1)), *none = malloc(n + 1);
    uint8_t *zout = malloc(th_png_opaque_bound(width, height));
    if (!rows || !cand || !none || !zout) { free(rows); free(cand); free(none); free(zout); return 0; }
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15, 8, Z_FILTERED) != Z_OK) {
        free(rows); free(cand); free(none); free(zout); return 0;
    }
    zs.next_out = zout;
    zs.avail_out = (uInt)th_png_opaque_bound(width, height);
    uint8_t *prev = rows, *cur = rows + n; /* the row above starts as zeros, as libpng's */
    int ok = 1;
    for (int y = 0; y < height && ok; y++) {
        const uint32_t *src = (const uint32_t *)((const uint8_t *)pixels + (size_t)y * stride);
        for (int x = 0; x < width; x++) {
            uint32_t p = src[x];
            cur[3 * x] = (uint8_t)(p >> 16); cur[3 * x + 1] = (uint8_t)(p >> 8); cur[3 * x + 2] = (uint8_t)p;
        }
        none[0] = 0;
        memcpy(none + 1, cur, n);
        size_t best = sum_none(cur, n);
        const uint8_t *chosen = none;
        uint8_t *try_row = cand, *spare = cand + n + 1;
        size_t s;
#define CONSIDER(call) \
        s = call; \
        if (s < best) { best = s; chosen = try_row; uint8_t *t = try_row; try_row = spare; spare = t; }
        CONSIDER(filter_sub(cur, n, bpp, try_row, best))
        CONSIDER(filter_up(cur, prev, n, try_row, best))
        CONSIDER(filter_avg(cur, prev, n, bpp, try_row, best))
        CONSIDER(filter_paeth(cur, prev, n, bpp, try_row, best))
#undef CONSIDER
        zs.next_in = (Bytef *)chosen;
        zs.avail_in = (uInt)(n + 1);
        if (deflate(&zs, Z_NO_FLUSH) != Z_OK || zs.avail_in != 0) ok = 0;
        uint8_t *t = prev; prev = cur; cur = t;
    }
    if (ok && deflate(&zs, Z_FINISH) != Z_STREAM_END) ok = 0;
    size_t zlen = zs.total_out;
    deflateEnd(&zs);
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
    free(rows); free(cand); free(none); free(zout);
    return written;
}
