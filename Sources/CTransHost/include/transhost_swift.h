/*
 * transhost_swift.h — the entry of a plugin written in Swift with TransHostAnimatorKit.
 *
 * A Swift plugin is two SwiftPM targets in one dynamic library product: its Swift animators,
 * and a one-line C file that declares the entry the host reads:
 *
 *     #include "transhost_swift.h"
 *     TH_SWIFT_PLUGIN("rotate-spring", "1.0.0")
 *
 * The Swift side exports its animators and delegates in one line, in a file of its own:
 *
 *     @_cdecl("th_swift_plugin_make") public func transhostExport() -> UnsafeMutableRawPointer {
 *         TransHostExport(animators: ["spring": RotateSpring.init]) }
 *
 * The entry's init/deinit/get_animator/get_delegate are implemented by the kit (th_swift_kit_*),
 * which calls th_swift_plugin_make once at init and keeps what it returns until deinit. Link with
 * -z defs: a plugin without th_swift_plugin_make then fails to link instead of failing to load. Swift plugins are never dlclose'd by the host.
 */
#ifndef TRANSHOST_SWIFT_H
#define TRANSHOST_SWIFT_H

#include "transhost.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Implemented by TransHostAnimatorKit. make is the plugin's th_swift_plugin_make. [main-thread] */
int th_swift_kit_init(const th_host_api *host, const char *plugin_name, void *(*make)(void));
void th_swift_kit_deinit(void);
const th_animator *th_swift_kit_get_animator(const char *animator_id);
const th_delegate *th_swift_kit_get_delegate(const char *delegate_id);

#define TH_SWIFT_PLUGIN(NAME, VERSION)                                                           \
    void *th_swift_plugin_make(void);                                                            \
    static int th_swift_entry_init(const th_host_api *host) {                                    \
        return th_swift_kit_init(host, NAME, th_swift_plugin_make);                              \
    }                                                                                            \
    TH_EXPORT const th_plugin_entry transhost_plugin_entry = {                                   \
        TH_ABI_MAJOR, TH_ABI_MINOR, sizeof(th_plugin_entry), NAME, VERSION,                      \
        th_swift_entry_init, th_swift_kit_deinit, th_swift_kit_get_animator, th_swift_kit_get_delegate};

#ifdef __cplusplus
}
#endif

#endif /* TRANSHOST_SWIFT_H */
