#include "render_kernels.h"
#include "render_bands.h"
#include <stdlib.h>
#include <string.h>
#include <stdatomic.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "pixel_math.h"
#include "span_levels.h"
#include "projective_pos.h"


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

/* Whether texels [u0, u1] x [v0, v1] (inclusive, inside the image) are all c. */
static inline int texels_are(const uint32_t *src, size_t stride, int u0, int u1, int v0, int v1, uint32_t c) {
#if defined(__SSE2__)
    const __m128i want = _mm_set1_epi32((int)c);
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
            if (row[u] != c) return 0;
    }
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


/* What every span of a composite shares: the source, the destination row's layout, the mask
   and alpha, and the vector level. */
typedef struct {
    const uint32_t *src; size_t src_stride; int sw, sh;
    int64_t umax, vmax;      /* positions whose whole footprint is inside (texels 0 .. size - 2) */
    uint32_t alpha;
    int level;
} span_ctx;

/* Whether pixels at full alpha without a mask may be stored from a flat opaque footprint. */
static inline int span_may_fill(const span_ctx *c, const uint8_t *mrow) {
    return !mrow && c->alpha >= 256 && c->sw >= 2 && c->sh >= 2;
}

/* texels_are at the context's level. */
static inline int span_texels_are(const span_ctx *c, int u0, int u1, int v0, int v1, uint32_t colour) {
#if defined(__x86_64__) || defined(__i386__)
    if (c->level == 2) return th_texels_are_avx2(c->src, c->src_stride, u0, u1, v0, v1, colour);
#endif
    return texels_are(c->src, c->src_stride, u0, u1, v0, v1, colour);
}

/* A texel rectangle found to be one opaque colour (valid: u1 >= u0): a fact about the source,
   which no composite changes, kept to spare the next row most of its test. */
typedef struct { int u0, u1, v0, v1; uint32_t c; } flat_rect;

/* Whether texels [u0, u1] x [v0, v1] (inside the image) are one colour with alpha 255, that
   colour in *flat. When a known flat rectangle k spans these columns in some of these rows (the
   strip's row above, usually), the colour can only be k's, and only the rows outside k are
   read; a rectangle found flat is kept in k. */
static inline int span_uniform(const span_ctx *c, flat_rect *k, int u0, int u1, int v0, int v1, uint32_t *flat) {
    if (k && k->u1 >= k->u0 && k->u0 <= u0 && u1 <= k->u1 && v0 <= k->v1 && k->v0 <= v1) {
        const int above = v1 < k->v0 - 1 ? v1 : k->v0 - 1, below = v0 > k->v1 + 1 ? v0 : k->v1 + 1;
        if ((v0 <= above && !span_texels_are(c, u0, u1, v0, above, k->c)) || (below <= v1 && !span_texels_are(c, u0, u1, below, v1, k->c)))
            return 0;
        *flat = k->c;
    } else {
        const uint32_t first = *((const uint32_t *)((const uint8_t *)c->src + (size_t)v0 * c->src_stride) + u0);
        if ((first >> 24) != 255 || !span_texels_are(c, u0, u1, v0, v1, first)) return 0;
        *flat = first;
    }
    if (k) { k->u0 = u0; k->u1 = u1; k->v0 = v0; k->v1 = v1; k->c = *flat; }
    return 1;
}

static inline void span_fill(const span_ctx *c, uint32_t *d, int n, uint32_t flat) {
#if defined(__x86_64__) || defined(__i386__)
    if (c->level == 2) { th_fill_avx2(d, n, flat); return; }
#endif
    fill_px(d, n, flat);
}

/* Pixels [x, x + len) of a row: pixel x + k at 16.16 footprint origin (ua + k du, va + k dv);
   known (may be NULL) is the flat rectangle span_uniform may start from and keeps. */
static inline __attribute__((always_inline)) void draw_span(const span_ctx *c, uint32_t *drow, const uint8_t *mrow, int x0, int x,
                                                            int len, int64_t ua, int64_t va, int64_t du, int64_t dv, flat_rect *known) {
    const uint32_t *src = c->src;
    const size_t src_stride = c->src_stride;
    const int sw = c->sw, sh = c->sh, level = c->level;
    const uint32_t alpha = c->alpha;
    /* A span whose first and last footprints are both wholly inside the image is inside all
       along (u and v are linear in k here): those pixels need no bounds checks, and at full
       alpha without a mask a flat opaque footprint is a plain store. Any other span takes the
       per-pixel tests. */
    int64_t u = ua, v = va;
    const int64_t ul = ua + (len - 1) * du, vl = va + (len - 1) * dv;
    if (span_may_fill(c, mrow) && ua >= 0 && ul >= 0 && va >= 0 && vl >= 0
        && ua <= c->umax && ul <= c->umax && va <= c->vmax && vl <= c->vmax) {
        uint32_t *d = drow + x;
        /* The texels this span's pixels a few rows down will read: fetched now, they are in
           the cache when those rows get here (the strip walks straight down). */
        {
            const int64_t ra = (va >> 16) + 4 < sh ? (va >> 16) + 4 : sh - 1, rb = (vl >> 16) + 4 < sh ? (vl >> 16) + 4 : sh - 1;
            __builtin_prefetch((const uint8_t *)src + (size_t)ra * src_stride + (size_t)(ua >> 16) * 4);
            __builtin_prefetch((const uint8_t *)src + (size_t)rb * src_stride + (size_t)(ul >> 16) * 4);
        }
        /* Every footprint of the span lies in the texel rectangle its two ends span (u and v
           are linear in k). When that rectangle is one opaque colour, each pixel below would
           store it: fill the span instead of reading 4 texels each. */
        uint32_t flat;
        const int tu0 = (int)((ua < ul ? ua : ul) >> 16), tu1 = (int)((ua < ul ? ul : ua) >> 16) + 1;
        const int tv0 = (int)((va < vl ? va : vl) >> 16), tv1 = (int)((va < vl ? vl : va) >> 16) + 1;
        if (span_uniform(c, known, tu0, tu1, tv0, tv1, &flat)) { span_fill(c, d, len, flat); return; }
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
        return;
    }
    /* Footprint origins move monotonically along the span: when both ends lie beyond the same
       edge of the image, every pixel's does and none draws (the corners of a perspective
       layer's bounding box, above and below it). */
    const int64_t ia = ua >> 16, il = ul >> 16, ja = va >> 16, jl = vl >> 16;
    if ((ia < -1 && il < -1) || (ja < -1 && jl < -1) || (ia >= sw && il >= sw) || (ja >= sh && jl >= sh)) return;
    for (int k = 0; k < len; k++, u += du, v += dv)
        projective_px(src, src_stride, sw, sh, u, v, alpha, mrow, x + k - x0, &drow[x + k], level);
}

/* A run of fixed spans, pixels [x, xe) (the span search keeps each one PROJ_SPAN long, or up
   to x1; see spans_keep_length), drawn as the search would draw them; (ua, va) is pixel x's
   position. When all its footprints lie in one opaque colour, which the texel rectangle of the
   run's two ends (widened by the positions' rounding) being one colour proves, every span would
   be filled with it: the run is filled. Otherwise its two halves are tried, down to single
   spans. slots[node] keeps the flat rectangle this part of the strip found last (node: 1 for
   the whole run, 2 node and 2 node + 1 for its halves), as the strip goes down. */
enum { RUN_SLOTS = 32 };

static void draw_fixed_run(const span_ctx *c, const row_pos *rp, flat_rect *slots, int node, uint32_t *drow, const uint8_t *mrow,
                           int x0, int x, int64_t ua, int64_t va, int xe) {
    flat_rect *k = node < RUN_SLOTS ? &slots[node] : 0;
    const int spans = (xe - x + PROJ_SPAN - 1) / PROJ_SPAN;
    if (spans == 1) {
        const int len = xe - x;
        int64_t ub = ua, vb = va, du = 0, dv = 0;
        if (len > 1) {
            pos_at(rp, xe - 1, &ub, &vb);
            du = div_span(ub - ua, len - 1); dv = div_span(vb - va, len - 1);
        }
        draw_span(c, drow, mrow, x0, x, len, ua, va, du, dv, k);
        return;
    }
    if (span_may_fill(c, mrow)) {
        int64_t ue, ve;
        pos_at(rp, xe - 1, &ue, &ve);
        /* Every span end, and so every position stepped between two, is within
           PROJ_ROUNDING of the range the run's two exact ends span (u and v are monotonic in x). */
        const int64_t u0 = (ua < ue ? ua : ue) - PROJ_ROUNDING, u1 = (ua < ue ? ue : ua) + PROJ_ROUNDING;
        const int64_t v0 = (va < ve ? va : ve) - PROJ_ROUNDING, v1 = (va < ve ? ve : va) + PROJ_ROUNDING;
        uint32_t flat;
        if (u0 >= 0 && v0 >= 0 && u1 <= c->umax && v1 <= c->vmax
            && span_uniform(c, k, (int)(u0 >> 16), (int)(u1 >> 16) + 1, (int)(v0 >> 16), (int)(v1 >> 16) + 1, &flat)) {
            span_fill(c, drow + x, xe - x, flat);
            return;
        }
    }
    const int mid = x + spans / 2 * PROJ_SPAN;
    int64_t um, vm;
    pos_at(rp, mid, &um, &vm);
    draw_fixed_run(c, rp, slots, 2 * node, drow, mrow, x0, x, ua, va, mid);
    draw_fixed_run(c, rp, slots, 2 * node + 1, drow, mrow, x0, mid, um, vm, xe);
}

/* 1 while the projective loop may draw runs of fixed spans (draw_fixed_run), 0 for the span
   search at every span (th_projective_span_runs). */
static _Atomic int span_runs = 1;

int th_projective_span_runs(int enabled) {
    atomic_store_explicit(&span_runs, enabled ? 1 : 0, memory_order_relaxed);
    return enabled ? 1 : 0;
}

/* Rows [ya, yb) of th_composite_projective_bilinear (rows are independent of each other). */
static void projective_rows(const uint32_t *src, size_t src_stride, int sw, int sh,
                            uint32_t *dst, size_t dst_stride, int x0, int y0, int x1, int ya, int yb,
                            const double m[9], const pos_plan *plan, const uint8_t *mask, size_t mask_stride, uint32_t alpha) {
    /* Exact positions every PROJ_SPAN pixels (fewer where the map bends: the midpoint of a span
       is checked against the exact map and the span halved until the linear step is within
       PROJ_TOL, 1/32 texel), linear 16.16 steps in between: perspective-correct spans. */
    const span_ctx c = {src, src_stride, sw, sh, ((int64_t)(sw - 1) << 16) - 1, ((int64_t)(sh - 1) << 16) - 1, alpha,
                        th_span_level_now()};
    const int runs = atomic_load_explicit(&span_runs, memory_order_relaxed);
    /* The rows are walked in strips of columns: under perspective a row crosses many source
       rows, and going down one strip at a time the next row reads the texels just below the
       last, still in the cache. Each row still runs its own spans from x0 in the same order
       (a strip resumes where the row's last span ended), so the split changes no byte. */
    enum { STRIP = 128 };
    int *resume = malloc(sizeof(int) * (size_t)(yb > ya ? yb - ya : 1));
    const int strip = resume ? STRIP : (x1 - x0);
    for (int sx = x0; sx < x1; sx += strip) {
    const int sx1 = x1 - sx > strip ? sx + strip : x1;
    flat_rect slots[RUN_SLOTS];
    for (int i = 0; i < RUN_SLOTS; i++) slots[i].u0 = 0, slots[i].u1 = -1;
    for (int y = ya; y < yb; y++) {
        uint32_t *drow = (uint32_t *)((uint8_t *)dst + (size_t)y * dst_stride);
        const uint8_t *mrow = mask ? mask + (size_t)(y - y0) * mask_stride : 0;
        const row_pos rp = row_start(m, plan, y + 0.5);
        int x = (sx == x0 || !resume) ? x0 : resume[y - ya];
        if (runs && x < sx1) {
            /* The spans that start in this strip, when the search would keep them all whole. */
            const int64_t xe = x + (int64_t)(sx1 - x + PROJ_SPAN - 1) / PROJ_SPAN * PROJ_SPAN;
            const int end = xe < x1 ? (int)xe : x1;
            if (spans_keep_length(&rp, x, end - 1)) {
                int64_t ua, va;
                pos_at(&rp, x, &ua, &va);
                draw_fixed_run(&c, &rp, slots, 1, drow, mrow, x0, x, ua, va, end);
                x = end;
            }
        }
        while (x < sx1) {
            int len = x1 - x < PROJ_SPAN ? x1 - x : PROJ_SPAN;
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
                if ((el < 0 ? -el : el) <= PROJ_TOL && (ev < 0 ? -ev : ev) <= PROJ_TOL) break;
                len = len / 2;
            }
            const int64_t du = len > 1 ? div_span(ub - ua, len - 1) : 0, dv = len > 1 ? div_span(vb - va, len - 1) : 0;
            draw_span(&c, drow, mrow, x0, x, len, ua, va, du, dv, 0);
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
