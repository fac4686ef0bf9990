// `import CoreGraphics` for transhost plugins: Foundation's CGFloat, CGPoint, CGSize and CGRect,
// and the kit's CGAffineTransform and CGColor.
@_exported import Foundation
@_exported import TransHostAnimatorKit
