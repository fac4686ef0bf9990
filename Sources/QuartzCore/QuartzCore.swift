// `import QuartzCore` for transhost plugins: CALayer, CATransform3D and friends live in the kit.
@_exported import Foundation
@_exported import TransHostAnimatorKit
