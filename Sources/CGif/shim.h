// giflib 5.2 (MIT): animated GIF encoding (and decoding, for tests). No pkg-config file ships
// with Debian's libgif-dev, so the header and library are found on the default paths.
#include <gif_lib.h>
