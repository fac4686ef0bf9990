/* The corpus plugin's C entry: the one symbol the host reads (transhost_plugin_entry). The name
 * and version must equal ../manifest.json's; the rest is the kit's. */
#include "transhost_swift.h"
TH_SWIFT_PLUGIN("compat-corpus", "1.0.0")
