#ifndef TRANSHOST_BOX_BLUR_H
#define TRANSHOST_BOX_BLUR_H
#include <stdint.h>
#include <stddef.h>

/// Blurs an 8-bit alpha plane in place with a centred box of 2 * radius + 1 pixels, first along
/// rows, then along columns; outside the plane counts as 0. Running sums with rounding, so the
/// result is deterministic and the total alpha is kept except what spreads past the edges
/// (callers pad the plane). Three passes with the box sizes of a Gaussian's sigma approximate
/// the Gaussian blur (see the Renderer's shadow code). `scratch` holds max(width, height) bytes.
void th_box_blur_a8(uint8_t *plane, size_t stride, int width, int height, int radius, uint8_t *scratch);

#endif
