/* pixman's 7-bit bilinear sample and its OVER, one pixel at a time in plain C (private to this
   module; the vector loops of translate_bilinear.c and scaled_bilinear.c match them byte for
   byte, and tests hold both to pixman's own output). */
#ifndef TRANSHOST_PIXMAN_BILINEAR_H
#define TRANSHOST_PIXMAN_BILINEAR_H
#include <stdint.h>

/* Two channels of a pixel in one 64-bit word, at bits 0 and 32 (channels 0 and 2, or 1 and 3):
   every product below stays under 2^32 per lane, so one multiply serves both. */
static inline uint64_t tb_lanes(uint32_t p) { return (uint64_t)(p & 0xff) | ((uint64_t)(p & 0xff0000) << 16); }
static inline uint32_t tb_unlanes(uint64_t v) { return (uint32_t)(v & 0xff) | (uint32_t)((v >> 16) & 0xff0000); }
static const uint64_t tb_lane_mask = 0x000000ff000000ffull;

static inline uint64_t tb_sample_lanes(uint64_t tl, uint64_t tr, uint64_t bl, uint64_t br,
                                       uint32_t wl, uint32_t wr, uint32_t wt, uint32_t wb) {
    return (((tl * wt + bl * wb) * wl + (tr * wt + br * wb) * wr) >> 14) & tb_lane_mask;
}

static inline uint32_t tb_sample(uint32_t tl, uint32_t tr, uint32_t bl, uint32_t br,
                                 uint32_t wl, uint32_t wr, uint32_t wt, uint32_t wb) {
    const uint64_t rb = tb_sample_lanes(tb_lanes(tl), tb_lanes(tr), tb_lanes(bl), tb_lanes(br), wl, wr, wt, wb);
    const uint64_t ag = tb_sample_lanes(tb_lanes(tl >> 8), tb_lanes(tr >> 8), tb_lanes(bl >> 8), tb_lanes(br >> 8), wl, wr, wt, wb);
    return tb_unlanes(rb) | tb_unlanes(ag) << 8;
}

/* s + d (255 - sa) / 255 in two lanes, saturated at 255. */
static inline uint64_t tb_over_lanes(uint64_t s, uint64_t d, uint32_t ia) {
    uint64_t c = s + ((((d * ia) + 0x0000008000000080ull) * 0x101 >> 16) & tb_lane_mask);
    /* a lane above 255 has bit 8 set: make it 255 */
    const uint64_t over = (c >> 8) & 0x0000000100000001ull;
    return (c | (over * 0xff)) & tb_lane_mask;
}

static inline uint32_t tb_over(uint32_t s, uint32_t d) {
    const uint32_t a = s >> 24;
    if (a == 255) return s;
    if (s == 0) return d;
    return tb_unlanes(tb_over_lanes(tb_lanes(s), tb_lanes(d), 255 - a))
        | tb_unlanes(tb_over_lanes(tb_lanes(s >> 8), tb_lanes(d >> 8), 255 - a)) << 8;
}

static inline uint32_t tb_texel(const uint32_t *row, int sw, int64_t x) {
    return (row && x >= 0 && x < sw) ? row[x] : 0;
}

/* s times the 8-bit mask m, per channel, as pixman rounds it. */
static inline uint32_t tb_in(uint32_t s, uint32_t m) {
    const uint64_t rb = (((tb_lanes(s) * m) + 0x0000008000000080ull) * 0x101 >> 16) & tb_lane_mask;
    const uint64_t ag = (((tb_lanes(s >> 8) * m) + 0x0000008000000080ull) * 0x101 >> 16) & tb_lane_mask;
    return tb_unlanes(rb) | tb_unlanes(ag) << 8;
}

#endif
