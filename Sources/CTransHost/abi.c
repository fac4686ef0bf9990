/* The C module carries only the public header; this file makes it a buildable target and checks,
 * at compile time, the layout facts the host relies on when it reads the entry from the file. */
#include "transhost.h"

_Static_assert(offsetof(th_plugin_entry, abi_major) == 0, "abi_major must be the first field");
_Static_assert(offsetof(th_plugin_entry, abi_minor) == 4, "abi_minor must be the second field");
