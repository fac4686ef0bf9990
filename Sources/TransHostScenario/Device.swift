import TransHostCore

/// A screen: its size in points and its scale factor.
public struct Device: Equatable, Sendable {
    public var name: String
    public var width: Double
    public var height: Double
    public var scale: Int

    public init(name: String, width: Double, height: Double, scale: Int) {
        self.name = name; self.width = width; self.height = height; self.scale = scale
    }

    public var size: Size { Size(width: width, height: height) }

    /// Named devices (points); scale 2 unless overridden.
    public static let named: [Device] = [
        Device(name: "iphone-4", width: 320, height: 480, scale: 2),
        Device(name: "iphone-5", width: 320, height: 568, scale: 2),
        Device(name: "iphone-8", width: 375, height: 667, scale: 2),
        Device(name: "iphone-12", width: 390, height: 844, scale: 3),
    ]

    public static func named(_ name: String) -> Device? {
        if let d = named.first(where: { $0.name == name }) { return d }
        // "320x568" is accepted too.
        let parts = name.split(separator: "x")
        if parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w > 0, h > 0,
           w <= ScenarioLimits.maxDevicePoints, h <= ScenarioLimits.maxDevicePoints {
            return Device(name: name, width: w, height: h, scale: 2)
        }
        return nil
    }

    /// The seeds' iPhone 5.
    public static let standard = named("iphone-5")!
}
