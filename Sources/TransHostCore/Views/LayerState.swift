/// A layer's shadow (CALayer's shadow properties). Drawn only when `opacity` > 0.
public struct Shadow: Hashable, Sendable {
    /// nil: no shadow is drawn (CALayer's `shadowColor = nil`).
    public var color: Color?
    public var opacity: Double
    /// In points; positive height moves the shadow down on screen.
    public var offset: Size
    /// The blur radius in points.
    public var radius: Double
    /// The shadow's shape in the layer's coordinates; nil: the layer's own alpha (its
    /// background, rounded by `cornerRadius`, its content and its sublayers).
    public var path: Path?

    public init(color: Color? = .black, opacity: Double = 0, offset: Size = Size(width: 0, height: -3), radius: Double = 3, path: Path? = nil) {
        self.color = color; self.opacity = opacity; self.offset = offset; self.radius = radius; self.path = path
    }
    /// CALayer's defaults: black, opacity 0 (no shadow), offset (0, -3), radius 3.
    public static let none = Shadow()
    public var isVisible: Bool { opacity > 0 && (color?.alpha ?? 0) > 0 }
}

/// What a CAShapeLayer draws: `path` filled with `fillColor` by `fillRule`, then stroked with
/// `strokeColor` (only the stretch from `strokeStart` to `strokeEnd` of its length).
public struct ShapeStyle: Hashable, Sendable {
    public var path: Path?
    /// nil: not filled. CAShapeLayer's default is opaque black.
    public var fillColor: Color?
    /// nil (the default): not stroked.
    public var strokeColor: Color?
    public var lineWidth: Double
    /// Fractions of the path's length, in [0, 1].
    public var strokeStart: Double
    public var strokeEnd: Double
    public var fillRule: FillRule
    public var lineCap: LineCap
    public var lineJoin: LineJoin
    public var miterLimit: Double
    /// Dash lengths in points (nil: a solid line), and where the pattern starts.
    public var lineDashPattern: [Double]?
    public var lineDashPhase: Double

    public init(path: Path? = nil, fillColor: Color? = .black, strokeColor: Color? = nil, lineWidth: Double = 1,
                strokeStart: Double = 0, strokeEnd: Double = 1, fillRule: FillRule = .nonZero, lineCap: LineCap = .butt,
                lineJoin: LineJoin = .miter, miterLimit: Double = 10, lineDashPattern: [Double]? = nil, lineDashPhase: Double = 0) {
        self.path = path; self.fillColor = fillColor; self.strokeColor = strokeColor; self.lineWidth = lineWidth
        self.strokeStart = strokeStart; self.strokeEnd = strokeEnd; self.fillRule = fillRule; self.lineCap = lineCap
        self.lineJoin = lineJoin; self.miterLimit = miterLimit; self.lineDashPattern = lineDashPattern; self.lineDashPhase = lineDashPhase
    }
}

/// What a CAGradientLayer draws: an axial gradient over its bounds from `startPoint` to
/// `endPoint` (unit coordinates of the bounds, (0, 0) the top-left corner), through `colors` at
/// `locations` (nil: evenly spaced). Beyond the ends the end colours extend.
public struct GradientStyle: Hashable, Sendable {
    public var colors: [Color]
    public var locations: [Double]?
    public var startPoint: Point
    public var endPoint: Point

    public init(colors: [Color] = [], locations: [Double]? = nil, startPoint: Point = Point(x: 0.5, y: 0), endPoint: Point = Point(x: 0.5, y: 1)) {
        self.colors = colors; self.locations = locations; self.startPoint = startPoint; self.endPoint = endPoint
    }

    /// The stops the renderer uses: `locations` when there is one per colour, else evenly spaced.
    public var effectiveLocations: [Double] {
        if let l = locations, l.count == colors.count { return l }
        let n = colors.count
        return n < 2 ? Array(repeating: 0, count: n) : (0..<n).map { Double($0) / Double(n - 1) }
    }
}

/// The layer properties beyond a view's `PresentationState`: what a view's own layer adds
/// (masking, shadow, perspective for its sublayers, depth sorting) and what a sublayer has.
public struct LayerStyle: Hashable, Sendable {
    /// Applied to every sublayer (and subview) about this layer's anchor point, after each one's
    /// own transform: a shared perspective (m34 = -1/d) with its vanishing point there.
    public var sublayerTransform: Transform3D
    /// Sorts siblings for drawing: higher values draw later (on top); equal ones keep their order.
    public var zPosition: Double
    /// false: the layer is not drawn when its back faces the viewer (after all transforms).
    public var isDoubleSided: Bool
    public var shadow: Shadow
    /// A border inside the bounds (also rounded by the corner radius).
    public var borderWidth: Double
    public var borderColor: Color?

    public init(sublayerTransform: Transform3D = .identity, zPosition: Double = 0, isDoubleSided: Bool = true, shadow: Shadow = .none,
                borderWidth: Double = 0, borderColor: Color? = .black) {
        self.sublayerTransform = sublayerTransform; self.zPosition = zPosition; self.isDoubleSided = isDoubleSided
        self.shadow = shadow; self.borderWidth = borderWidth; self.borderColor = borderColor
    }
    public static let plain = LayerStyle()
}

/// Which CALayer class a layer is.
public enum LayerKind: String, Hashable, Sendable, CaseIterable { case plain, shape, gradient }

/// Every value of a standalone layer (CALayer, CAShapeLayer or CAGradientLayer) at one instant:
/// its model values, or its presentation values while animations run. Geometry is Core
/// Animation's: `position` is in the superlayer's coordinates, `anchorPoint` in unit
/// coordinates of `bounds`, and `transform` applies about the anchor point.
public struct LayerState: Hashable, Sendable {
    public var bounds: Rect
    public var position: Point
    public var anchorPoint: Point
    public var transform: Transform3D
    public var opacity: Double
    public var isHidden: Bool
    public var backgroundColor: Color?
    public var cornerRadius: Double
    /// Clips the sublayers (and the layer's own drawing) to the bounds rounded by `cornerRadius`.
    public var masksToBounds: Bool
    public var style: LayerStyle
    /// Only for `.shape` layers.
    public var shape: ShapeStyle?
    /// Only for `.gradient` layers.
    public var gradient: GradientStyle?

    public init(kind: LayerKind = .plain) {
        bounds = .zero; position = .zero; anchorPoint = Point(x: 0.5, y: 0.5); transform = .identity
        opacity = 1; isHidden = false; backgroundColor = nil; cornerRadius = 0; masksToBounds = false; style = .plain
        shape = kind == .shape ? ShapeStyle() : nil
        gradient = kind == .gradient ? GradientStyle() : nil
    }

    /// The frame in the superlayer's coordinates (see View.frame).
    public var frame: Rect { View.frame(bounds: bounds, position: position, anchor: anchorPoint, transform: transform) }
}
