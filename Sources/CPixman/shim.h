// pixman (MIT): composites layer rasters under affine and projective transforms.
#include <pixman.h>
