#include "render_kernels.h"
#include <stdint.h>

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
