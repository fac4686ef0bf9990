#include "transhost_swift.h"
TH_SWIFT_PLUGIN("circle-reveal", "1.0.0")
