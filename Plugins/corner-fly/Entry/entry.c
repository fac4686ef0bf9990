#include "transhost_swift.h"
TH_SWIFT_PLUGIN("corner-fly", "1.0.0")
