#include "pixel_diff.h"
#include <string.h>

/* Colour distances in YIQ (Kotsarenko and Ramos, "Measuring perceived color difference using
   YIQ NTSC transmission color space"), the measure pixelmatch popularised; written here from
   the published formulas. */

static inline double blend(double c, double a) { return 255 + (c - 255) * a; }

static inline void yiq(const uint8_t *p, double *y, double *i, double *q) {
    double a = p[3] / 255.0;
    double r = p[0], g = p[1], b = p[2];
    if (p[3] < 255) { r = blend(r, a); g = blend(g, a); b = blend(b, a); }
    *y = r * 0.29889531 + g * 0.58662247 + b * 0.11448223;
    *i = r * 0.59597799 - g * 0.27417610 - b * 0.32180189;
    *q = r * 0.21147017 - g * 0.52261711 + b * 0.31114694;
}

/* Squared perceptual distance between two pixels; at most 35215 (black against white). */
static inline double delta(const uint8_t *p, const uint8_t *q) {
    if (memcmp(p, q, 4) == 0) return 0;
    double y1, i1, q1, y2, i2, q2;
    yiq(p, &y1, &i1, &q1);
    yiq(q, &y2, &i2, &q2);
    double dy = y1 - y2, di = i1 - i2, dq = q1 - q2;
    return 0.5053 * dy * dy + 0.299 * di * di + 0.1957 * dq * dq;
}

/* Signed luma difference (brightness only), for the anti-aliasing test. */
static inline double luma_delta(const uint8_t *p, const uint8_t *q) {
    double y1, i1, q1, y2, i2, q2;
    yiq(p, &y1, &i1, &q1);
    yiq(q, &y2, &i2, &q2);
    return y1 - y2;
}

static inline const uint8_t *px(const uint8_t *img, int w, int x, int y) { return img + ((size_t)y * (size_t)w + (size_t)x) * 4; }

/* More than two of the pixel's neighbours are identical to it (a pixel on the image's edge
   counts one more, since part of its neighbourhood is missing). */
static int many_siblings(const uint8_t *img, int w, int h, int x, int y) {
    int x0 = x > 0 ? x - 1 : 0, y0 = y > 0 ? y - 1 : 0, x1 = x < w - 1 ? x + 1 : w - 1, y1 = y < h - 1 ? y + 1 : h - 1;
    int same = (x == x0 || x == x1 || y == y0 || y == y1) ? 1 : 0;
    const uint8_t *c = px(img, w, x, y);
    for (int yy = y0; yy <= y1; yy++)
        for (int xx = x0; xx <= x1; xx++) {
            if (xx == x && yy == y) continue;
            if (memcmp(c, px(img, w, xx, yy), 4) == 0 && ++same > 2) return 1;
        }
    return 0;
}

/* Whether (x, y) in `img` looks like an anti-aliased edge pixel: at most two identical
   neighbours, both a darker and a brighter neighbour, and the darkest or the brightest of them
   sits in a flat area in both images. */
static int antialiased(const uint8_t *img, const uint8_t *other, int w, int h, int x, int y) {
    int x0 = x > 0 ? x - 1 : 0, y0 = y > 0 ? y - 1 : 0, x1 = x < w - 1 ? x + 1 : w - 1, y1 = y < h - 1 ? y + 1 : h - 1;
    int zeroes = (x == x0 || x == x1 || y == y0 || y == y1) ? 1 : 0;
    double lo = 0, hi = 0;
    int lox = 0, loy = 0, hix = 0, hiy = 0;
    const uint8_t *c = px(img, w, x, y);
    for (int yy = y0; yy <= y1; yy++)
        for (int xx = x0; xx <= x1; xx++) {
            if (xx == x && yy == y) continue;
            double d = luma_delta(c, px(img, w, xx, yy));
            if (d == 0) {
                if (++zeroes > 2) return 0;
            } else if (d < lo) {
                lo = d; lox = xx; loy = yy;
            } else if (d > hi) {
                hi = d; hix = xx; hiy = yy;
            }
        }
    if (lo == 0 || hi == 0) return 0;
    return (many_siblings(img, w, h, lox, loy) && many_siblings(other, w, h, lox, loy))
        || (many_siblings(img, w, h, hix, hiy) && many_siblings(other, w, h, hix, hiy));
}

th_diff_result th_pixel_diff(const uint8_t *a, const uint8_t *b, int w, int h, double threshold, int detect_aa, uint8_t *out) {
    th_diff_result r = { 0, 0, { w, h, 0, 0 } };
    double max_delta = 35215.0 * threshold * threshold;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            const uint8_t *p = px(a, w, x, y), *q = px(b, w, x, y);
            double d = delta(p, q);
            uint8_t *o = out ? out + ((size_t)y * (size_t)w + (size_t)x) * 4 : NULL;
            if (d > max_delta) {
                if (detect_aa && (antialiased(a, b, w, h, x, y) || antialiased(b, a, w, h, x, y))) {
                    r.antialiased++;
                    if (o) { o[0] = 255; o[1] = 200; o[2] = 0; o[3] = 255; }
                } else {
                    r.differing++;
                    if (x < r.bounds[0]) r.bounds[0] = x;
                    if (y < r.bounds[1]) r.bounds[1] = y;
                    if (x + 1 > r.bounds[2]) r.bounds[2] = x + 1;
                    if (y + 1 > r.bounds[3]) r.bounds[3] = y + 1;
                    if (o) { o[0] = 255; o[1] = 0; o[2] = 0; o[3] = 255; }
                }
            } else if (o) {
                /* The expected picture's brightness, faded towards white, as context. */
                double yy, ii, qq;
                yiq(p, &yy, &ii, &qq);
                uint8_t v = (uint8_t)(255 + (yy - 255) * 0.1 + 0.5);
                o[0] = v; o[1] = v; o[2] = v; o[3] = 255;
            }
        }
    }
    if (r.differing == 0) { r.bounds[0] = r.bounds[1] = r.bounds[2] = r.bounds[3] = 0; }
    return r;
}
