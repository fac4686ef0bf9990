// cairo (LGPL-2.1 / MPL-1.1): draws view content into ARGB32 premultiplied image surfaces.
#include <cairo.h>
