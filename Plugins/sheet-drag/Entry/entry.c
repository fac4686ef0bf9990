#include "transhost_swift.h"
TH_SWIFT_PLUGIN("sheet-drag", "1.0.0")
