#include "transhost_swift.h"
TH_SWIFT_PLUGIN("half-sheet", "1.0.0")
