// `import UIKit` for transhost plugins: the kit (TransHostAnimatorKit) with UIKit's names, and
// Foundation (CGFloat, CGPoint, CGSize, CGRect, NSObject, the C math functions) as on Apple
// platforms, so an animator written for UIKit compiles unchanged.
@_exported import Foundation
@_exported import TransHostAnimatorKit
