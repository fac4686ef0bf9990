#include "transhost_swift.h"
TH_SWIFT_PLUGIN("split-modal", "1.0.0")
