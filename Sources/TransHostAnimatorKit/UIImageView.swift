import CTransHost

/// UIImage: a scenario image, by name (a path relative to the scenario; ".png" may be left out).
/// Pixels are the renderer's: a plugin cannot read or draw them.
open class UIImage: NSObject {
    public let name: String
    public init?(named name: String) { self.name = name; super.init() }
    public init?(contentsOfFile path: String) { self.name = path; super.init() }
}

/// UIImageView: a view that shows a scenario image, scaled to fill its bounds.
open class UIImageView: UIView {
    open var image: UIImage? { didSet { show(image) } }

    private func show(_ image: UIImage?) {
        if let image { image.name.withCString { host.view_set_image(handle, $0) } } else { host.view_set_image(handle, nil) }
    }
    open var highlightedImage: UIImage?
    open var isHighlighted = false

    /// Unlike UIKit, the view does not take the image's pixel size (the plugin cannot see
    /// pixels): give it a frame.
    public convenience init(image: UIImage?) {
        self.init(frame: .zero)
        self.image = image
        show(image)  // observers do not run for a class's own initializers
    }
    public override init(frame: CGRect) { super.init(frame: frame) }
    public required init?(coder: NSCoder) { super.init(coder: coder) }
    /// A host view that already shows `image` (a scenario view with an "image").
    init(transhostHandle h: OpaquePointer, shown image: UIImage?) {
        super.init(transhostHandle: h)
        self.image = image  // no observer in the class's own initializer: the host view keeps its image
    }
}

/// UIBlurEffect / UIVisualEffectView: the renderer has no blur; an effect view draws as a
/// translucent tint of the style (light: white at 0.7, dark: black at 0.6, extra light: white at
/// 0.85), which keeps what is behind it readable the way a blur does.
open class UIVisualEffect: NSObject {}

open class UIBlurEffect: UIVisualEffect {
    public enum Style: Int, Sendable { case extraLight, light, dark, regular, prominent }
    public let style: Style
    public init(style: Style) { self.style = style; super.init() }
    var tint: UIColor {
        switch style {
        case .dark: return UIColor(white: 0, alpha: 0.6)
        case .extraLight: return UIColor(white: 1, alpha: 0.85)
        default: return UIColor(white: 1, alpha: 0.7)
        }
    }
}

open class UIVisualEffectView: UIView {
    open var effect: UIVisualEffect? { didSet { backgroundColor = (effect as? UIBlurEffect)?.tint } }
    /// Subviews go here, as in UIKit (it is the view itself).
    open var contentView: UIView { self }
    public init(effect: UIVisualEffect?) {
        super.init(frame: .zero)
        self.effect = effect
        backgroundColor = (effect as? UIBlurEffect)?.tint
    }
    public override init(frame: CGRect) { super.init(frame: frame) }
    public required init?(coder: NSCoder) { super.init(coder: coder) }
}
