#ifndef TRANSHOST_PIXEL_DIFF_H
#define TRANSHOST_PIXEL_DIFF_H
#include <stdint.h>
#include <stddef.h>

typedef struct {
    /// Pixels whose colours differ by more than the threshold, not counting anti-aliasing.
    long differing;
    /// Pixels that differ but look like anti-aliased edges that moved (not counted above).
    long antialiased;
    /// The smallest rectangle holding every differing pixel (x0, y0, x1, y1; ends exclusive);
    /// all zero when none differs.
    int bounds[4];
} th_diff_result;

/// Compares two straight-RGBA images of one size (4 bytes per pixel, rows packed) the way a
/// person would: colours are compared in YIQ (luma weighted most), after blending translucent
/// pixels with white; `threshold` in [0, 1] scales the largest distance still counted as
/// equal (0.1 hides differences the eye does not see). With `detect_aa`, a differing pixel on
/// an anti-aliased edge in either image (a pixel between a darker and a brighter neighbour,
/// each of which has several identical neighbours) is counted apart.
///
/// `out_rgba` (may be NULL) receives a diff picture: the expected image faded to a light grey,
/// differing pixels red, anti-aliasing yellow.
th_diff_result th_pixel_diff(const uint8_t *expected, const uint8_t *actual, int width, int height,
                             double threshold, int detect_aa, uint8_t *out_rgba);

#endif
