#include "render_kernels.h"

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
