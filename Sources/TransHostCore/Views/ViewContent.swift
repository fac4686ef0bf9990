/// Horizontal alignment of a text label.
public enum TextAlignment: String, Sendable, CaseIterable { case left, center, right }

/// A text label the renderer draws inside a view's bounds.
public struct TextContent: Equatable, Hashable, Sendable {
    public var string: String
    public var fontSize: Double
    public var color: Color
    public var alignment: TextAlignment
    public init(string: String, fontSize: Double = 17, color: Color = .black, alignment: TextAlignment = .center) {
        self.string = string; self.fontSize = fontSize; self.color = color; self.alignment = alignment
    }
}

/// What a view draws besides its background: a label, an image and a border. The renderer
/// rasterizes a view's content once per distinct value, so content is a plain value.
public struct ViewContent: Equatable, Hashable, Sendable {
    public var text: TextContent?
    /// Absolute path of a PNG image, drawn scaled to fill the bounds.
    public var imagePath: String?
    public var borderWidth: Double
    public var borderColor: Color
    public init(text: TextContent? = nil, imagePath: String? = nil, borderWidth: Double = 0, borderColor: Color = .black) {
        self.text = text; self.imagePath = imagePath; self.borderWidth = borderWidth; self.borderColor = borderColor
    }
    public static let none = ViewContent()
}
