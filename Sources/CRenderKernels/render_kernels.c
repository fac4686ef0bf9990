#include "render_kernels.h"
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static const uint8_t bayer8[8][8] = {
    { 0, 32,  8, 40,  2, 34, 10, 42}, {48, 16, 56, 24, 50, 18, 58, 26},
    {12, 44,  4, 36, 14, 46,  6, 38}, {60, 28, 52, 20, 62, 30, 54, 22},
    { 3, 35, 11, 43,  1, 33,  9, 41}, {51, 19, 59, 27, 49, 17, 57, 25},
    {15, 47,  7, 39, 13, 45,  5, 37}, {63, 31, 55, 23, 61, 29, 53, 21},
};

void th_fixed_palette(uint8_t *rgb) {
    int i = 0;
    for (int r = 0; r < TH_PAL_R; r++)
        for (int g = 0; g < TH_PAL_G; g++)
            for (int b = 0; b < TH_PAL_B; b++, i++) {
                rgb[i * 3 + 0] = (uint8_t)((r * 255 + (TH_PAL_R - 1) / 2) / (TH_PAL_R - 1));
                rgb[i * 3 + 1] = (uint8_t)((g * 255 + (TH_PAL_G - 1) / 2) / (TH_PAL_G - 1));
                rgb[i * 3 + 2] = (uint8_t)((b * 255 + (TH_PAL_B - 1) / 2) / (TH_PAL_B - 1));
            }
    for (; i < TH_PAL_SIZE; i++) { rgb[i * 3] = rgb[i * 3 + 1] = rgb[i * 3 + 2] = 0; }
}

/* level = floor(v * (n - 1) / 255 + t / 128), t odd in 1..127 from the Bayer matrix. */
static inline int level(int v, int n, int t) {
    int l = (v * (n - 1) * 128 + t * 255) / (255 * 128);
    return l > n - 1 ? n - 1 : l;
}

void th_dither_fixed_palette(const uint32_t *pixels, size_t stride, int width, int height,
                             uint8_t bg_r, uint8_t bg_g, uint8_t bg_b, uint8_t *out) {
    for (int y = 0; y < height; y++) {
        const uint32_t *row = (const uint32_t *)((const uint8_t *)pixels + (size_t)y * stride);
        uint8_t *o = out + (size_t)y * (size_t)width;
        for (int x = 0; x < width; x++) {
            uint32_t p = row[x];
            int a = (int)(p >> 24), inv = 255 - a;
            int r = (int)((p >> 16) & 255) + (bg_r * inv + 127) / 255;
            int g = (int)((p >> 8) & 255) + (bg_g * inv + 127) / 255;
            int b = (int)(p & 255) + (bg_b * inv + 127) / 255;
            if (r > 255) r = 255;
            if (g > 255) g = 255;
            if (b > 255) b = 255;
            int t = bayer8[y & 7][x & 7] * 2 + 1;
            o[x] = (uint8_t)(level(r, TH_PAL_R, t) * (TH_PAL_G * TH_PAL_B) + level(g, TH_PAL_G, t) * TH_PAL_B
                             + level(b, TH_PAL_B, t));
        }
    }
}

void th_unpremultiply_to_rgba(const uint32_t *pixels, size_t stride, int width, int height, uint8_t *out) {
    for (int y = 0; y < height; y++) {
        const uint32_t *row = (const uint32_t *)((const uint8_t *)pixels + (size_t)y * stride);
        uint8_t *o = out + (size_t)y * (size_t)width * 4;
        for (int x = 0; x < width; x++) {
            uint32_t p = row[x];
            unsigned a = p >> 24, r = (p >> 16) & 255, g = (p >> 8) & 255, b = p & 255;
            if (a != 0 && a != 255) {
                r = (r * 255 + a / 2) / a; g = (g * 255 + a / 2) / a; b = (b * 255 + a / 2) / a;
                if (r > 255) r = 255;
                if (g > 255) g = 255;
                if (b > 255) b = 255;
            }
            o[x * 4 + 0] = (uint8_t)r; o[x * 4 + 1] = (uint8_t)g; o[x * 4 + 2] = (uint8_t)b; o[x * 4 + 3] = (uint8_t)a;
        }
    }
}

/* Two 8-bit channels per 32-bit word (0x00ff00ff lanes); f in 0..256. */
static inline uint32_t lerp_px(uint32_t a, uint32_t b, uint32_t f) {
    uint32_t g = 256 - f;
    uint32_t rb = (((a & 0xff00ffu) * g + (b & 0xff00ffu) * f) >> 8) & 0xff00ffu;
    uint32_t ag = (((a >> 8) & 0xff00ffu) * g + ((b >> 8) & 0xff00ffu) * f) & 0xff00ff00u;
    return rb | ag;
}

static inline uint32_t scale_px(uint32_t p, uint32_t s) { /* s in 0..256 */
    uint32_t rb = (((p & 0xff00ffu) * s) >> 8) & 0xff00ffu;
    uint32_t ag = ((p >> 8) & 0xff00ffu) * s & 0xff00ff00u;
    return rb | ag;
}

static inline uint32_t over_px(uint32_t s, uint32_t d) {
    uint32_t inv = 255 - (s >> 24);
    inv += inv >> 7; /* 255 -> 256 */
    /* Saturating add per channel (s + d * (1 - sa) cannot exceed 255 for valid premultiplied
       pixels, but rounding may push it by one). */
    uint32_t dd = scale_px(d, inv);
    uint32_t rb = (s & 0xff00ffu) + (dd & 0xff00ffu);
    uint32_t ag = ((s >> 8) & 0xff00ffu) + ((dd >> 8) & 0xff00ffu);
    rb |= 0x1000100u - ((rb >> 8) & 0x10001u);
    ag |= 0x1000100u - ((ag >> 8) & 0x10001u);
    return (rb & 0xff00ffu) | ((ag & 0xff00ffu) << 8);
}

static inline uint32_t texel(const uint32_t *src, size_t stride, int w, int h, int x, int y) {
    if ((unsigned)x >= (unsigned)w || (unsigned)y >= (unsigned)h) return 0;
    return ((const uint32_t *)((const uint8_t *)src + (size_t)y * stride))[x];
}


#if defined(__SSE2__)
/* Bilinear sample of four texels with 8-bit weights, scaled by a (0..256), OVER *d; 16-bit
   lanes, one pixel per call (x86-64 always has SSE2). Same rounding as the scalar path is not
   required: each build uses one path consistently. */
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

void th_composite_projective_bilinear(const uint32_t *src, size_t src_stride, int sw, int sh,
                                      uint32_t *dst, size_t dst_stride, int x0, int y0, int x1, int y1,
                                      const double m[9], const uint8_t *mask, size_t mask_stride, uint32_t alpha) {
    if (alpha == 0 || x1 <= x0 || y1 <= y0) return;
    /* Exact positions every SPAN pixels (fewer where the map bends: the midpoint of a span is
       checked against the exact map and the span halved until the linear step is within
       1/32 texel), linear 16.16 steps in between: perspective-correct spans. */
    enum { SPAN = 16 };
    const int64_t tol = 65536 / 32;
    for (int y = y0; y < y1; y++) {
        uint32_t *drow = (uint32_t *)((uint8_t *)dst + (size_t)y * dst_stride);
        const uint8_t *mrow = mask ? mask + (size_t)(y - y0) * mask_stride : 0;
        const double Y = y + 0.5;
        const double ur = m[1] * Y + m[2], vr = m[4] * Y + m[5], wr = m[7] * Y + m[8];
        int x = x0;
        while (x < x1) {
            int len = x1 - x < SPAN ? x1 - x : SPAN;
            int64_t ua, va, ub, vb;
            if (!src_pos(m, x + 0.5, ur, vr, wr, &ua, &va)) { x++; continue; }
            for (;;) {
                if (len == 1) { ub = ua; vb = va; break; }
                if (!src_pos(m, x + len - 0.5, ur, vr, wr, &ub, &vb)) { len = len / 2; continue; }
                int64_t um, vm;
                const int half = (len - 1) / 2; /* pixel index of the (near-)midpoint */
                if (!src_pos(m, x + half + 0.5, ur, vr, wr, &um, &vm)) { len = len / 2; continue; }
                const int64_t el = ua + (ub - ua) * half / (len - 1) - um;
                const int64_t ev = va + (vb - va) * half / (len - 1) - vm;
                if ((el < 0 ? -el : el) <= tol && (ev < 0 ? -ev : ev) <= tol) break;
                len = len / 2;
            }
            const int64_t du = len > 1 ? (ub - ua) / (len - 1) : 0, dv = len > 1 ? (vb - va) / (len - 1) : 0;
            int64_t u = ua, v = va;
            for (int k = 0; k < len; k++, u += du, v += dv) {
                const int xx = x + k;
                const int64_t ui = u >> 16, vi = v >> 16;
                if (ui < -1 || vi < -1 || ui >= sw || vi >= sh) continue;
                uint32_t a = alpha;
                if (mrow) {
                    uint32_t mv = mrow[xx - x0];
                    if (mv == 0) continue;
                    a = (a * (mv + (mv >> 7))) >> 8;
                }
                const uint32_t fx = (uint32_t)(u >> 8) & 0xff, fy = (uint32_t)(v >> 8) & 0xff;
                uint32_t tl, tr, bl, br;
                if (ui >= 0 && vi >= 0 && ui + 1 < sw && vi + 1 < sh) {
                    const uint32_t *p = (const uint32_t *)((const uint8_t *)src + (size_t)vi * src_stride) + ui;
                    const uint32_t *q = (const uint32_t *)((const uint8_t *)p + src_stride);
                    tl = p[0]; tr = p[1]; bl = q[0]; br = q[1];
                } else {
                    tl = texel(src, src_stride, sw, sh, (int)ui, (int)vi);
                    tr = texel(src, src_stride, sw, sh, (int)ui + 1, (int)vi);
                    bl = texel(src, src_stride, sw, sh, (int)ui, (int)vi + 1);
                    br = texel(src, src_stride, sw, sh, (int)ui + 1, (int)vi + 1);
                }
#if defined(__SSE2__)
                bilinear_over_sse2(tl, tr, bl, br, fx, fy, a, &drow[xx]);
#else
                uint32_t s = lerp_px(lerp_px(tl, tr, fx), lerp_px(bl, br, fx), fy);
                if (a < 256) s = scale_px(s, a);
                if (s == 0) continue;
                drow[xx] = (s >> 24) == 255 ? s : over_px(s, drow[xx]);
#endif
            }
            x += len;
        }
    }
}
