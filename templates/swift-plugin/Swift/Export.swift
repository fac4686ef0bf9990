// The plugin's export, in a file of its own: the manifest's animator ids and the animators
// they name. The host calls th_swift_plugin_make once, at init.
import UIKit

@_cdecl("th_swift_plugin_make") public func transhostExport() -> UnsafeMutableRawPointer {
    TransHostExport(animators: ["slide-in": SlideIn.init]) }
