/* The plugin's C entry: the one symbol the host reads (transhost_plugin_entry). The name and
 * version must equal manifest.json's. The rest is implemented by TransHostAnimatorKit. */
#include "transhost_swift.h"
TH_SWIFT_PLUGIN("slide-in", "0.1.0")
