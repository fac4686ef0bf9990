/// A straight-alpha RGBA colour, components in [0, 1].
public struct Color: Equatable, Hashable, Sendable {
    public var red, green, blue, alpha: Double
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
    }
    public static let clear = Color(red: 0, green: 0, blue: 0, alpha: 0)
    public static let white = Color(red: 1, green: 1, blue: 1)
    public static let black = Color(red: 0, green: 0, blue: 0)

    /// Parses `#rgb`, `#rrggbb` or `#rrggbbaa`; nil for anything else.
    public init?(hex: String) {
        var s = Substring(hex)
        guard s.first == "#" else { return nil }
        s = s.dropFirst()
        var digits: [Double] = []
        switch s.count {
        case 3:
            for ch in s { guard let v = ch.hexDigitValue else { return nil }; digits.append(Double(v * 17) / 255) }
            digits.append(1)
        case 6, 8:
            var i = s.startIndex
            while i < s.endIndex {
                let j = s.index(i, offsetBy: 2)
                guard let v = UInt8(s[i..<j], radix: 16) else { return nil }
                digits.append(Double(v) / 255)
                i = j
            }
            if digits.count == 3 { digits.append(1) }
        default: return nil
        }
        self.init(red: digits[0], green: digits[1], blue: digits[2], alpha: digits[3])
    }

    /// `#rrggbbaa`, stable for traces.
    public var hexString: String {
        func h(_ v: Double) -> String {
            let n = Int((min(max(v, 0), 1) * 255).rounded())
            let s = String(n, radix: 16)
            return s.count == 1 ? "0" + s : s
        }
        return "#" + h(red) + h(green) + h(blue) + h(alpha)
    }
}
