#include "transhost_swift.h"
TH_SWIFT_PLUGIN("kit-probe", "1.0.0")
