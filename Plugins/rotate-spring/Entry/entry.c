#include "transhost_swift.h"
TH_SWIFT_PLUGIN("rotate-spring", "1.0.0")
