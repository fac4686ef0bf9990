#include "transhost_swift.h"
TH_SWIFT_PLUGIN("snapshot-search", "1.0.0")
