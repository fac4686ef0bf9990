// The plugin's export: the manifest's animator ids and the animators they name.
import UIKit

@_cdecl("th_swift_plugin_make") public func transhostExport() -> UnsafeMutableRawPointer {
    TransHostExport(animators: ["push": CornerPush.init, "pop": CornerPop.init, "present": CornerPresent.init]) }
