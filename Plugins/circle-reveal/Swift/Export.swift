// The plugin's export: the manifest's animator id and the animator it names.
import UIKit

@_cdecl("th_swift_plugin_make") public func transhostExport() -> UnsafeMutableRawPointer {
    TransHostExport(animators: ["circle-reveal": CircleReveal.init]) }
