#include "box_blur.h"
#include <string.h>

/* One line of n samples, `step` bytes apart, through a box of 2r+1 (zeros outside). */
static void blur_line(uint8_t *p, size_t step, int n, int r, uint8_t *tmp) {
    const unsigned den = (unsigned)(2 * r + 1);
    unsigned sum = 0;
    for (int i = 0; i < n; i++) tmp[i] = p[(size_t)i * step];
    for (int i = 0; i <= r && i < n; i++) sum += tmp[i];
    for (int i = 0; i < n; i++) {
        p[(size_t)i * step] = (uint8_t)((sum + den / 2) / den);
        int add = i + r + 1, drop = i - r;
        if (add < n) sum += tmp[add];
        if (drop >= 0) sum -= tmp[drop];
    }
}

void th_box_blur_a8(uint8_t *plane, size_t stride, int width, int height, int radius, uint8_t *scratch) {
    if (radius <= 0 || width <= 0 || height <= 0) return;
    for (int y = 0; y < height; y++) blur_line(plane + (size_t)y * stride, 1, width, radius, scratch);
    for (int x = 0; x < width; x++) blur_line(plane + x, stride, height, radius, scratch);
}
