import CTransHost

/// UIColor: an RGBA colour with UIKit's named colours (the light-appearance values of iOS 13+).
open class UIColor: NSObject, @unchecked Sendable {
    public let red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat

    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        func unit(_ x: CGFloat) -> CGFloat { x.isFinite ? min(max(x, 0), 1) : 0 }
        self.red = unit(red); self.green = unit(green); self.blue = unit(blue); self.alpha = unit(alpha)
    }
    public convenience init(white: CGFloat, alpha: CGFloat) { self.init(red: white, green: white, blue: white, alpha: alpha) }
    public convenience init(displayP3Red red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: alpha)
    }
    public convenience init(cgColor: CGColor) {
        let c = cgColor.components ?? [0, 0, 0, 1]
        self.init(red: c[0], green: c[1], blue: c[2], alpha: c[3])
    }
    public convenience init(hue: CGFloat, saturation: CGFloat, brightness: CGFloat, alpha: CGFloat) {
        let h = (hue - hue.rounded(.down)) * 6, s = saturation, v = brightness
        let i = Int(h) % 6, f = h - CGFloat(Int(h))
        let p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f))
        let (r, g, b): (CGFloat, CGFloat, CGFloat) = [(v, t, p), (q, v, p), (p, v, t), (p, q, v), (t, p, v), (v, p, q)][i]
        self.init(red: r, green: g, blue: b, alpha: alpha)
    }
    convenience init(_ c: th_color) { self.init(red: c.red, green: c.green, blue: c.blue, alpha: c.alpha) }

    public func withAlphaComponent(_ alpha: CGFloat) -> UIColor { UIColor(red: red, green: green, blue: blue, alpha: alpha) }
    public var cgColor: CGColor { CGColor(red: red, green: green, blue: blue, alpha: alpha) }
    public func getRed(_ r: UnsafeMutablePointer<CGFloat>?, green g: UnsafeMutablePointer<CGFloat>?,
                       blue b: UnsafeMutablePointer<CGFloat>?, alpha a: UnsafeMutablePointer<CGFloat>?) -> Bool {
        r?.pointee = red; g?.pointee = green; b?.pointee = blue; a?.pointee = alpha
        return true
    }
    public func getWhite(_ w: UnsafeMutablePointer<CGFloat>?, alpha a: UnsafeMutablePointer<CGFloat>?) -> Bool {
        w?.pointee = (red + green + blue) / 3; a?.pointee = alpha
        return true
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let o = object as? UIColor else { return false }
        return (red, green, blue, alpha) == (o.red, o.green, o.blue, o.alpha)
    }
    open override var hash: Int { var h = Hasher(); h.combine(red); h.combine(green); h.combine(blue); h.combine(alpha); return h.finalize() }
    open override var description: String { "UIColor(red: \(red), green: \(green), blue: \(blue), alpha: \(alpha))" }

    var th: th_color { th_color(red: Double(red), green: Double(green), blue: Double(blue), alpha: Double(alpha)) }

    private static func rgb(_ r: Int, _ g: Int, _ b: Int, _ a: CGFloat = 1) -> UIColor {
        UIColor(red: CGFloat(r) / 255, green: CGFloat(g) / 255, blue: CGFloat(b) / 255, alpha: a)
    }
    public class var black: UIColor { UIColor(white: 0, alpha: 1) }
    public class var darkGray: UIColor { UIColor(white: 1.0 / 3, alpha: 1) }
    public class var lightGray: UIColor { UIColor(white: 2.0 / 3, alpha: 1) }
    public class var white: UIColor { UIColor(white: 1, alpha: 1) }
    public class var gray: UIColor { UIColor(white: 0.5, alpha: 1) }
    public class var red: UIColor { UIColor(red: 1, green: 0, blue: 0, alpha: 1) }
    public class var green: UIColor { UIColor(red: 0, green: 1, blue: 0, alpha: 1) }
    public class var blue: UIColor { UIColor(red: 0, green: 0, blue: 1, alpha: 1) }
    public class var cyan: UIColor { UIColor(red: 0, green: 1, blue: 1, alpha: 1) }
    public class var yellow: UIColor { UIColor(red: 1, green: 1, blue: 0, alpha: 1) }
    public class var magenta: UIColor { UIColor(red: 1, green: 0, blue: 1, alpha: 1) }
    public class var orange: UIColor { UIColor(red: 1, green: 0.5, blue: 0, alpha: 1) }
    public class var purple: UIColor { UIColor(red: 0.5, green: 0, blue: 0.5, alpha: 1) }
    public class var brown: UIColor { UIColor(red: 0.6, green: 0.4, blue: 0.2, alpha: 1) }
    public class var clear: UIColor { UIColor(white: 0, alpha: 0) }

    public class var systemRed: UIColor { rgb(255, 59, 48) }
    public class var systemGreen: UIColor { rgb(52, 199, 89) }
    public class var systemBlue: UIColor { rgb(0, 122, 255) }
    public class var systemOrange: UIColor { rgb(255, 149, 0) }
    public class var systemYellow: UIColor { rgb(255, 204, 0) }
    public class var systemPink: UIColor { rgb(255, 45, 85) }
    public class var systemPurple: UIColor { rgb(175, 82, 222) }
    public class var systemTeal: UIColor { rgb(90, 200, 250) }
    public class var systemIndigo: UIColor { rgb(88, 86, 214) }
    public class var systemGray: UIColor { rgb(142, 142, 147) }
    public class var systemGray2: UIColor { rgb(174, 174, 178) }
    public class var systemGray3: UIColor { rgb(199, 199, 204) }
    public class var systemGray4: UIColor { rgb(209, 209, 214) }
    public class var systemGray5: UIColor { rgb(229, 229, 234) }
    public class var systemGray6: UIColor { rgb(242, 242, 247) }
    public class var systemBackground: UIColor { .white }
    public class var secondarySystemBackground: UIColor { rgb(242, 242, 247) }
    public class var tertiarySystemBackground: UIColor { .white }
    public class var systemGroupedBackground: UIColor { rgb(242, 242, 247) }
    public class var label: UIColor { .black }
    public class var secondaryLabel: UIColor { rgb(60, 60, 67, 0.6) }
    public class var tertiaryLabel: UIColor { rgb(60, 60, 67, 0.3) }
    public class var separator: UIColor { rgb(60, 60, 67, 0.29) }
    public class var tintColor: UIColor { systemBlue }
}
