/// The sizes a scenario may ask for (docs/scenario.md, "Limits"). Each is far above what a
/// transition demo needs and far below what would exhaust memory, the stack or patience; a
/// scenario past one is refused when it is read, with the field and the limit.
public enum ScenarioLimits {
    /// Device width and height, in points.
    public static let maxDevicePoints = 4096.0
    /// Device pixels (points x scale) on either side, and in all.
    public static let maxDevicePixelsPerSide = 8192
    public static let maxDevicePixels = 32 * 1024 * 1024
    public static let maxActions = 10_000
    public static let maxGestureSamples = 100_000
    /// Views in the whole scenario, and how deep subviews may nest under a controller's view.
    public static let maxViews = 10_000
    public static let maxNesting = 32
    /// Frame origins and sizes, in points (either sign).
    public static let maxCoordinate = 100_000.0
    public static let maxCornerRadius = 10_000.0
    public static let maxBorderWidth = 10_000.0
    public static let maxTextSize = 1_000.0
    /// Pixels of an image (a PNG is decoded whole, 4 bytes a pixel).
    public static let maxImagePixels = 16 * 1024 * 1024
    /// Seconds of a wait, and of a gesture sample's time.
    public static let maxSeconds = 86_400.0
}

extension Device {
    /// Why this device is too large to render, or nil.
    public var sizeProblem: String? {
        guard width > 0, height > 0, width <= ScenarioLimits.maxDevicePoints, height <= ScenarioLimits.maxDevicePoints else {
            return "width and height must be in (0, \(Int(ScenarioLimits.maxDevicePoints))] points"
        }
        let pw = (width * Double(scale)).rounded(), ph = (height * Double(scale)).rounded()
        let side = Double(ScenarioLimits.maxDevicePixelsPerSide)
        guard pw <= side, ph <= side, pw * ph <= Double(ScenarioLimits.maxDevicePixels) else {
            return "\(Int(width))x\(Int(height)) points at @\(scale)x is \(Int(pw))x\(Int(ph)) pixels; at most \(ScenarioLimits.maxDevicePixelsPerSide) pixels a side and \(ScenarioLimits.maxDevicePixels >> 20) M pixels in all can be rendered (use a smaller device or scale)"
        }
        return nil
    }
}
