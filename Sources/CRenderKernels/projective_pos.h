/* Where the projective span loop samples (private to this module): the exact source position
   of a destination pixel, worked out as src_pos does whatever the map's kind (pos_plan), the
   truncating division of a span's step, and when a row's spans provably keep their full length. */
#ifndef TRANSHOST_PROJECTIVE_POS_H
#define TRANSHOST_PROJECTIVE_POS_H
#include <math.h>
#include <stdint.h>

/* The loop's spans: PROJ_SPAN pixels at most, halved while the linear step strays from the
   exact map at the span's (near-)midpoint by more than PROJ_TOL (1/32 texel, in 16.16). */
enum { PROJ_SPAN = 16, PROJ_TOL = 65536 / 32 };

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

/* How far a position src_pos works out (truncated to 16.16) may be from the exact one, in
   16.16 units, where spans_keep_length holds: under 1 for the truncation plus a rounding error
   its bounds keep under 1/8, taken with room to spare. */
enum { PROJ_ROUNDING = 4 };

/* Whether the span search would keep every span it cuts from pixels [xa, xb] of this row
   whole (PROJ_SPAN long, or up to the rectangle's edge): W > 0 at both ends, so at every pixel
   between (W is linear in x, and so is its rounded value, monotonically), and no midpoint
   test can fail. The exact u = U / W has u'' = 2 m6 (m6 U - m0 W) / W^3 (v likewise with m3),
   so a chord over L = len - 1 pixels misses u at pixel h by at most
   |u''|max h (L - h) / 2 <= 28 |u''|max texels (h (L - h) <= 7 * 8 for len <= 16), |u''| largest
   where W is least. The test compares truncated positions, each within PROJ_ROUNDING of the
   exact one, and truncates its own step once more: it passes when that bound plus 4 of those
   is within PROJ_TOL. The size tests keep the rounding small: the positions' numerators
   within 2^24 W, the terms of W within 2^8 W (a relative error of W under 2^-44), so every
   position's rounding error stays below 2^-4 of a 16.16 unit, and nothing reaches the clamp. */
static inline int spans_keep_length(const row_pos *r, int xa, int xb) {
    const double *m = r->m;
    const double Xa = xa + 0.5, Xb = xb + 0.5;
    const double Wa = m[6] * Xa + r->wr, Wb = m[6] * Xb + r->wr;
    if (!(Wa > 0 && Wb > 0)) return 0;
    const double w = Wa < Wb ? Wa : Wb, X = fabs(Xa) > fabs(Xb) ? fabs(Xa) : fabs(Xb);
    if (!(fabs(m[0]) * X + fabs(r->ur) <= 0x1p24 * w && fabs(m[3]) * X + fabs(r->vr) <= 0x1p24 * w
          && fabs(m[6]) * X + fabs(r->wr) <= 0x1p8 * w)) return 0;
    if (m[6] == 0) return 1; /* one W along the row: u and v are linear in x */
    /* |m6 U - m0 W| is the same at every x: m6 ur - m0 wr; its rounding counted generously. */
    const double pu = m[6] * r->ur, qu = m[0] * r->wr, pv = m[6] * r->vr, qv = m[3] * r->wr;
    const double cu = fabs(pu - qu) + 1e-12 * (fabs(pu) + fabs(qu)), cv = fabs(pv - qv) + 1e-12 * (fabs(pv) + fabs(qv));
    const double k = 65536.0 * 56.0 * fabs(m[6]) / (w * w * w) * (1 + 1e-9);
    const double limit = PROJ_TOL - 4 * PROJ_ROUNDING;
    return k * cu <= limit && k * cv <= limit;
}
#endif
