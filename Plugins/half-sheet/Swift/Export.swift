// The plugin's export: the manifest's delegate id and the delegate it names.
import UIKit

@_cdecl("th_swift_plugin_make") public func transhostExport() -> UnsafeMutableRawPointer {
    TransHostExport(delegates: ["sheet": HalfSheetTransitioningDelegate.init]) }
