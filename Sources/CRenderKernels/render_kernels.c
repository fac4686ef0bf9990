#include "render_kernels.h"
#include "render_bands.h"
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "pixel_math.h"
#include "span_levels.h"


#if defined(__SSE2__)
/* Bilinear sample of four texels with 8-bit weights, scaled by a (0..256), OVER *d; 16-bit
   lanes, one pixel per call (x86-64 always has SSE2): span_over_px(bilinear_px(...), a, *d, 0)'s
   bytes. */
static inline void bilinear_over_sse2(uint32_t tl, uint32_t tr, uint32_t bl, uint32_t br, uint32_t fx, uint32_t fy,
                                      uint32_t a, uint32_t *d) {
    const __m128i zero = _mm_setzero_si128();
    __m128i top = _mm_unpacklo_epi8(_mm_set_epi32(0, 0, (int)tr, (int)tl), zero);
    __m128i bot = _mm_unpacklo_epi8(_mm_set_epi32(0, 0, (int)br, (int)bl), zero);
    __m128i wy = _mm_set1_epi16((short)fy), wy1 = _mm_set1_epi16((short)(256 - fy));
    __m128i v = _mm_srli_epi16(_mm_add_epi16(_mm_mullo_epi16(top, wy1), _mm_mullo_epi16(bot, wy)), 8);
    __m128i wx = _mm_set_epi16((short)fx, (short)fx, (short)fx, (short)fx,
                               (short)(256 - fx), (short)(256 - fx), (short)(256 - fx), (short)(256 - fx));
    __m128i h = _mm_mullo_epi16(v, wx);
    __m128i s = _mm_srli_epi16(_mm_add_epi16(h, _mm_srli_si128(h, 8)), 8);
    if (a < 256) s = _mm_srli_epi16(_mm_mullo_epi16(s, _mm_set1_epi16((short)a)), 8);
    uint32_t sa = (uint32_t)_mm_extract_epi16(s, 3);
    if (sa == 0 && _mm_movemask_epi8(_mm_cmpeq_epi16(s, zero)) == 0xffff) return;
    if (sa < 255) {
        uint32_t inv = 255 - sa;
        inv += inv >> 7;
        __m128i dv = _mm_unpacklo_epi8(_mm_cvtsi32_si128((int)*d), zero);
        dv = _mm_srli_epi16(_mm_mullo_epi16(dv, _mm_set1_epi16((short)inv)), 8);
        s = _mm_add_epi16(s, dv);
    }
    *d = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(s, zero));
}
#endif

/* Source position of a destination pixel centre, in 16.16 texel units shifted so that the
   integer part is the left/top texel of the bilinear footprint. Returns 0 when W <= 0. */
static inline int src_pos(const double m[9], double X, double ur, double vr, double wr, int64_t *u, int64_t *v) {
    const double W = m[6] * X + wr;
    if (!(W > 0)) return 0;
    const double iw = 1.0 / W;
    double uu = ((m[0] * X + ur) * iw - 0.5) * 65536.0, vv = ((m[3] * X + vr) * iw - 0.5) * 65536.0;
    /* Clamp far-away points (they are outside the image anyway) to keep the integers sane. */
    const double lim = 4.0e13;
    if (uu > lim) uu = lim;
    if (uu < -lim) uu = -lim;
    if (vv > lim) vv = lim;
    if (vv < -lim) vv = -lim;
    *u = (int64_t)uu; *v = (int64_t)vv;
    return 1;
}

/* src_pos's 16.16 conversion of one coordinate, clamped (the same operations in the same order). */
static inline int64_t fixed_coord(double t, double iw) {
    double q = (t * iw - 0.5) * 65536.0;
    const double lim = 4.0e13;
    if (q > lim) q = lim;
    if (q < -lim) q = -lim;
    return (int64_t)q;
}

/* Maps that divide by the same W along a whole row or a whole column. A turn about the
   vertical axis (a flap, a page, a door) has m[7] == 0: W, and with m[1] == 0 also U, are the
   same in every row at a given column, so 1 / W and u are worked out once per column. A turn
   about the horizontal axis has m[6] == 0: W is the same along a row, one division per row.
   The values are bit for bit those src_pos computes (Y > 0 on every row, so m[7] * Y and
   m[1] * Y are the same signed zero in each): only the repeated divisions go. */
typedef struct {
    int kind;                /* 0: src_pos, 1: one W per row, 2: one W (and u) per column */
    int x0;                  /* first column of the tables */
    const double *col_iw;    /* kind 2: 1 / W at column x0 + i */
    const int64_t *col_u;    /* kind 2: u at column x0 + i */
    const unsigned char *col_ok; /* kind 2: W > 0 at column x0 + i */
} pos_plan;

typedef struct {
    const double *m;
    const pos_plan *plan;
    double ur, vr, wr;
    double row_iw;           /* kind 1: 1 / W of this row */
    int row_ok;              /* kind 1: W > 0 in this row */
} row_pos;

static inline row_pos row_start(const double m[9], const pos_plan *plan, double Y) {
    row_pos r;
    r.m = m; r.plan = plan;
    r.ur = m[1] * Y + m[2]; r.vr = m[4] * Y + m[5]; r.wr = m[7] * Y + m[8];
    /* W = m[6] * X + wr with m[6] a zero and X > 0 is wr itself, or a zero when wr is. */
    r.row_ok = plan->kind == 1 && r.wr > 0;
    r.row_iw = r.row_ok ? 1.0 / r.wr : 0;
    return r;
}

/* src_pos at the centre of pixel column px. */
static inline __attribute__((always_inline)) int pos_at(const row_pos *r, int px, int64_t *u, int64_t *v) {
    const double X = px + 0.5;
    switch (r->plan->kind) {
    case 1: {
        if (!r->row_ok) return 0;
        *u = fixed_coord(r->m[0] * X + r->ur, r->row_iw);
        *v = fixed_coord(r->m[3] * X + r->vr, r->row_iw);
        return 1;
    }
    case 2: {
        if (!r->plan->col_ok[px - r->plan->x0]) return 0;
        const double iw = r->plan->col_iw[px - r->plan->x0];
        *u = r->plan->col_u[px - r->plan->x0];
        *v = fixed_coord(r->m[3] * X + r->vr, iw);
        return 1;
    }
    default:
        return src_pos(r->m, X, r->ur, r->vr, r->wr, u, v);
    }
}

/* One destination pixel of the projective loop at source position (u, v) (16.16, footprint
   origin), any position: out-of-image footprints are skipped, edge texels read as transparent. */
static inline void projective_px(const uint32_t *src, size_t src_stride, int sw, int sh, int64_t u, int64_t v,
                                 uint32_t alpha, const uint8_t *mrow, int mi, uint32_t *d, int level) {
    const int64_t ui = u >> 16, vi = v >> 16;
    if (ui < -1 || vi < -1 || ui >= sw || vi >= sh) return;
    uint32_t a = alpha;
    if (mrow) {
        uint32_t mv = mrow[mi];
        if (mv == 0) return;
        a = (a * (mv + (mv >> 7))) >> 8;
    }
    const uint32_t fx = (uint32_t)(u >> 8) & 0xff, fy = (uint32_t)(v >> 8) & 0xff;
    uint32_t tl, tr, bl, br;
    if (ui >= 0 && vi >= 0 && ui + 1 < sw && vi + 1 < sh) {
        const uint32_t *p = (const uint32_t *)((const uint8_t *)src + (size_t)vi * src_stride) + ui;
        const uint32_t *q = (const uint32_t *)((const uint8_t *)p + src_stride);
        tl = p[0]; tr = p[1]; bl = q[0]; br = q[1];
        /* Inside a flat opaque area (most of a UI layer) the bilinear blend of four equal texels
           is that texel, and at full alpha it covers the pixel: the same result as the blend
           below, without it. */
        if (a >= 256 && tl == tr && tl == bl && tl == br && (tl >> 24) == 255) { *d = tl; return; }
    } else {
        tl = texel(src, src_stride, sw, sh, (int)ui, (int)vi);
        tr = texel(src, src_stride, sw, sh, (int)ui + 1, (int)vi);
        bl = texel(src, src_stride, sw, sh, (int)ui, (int)vi + 1);
        br = texel(src, src_stride, sw, sh, (int)ui + 1, (int)vi + 1);
    }
#if defined(__SSE2__)
    if (level != 0) { bilinear_over_sse2(tl, tr, bl, br, fx, fy, a, d); return; }
#else
    (void)level;
#endif
    *d = span_over_px(bilinear_px(tl, tr, bl, br, fx, fy), a, *d, 0);
}

/* Whether texels [u0, u1] x [v0, v1] (inclusive, inside the image) are all one colour with
   alpha 255, that colour in *c. */
static inline int uniform_opaque(const uint32_t *src, size_t stride, int u0, int u1, int v0, int v1, uint32_t *c) {
    const uint32_t first = *((const uint32_t *)((const uint8_t *)src + (size_t)v0 * stride) + u0);
    if ((first >> 24) != 255) return 0;
#if defined(__SSE2__)
    const __m128i want = _mm_set1_epi32((int)first);
#endif
    for (int v = v0; v <= v1; v++) {
        const uint32_t *row = (const uint32_t *)((const uint8_t *)src + (size_t)v * stride);
        int u = u0;
#if defined(__SSE2__)
        for (; u + 3 <= u1; u += 4) {
            const __m128i t = _mm_loadu_si128((const __m128i *)(row + u));
            if (_mm_movemask_epi8(_mm_cmpeq_epi32(t, want)) != 0xffff) return 0;
        }
#endif
        for (; u <= u1; u++)
            if (row[u] != first) return 0;
    }
    *c = first;
    return 1;
}

static inline void fill_px(uint32_t *d, int n, uint32_t c) {
    int k = 0;
#if defined(__SSE2__)
    const __m128i v = _mm_set1_epi32((int)c);
    for (; k + 4 <= n; k += 4) _mm_storeu_si128((__m128i *)(d + k), v);
#endif
    for (; k < n; k++) d[k] = c;
}

/* a / n (C's truncating division) for the span lengths the projective loop divides by, n in
   1 .. 15, without a divide instruction (clang folds a switch of constant divisions back into
   one). |a| * ceil(2^64 / n) / 2^64 exceeds |a| / n by less than |a| / 2^64, under 1 / n while
   |a| < 2^52, so its integer part is the quotient; positions are clamped to 4e13 (2^46), so the
   products the loop divides stay below 2^50. Larger values take the divide. */
static inline int64_t div_span(int64_t a, int n) {
    static const uint64_t ceil_recip[16] = {
        0, 0, 0x8000000000000000ull, 0x5555555555555556ull, 0x4000000000000000ull, 0x3333333333333334ull,
        0x2aaaaaaaaaaaaaabull, 0x2492492492492493ull, 0x2000000000000000ull, 0x1c71c71c71c71c72ull,
        0x199999999999999aull, 0x1745d1745d1745d2ull, 0x1555555555555556ull, 0x13b13b13b13b13b2ull,
        0x124924924924924aull, 0x1111111111111112ull};
    if (n == 1) return a;
    const uint64_t mag = a < 0 ? (uint64_t)0 - (uint64_t)a : (uint64_t)a;
    if (n < 2 || n > 15 || mag >= ((uint64_t)1 << 52)) return a / n;
    const uint64_t q = (uint64_t)(((unsigned __int128)mag * ceil_recip[n]) >> 64);
    return a < 0 ? -(int64_t)q : (int64_t)q;
}

/* Rows [ya, yb) of th_composite_projective_bilinear (rows are independent of each other). */
static void projective_rows(const uint32_t *src, size_t src_stride, int sw, int sh,
                            uint32_t *dst, size_t dst_stride, int x0, int y0, int x1, int ya, int yb,
                            const double m[9], const pos_plan *plan, const uint8_t *mask, size_t mask_stride, uint32_t alpha) {
    /* Exact positions every SPAN pixels (fewer where the map bends: the midpoint of a span is
       checked against the exact map and the span halved until the linear step is within
       1/32 texel), linear 16.16 steps in between: perspective-correct spans. */
    enum { SPAN = 16 };
    const int64_t tol = 65536 / 32;
    /* Positions whose whole footprint is inside the image (texels 0 .. size - 2 each way). */
    const int64_t umax = ((int64_t)(sw - 1) << 16) - 1, vmax = ((int64_t)(sh - 1) << 16) - 1;
    /* The rows are walked in strips of columns: under perspective a row crosses many source
       rows, and going down one strip at a time the next row reads the texels just below the
       last, still in the cache. Each row still runs its own spans from x0 in the same order
       (a strip resumes where the row's last span ended), so the split changes no byte. */
    enum { STRIP = 128 };
    const int level = th_span_level_now();
    int *resume = malloc(sizeof(int) * (size_t)(yb > ya ? yb - ya : 1));
    const int strip = resume ? STRIP : (x1 - x0);
    for (int sx = x0; sx < x1; sx += strip) {
    const int sx1 = x1 - sx > strip ? sx + strip : x1;
    for (int y = ya; y < yb; y++) {
        uint32_t *drow = (uint32_t *)((uint8_t *)dst + (size_t)y * dst_stride);
        const uint8_t *mrow = mask ? mask + (size_t)(y - y0) * mask_stride : 0;
        const row_pos rp = row_start(m, plan, y + 0.5);
        int x = (sx == x0 || !resume) ? x0 : resume[y - ya];
        while (x < sx1) {
            int len = x1 - x < SPAN ? x1 - x : SPAN;
            int64_t ua, va, ub, vb;
            if (!pos_at(&rp, x, &ua, &va)) { x++; continue; }
            for (;;) {
                if (len == 1) { ub = ua; vb = va; break; }
                if (!pos_at(&rp, x + len - 1, &ub, &vb)) { len = len / 2; continue; }
                int64_t um, vm;
                const int half = (len - 1) / 2; /* pixel index of the (near-)midpoint */
                if (!pos_at(&rp, x + half, &um, &vm)) { len = len / 2; continue; }
                const int64_t el = ua + div_span((ub - ua) * half, len - 1) - um;
                const int64_t ev = va + div_span((vb - va) * half, len - 1) - vm;
                if ((el < 0 ? -el : el) <= tol && (ev < 0 ? -ev : ev) <= tol) break;
                len = len / 2;
            }
            const int64_t du = len > 1 ? div_span(ub - ua, len - 1) : 0, dv = len > 1 ? div_span(vb - va, len - 1) : 0;
            /* A span whose first and last footprints are both wholly inside the image is
               inside all along (u and v are linear in k here): those pixels need no bounds
               checks, and at full alpha without a mask a flat opaque footprint is a plain
               store. Any other span takes the per-pixel tests. */
            int64_t u = ua, v = va;
            const int64_t ul = ua + (len - 1) * du, vl = va + (len - 1) * dv;
            if (!mrow && alpha >= 256 && sw >= 2 && sh >= 2 && ua >= 0 && ul >= 0 && va >= 0 && vl >= 0
                && ua <= umax && ul <= umax && va <= vmax && vl <= vmax) {
                uint32_t *d = drow + x;
                /* The texels this span's pixels a few rows down will read: fetched now, they are
                   in the cache when those rows get here (the strip walks straight down). */
                {
                    const int64_t ra = (va >> 16) + 4 < sh ? (va >> 16) + 4 : sh - 1, rb = (vl >> 16) + 4 < sh ? (vl >> 16) + 4 : sh - 1;
                    __builtin_prefetch((const uint8_t *)src + (size_t)ra * src_stride + (size_t)(ua >> 16) * 4);
                    __builtin_prefetch((const uint8_t *)src + (size_t)rb * src_stride + (size_t)(ul >> 16) * 4);
                }
                /* Every footprint of the span lies in the texel rectangle its two ends span
                   (u and v are linear in k). When that rectangle is one opaque colour, each
                   pixel below would store it: fill the span instead of reading 4 texels each. */
                uint32_t flat;
                const int tu0 = (int)((ua < ul ? ua : ul) >> 16), tu1 = (int)((ua < ul ? ul : ua) >> 16) + 1;
                const int tv0 = (int)((va < vl ? va : vl) >> 16), tv1 = (int)((va < vl ? vl : va) >> 16) + 1;
#if defined(__x86_64__) || defined(__i386__)
                if (level == 2) {
                    if (th_uniform_opaque_avx2(src, src_stride, tu0, tu1, tv0, tv1, &flat)) {
                        th_fill_avx2(d, len, flat);
                        x += len;
                        continue;
                    }
                } else
#endif
                if (uniform_opaque(src, src_stride, tu0, tu1, tv0, tv1, &flat)) {
                    fill_px(d, len, flat);
                    x += len;
                    continue;
                }
                int k = 0;
#if defined(__x86_64__) || defined(__i386__)
                if (level == 2) {
                    k = th_projective_interior_avx2(src, src_stride, d, len, ua, va, du, dv);
                    u = ua + k * du; v = va + k * dv;
                }
#endif
                for (; k < len; k++, u += du, v += dv) {
                    const uint32_t *p = (const uint32_t *)((const uint8_t *)src + (size_t)(v >> 16) * src_stride) + (u >> 16);
                    uint64_t top, bot;
                    memcpy(&top, p, 8);
                    memcpy(&bot, (const uint8_t *)p + src_stride, 8);
                    const uint32_t tl = (uint32_t)top;
                    if (top == bot && (uint32_t)(top >> 32) == tl && (tl >> 24) == 255) { d[k] = tl; continue; }
                    const uint32_t fx = (uint32_t)(u >> 8) & 0xff, fy = (uint32_t)(v >> 8) & 0xff;
#if defined(__SSE2__)
                    if (level != 0) {
                        bilinear_over_sse2(tl, (uint32_t)(top >> 32), (uint32_t)bot, (uint32_t)(bot >> 32), fx, fy, alpha, &d[k]);
                        continue;
                    }
#endif
                    d[k] = span_over_px(bilinear_px(tl, (uint32_t)(top >> 32), (uint32_t)bot, (uint32_t)(bot >> 32), fx, fy), alpha, d[k], 0);
                }
            } else {
                /* Footprint origins move monotonically along the span: when both ends lie
                   beyond the same edge of the image, every pixel's does and none draws (the
                   corners of a perspective layer's bounding box, above and below it). */
                const int64_t ia = ua >> 16, il = ul >> 16, ja = va >> 16, jl = vl >> 16;
                if (!((ia < -1 && il < -1) || (ja < -1 && jl < -1) || (ia >= sw && il >= sw) || (ja >= sh && jl >= sh)))
                    for (int k = 0; k < len; k++, u += du, v += dv)
                        projective_px(src, src_stride, sw, sh, u, v, alpha, mrow, x + k - x0, &drow[x + k], level);
            }
            x += len;
        }
        if (resume) resume[y - ya] = x;
    }
    }
    free(resume);
}

/* The composite's arguments, for th_band_rows. */
typedef struct {
    const uint32_t *src; size_t src_stride; int sw, sh;
    uint32_t *dst; size_t dst_stride; int x0, y0, x1;
    const double *m; const pos_plan *plan; const uint8_t *mask; size_t mask_stride; uint32_t alpha;
} projective_job;

static void projective_band(const void *job, int ya, int yb) {
    const projective_job *b = (const projective_job *)job;
    projective_rows(b->src, b->src_stride, b->sw, b->sh, b->dst, b->dst_stride, b->x0, b->y0, b->x1, ya, yb,
                    b->m, b->plan, b->mask, b->mask_stride, b->alpha);
}

/* The plan for [x0, x1) under m (see pos_plan); its tables are allocated here (free_plan). */
static pos_plan make_plan(const double m[9], int x0, int x1, double y0) {
    pos_plan p = {0, x0, 0, 0, 0};
    if (m[6] == 0) { p.kind = 1; return p; }
    if (m[7] != 0 || m[1] != 0) return p;
    const int n = x1 - x0;
    double *iw = malloc((size_t)n * sizeof(double));
    int64_t *u = malloc((size_t)n * sizeof(int64_t));
    unsigned char *ok = malloc((size_t)n);
    if (!iw || !u || !ok) { free(iw); free(u); free(ok); return p; }
    /* Any row's ur and wr: they are the same in every row (see pos_plan). */
    const double Y = y0 + 0.5, ur = m[1] * Y + m[2], wr = m[7] * Y + m[8];
    for (int i = 0; i < n; i++) {
        const double X = x0 + i + 0.5;
        const double W = m[6] * X + wr;
        ok[i] = W > 0;
        if (!ok[i]) { iw[i] = 0; u[i] = 0; continue; }
        iw[i] = 1.0 / W;
        u[i] = fixed_coord(m[0] * X + ur, iw[i]);
    }
    p.kind = 2; p.col_iw = iw; p.col_u = u; p.col_ok = ok;
    return p;
}

static void free_plan(pos_plan *p) {
    free((void *)p->col_iw);
    free((void *)p->col_u);
    free((void *)p->col_ok);
}

void th_composite_projective_bilinear(const uint32_t *src, size_t src_stride, int sw, int sh,
                                      uint32_t *dst, size_t dst_stride, int x0, int y0, int x1, int y1,
                                      const double m[9], const uint8_t *mask, size_t mask_stride, uint32_t alpha) {
    if (alpha == 0 || x1 <= x0 || y1 <= y0) return;
    pos_plan plan = make_plan(m, x0, x1, y0);
    /* Each row's pixels depend only on that row (its own exact positions and spans), so a
       large rectangle's rows may be split onto a second thread. */
    const projective_job job = {src, src_stride, sw, sh, dst, dst_stride, x0, y0, x1, m, &plan, mask, mask_stride, alpha};
    th_band_rows(projective_band, &job, y0, y1, (int64_t)(x1 - x0) * (y1 - y0));
    free_plan(&plan);
}
