import UIKit

@_cdecl("th_swift_plugin_make") public func transhostExport() -> UnsafeMutableRawPointer {
    TransHostExport(delegates: ["navigation": NavigationDelegate.init, "modal": ModalDelegate.init, "tabs": TabDelegate.init],
                    controllers: [CardController.self, SheetController.self]) }
